import type { Row } from '../../types/row.js';
import type { RowType } from '../../types/logical-type.js';
import type { SerializationSchema } from '../../factories/format.js';
import { encodeError, withField } from '../format-error.js';
import { utf8Encode } from '../../util/utf8.js';
import type { CsvSettings } from './csv-options.js';
import { createCsvFieldWriter } from './csv-values.js';
import type { CsvFieldWriter } from './csv-values.js';

/** Jackson checks at most this many characters for quoting; longer strings are always quoted. */
const MAX_QUOTE_CHECK = 24;

/**
 * `'format' = 'csv'` encoder: one line per row ending in `\n`, quoted exactly as Flink's
 * CsvRowDataSerializationSchema (Jackson's CsvEncoder, loose quoting): a string is quoted when it is longer
 * than 24 characters or holds a character at or below the highest of delimiter, quote and line break
 * (so any space or control character), the quote or the delimiter. Quotes inside are doubled. NULL is
 * written as the null literal, or as an empty field.
 */
export class CsvRowEncoder implements SerializationSchema {
  private readonly writers: CsvFieldWriter[];
  private readonly names: string[];
  private readonly minSafe: number;
  /** Per field: what a NULL is written as (see the constructor). */
  private readonly nullTexts: string[];

  constructor(
    rowType: RowType,
    private readonly settings: CsvSettings,
  ) {
    this.writers = rowType.fields.map((f) => createCsvFieldWriter(f.type, settings));
    this.names = rowType.fields.map((f) => f.name);
    const quote = settings.quoteCharacter?.charCodeAt(0) ?? 0;
    this.minSafe = Math.max(settings.fieldDelimiter.charCodeAt(0), quote, 10) + 1;
    const nullText = settings.nullLiteral ?? '';
    // Flink 1.20.3 writes a NULL ROW field like a row of NULL fields, `;` for two fields (its output without a null
    // literal, test/formats/flink-goldens/csv-nested.csv); with a null literal, not checked against Flink, the literal.
    this.nullTexts = rowType.fields.map((f) =>
      f.type.kind === 'ROW' && settings.nullLiteral === undefined ? settings.arrayElementDelimiter.repeat(Math.max(0, f.type.fields.length - 1)) : nullText,
    );
  }

  serialize(row: Row): Uint8Array {
    return utf8Encode(this.writeLine(row.fields));
  }

  /** The line (with its `\n`) for a fields array. */
  writeLine(fields: readonly unknown[]): string {
    const delim = this.settings.fieldDelimiter;
    let s = '';
    for (let i = 0; i < this.writers.length; i++) {
      if (i > 0) s += delim;
      const v = fields[i];
      if (v === null || v === undefined) {
        s += this.nullTexts[i]!;
        continue;
      }
      const w = this.writers[i]!;
      let t: string;
      try {
        t = w.write(v);
      } catch (e) {
        throw encodeError('csv', withField(e, this.names[i]!));
      }
      s += w.quoteChecked && this.needsQuotes(t) ? this.quoted(t) : t;
    }
    return `${s}\n`;
  }

  private needsQuotes(t: string): boolean {
    const q = this.settings.quoteCharacter;
    if (q === undefined || t.length === 0) return false;
    if (t.length > MAX_QUOTE_CHECK) return true;
    const qc = q.charCodeAt(0);
    const dc = this.settings.fieldDelimiter.charCodeAt(0);
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c < this.minSafe || c === qc || c === dc) return true;
    }
    return false;
  }

  private quoted(t: string): string {
    const q = this.settings.quoteCharacter!;
    let body = t.includes(q) ? t.replaceAll(q, q + q) : t;
    const esc = this.settings.escapeCharacter;
    if (esc !== undefined && esc !== q && body.includes(esc)) body = body.replaceAll(esc, esc + esc);
    return q + body + q;
  }
}
