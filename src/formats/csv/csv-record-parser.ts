import { FieldValueError } from '../format-error.js';
import type { CsvSettings } from './csv-options.js';

/**
 * Splits one CSV record (RFC 4180, with Flink's quote / escape options) into field texts. A record with
 * no quote or escape character takes the `String.split` fast path.
 */
export class CsvRecordParser {
  private readonly delim: number;
  private readonly quote: number;
  private readonly escape: number;

  constructor(private readonly settings: CsvSettings) {
    this.delim = settings.fieldDelimiter.charCodeAt(0);
    this.quote = settings.quoteCharacter === undefined ? -1 : settings.quoteCharacter.charCodeAt(0);
    this.escape = settings.escapeCharacter === undefined ? -1 : settings.escapeCharacter.charCodeAt(0);
  }

  /** Field texts of `line` (without its line break). @throws FieldValueError on an unterminated quote. */
  parse(line: string): string[] {
    const s = this.settings;
    if ((s.quoteCharacter === undefined || !line.includes(s.quoteCharacter)) && (s.escapeCharacter === undefined || !line.includes(s.escapeCharacter))) {
      return line.split(s.fieldDelimiter);
    }
    return this.parseSlow(line);
  }

  private parseSlow(line: string): string[] {
    const out: string[] = [];
    const n = line.length;
    const q = this.quote;
    const esc = this.escape;
    const delim = this.delim;
    let i = 0;
    for (;;) {
      let field = '';
      if (line.charCodeAt(i) === q) {
        // Quoted: copy runs between quote/escape characters with slice, not char by char.
        let runStart = ++i;
        let closed = false;
        while (i < n) {
          const c = line.charCodeAt(i);
          if (c === esc && i + 1 < n) {
            field += line.slice(runStart, i) + line[i + 1];
            i += 2;
            runStart = i;
          } else if (c === q) {
            field += line.slice(runStart, i);
            if (line.charCodeAt(i + 1) === q) {
              field += line[i];
              i += 2;
              runStart = i;
            } else {
              i++;
              closed = true;
              break;
            }
          } else i++;
        }
        if (!closed) throw new FieldValueError(`unterminated quoted field starting at column ${out.length + 1}.`);
        if (i < n && line.charCodeAt(i) !== delim) {
          throw new FieldValueError(`unexpected character '${line[i]}' after the closing quote of field ${out.length + 1}.`);
        }
      } else {
        let runStart = i;
        while (i < n) {
          const c = line.charCodeAt(i);
          if (c === delim) break;
          if (c === esc && i + 1 < n) {
            field += line.slice(runStart, i) + line[i + 1];
            i += 2;
            runStart = i;
          } else i++;
        }
        field += line.slice(runStart, i);
      }
      out.push(field);
      if (i >= n) return out;
      i++; // the delimiter
      if (i === n) {
        out.push('');
        return out;
      }
    }
  }
}
