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
    let i = 0;
    for (;;) {
      let field = '';
      if (line.charCodeAt(i) === this.quote) {
        i++;
        let closed = false;
        while (i < n) {
          const c = line.charCodeAt(i);
          if (c === this.escape && i + 1 < n) {
            field += line[i + 1];
            i += 2;
          } else if (c === this.quote) {
            if (line.charCodeAt(i + 1) === this.quote) {
              field += line[i];
              i += 2;
            } else {
              i++;
              closed = true;
              break;
            }
          } else {
            field += line[i];
            i++;
          }
        }
        if (!closed) throw new FieldValueError(`unterminated quoted field starting at column ${out.length + 1}.`);
        if (i < n && line.charCodeAt(i) !== this.delim) {
          throw new FieldValueError(`unexpected character '${line[i]}' after the closing quote of field ${out.length + 1}.`);
        }
      } else {
        while (i < n) {
          const c = line.charCodeAt(i);
          if (c === this.delim) break;
          if (c === this.escape && i + 1 < n) {
            field += line[i + 1];
            i += 2;
          } else {
            field += line[i];
            i++;
          }
        }
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
