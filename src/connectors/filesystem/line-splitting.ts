import type { DecodingFormat } from '../../factories/format.js';

/**
 * A line format that says whether a file of its records may be cut into byte ranges (file-ranges.ts):
 * true only if no record ever contains a line break, so a reader starting mid-file can find the next
 * record at the next `\n`. A format opts in by adding `isSplittable` to the `DecodingFormat` it creates
 * (Flink's `BulkFormat.isSplittable` / `StreamFormat.isSplittable`). Called once per table source, when
 * the filesystem connector builds it.
 */
export interface SplittableDecodingFormat extends DecodingFormat {
  isSplittable(): boolean;
}

/**
 * Whether the filesystem source may read files of `format` as byte ranges. The format's own answer wins;
 * formats that do not declare one yet are judged by identifier:
 * - json and raw: one record per line, so yes.
 * - csv: only with `csv.disable-quote-character` = true. A quoted field may hold a line break, and a
 *   reader that starts mid-file cannot tell whether a `\n` is inside quotes without reading from the
 *   start, so quoted csv is read whole, one split per file (Flink's csv reader is never splittable).
 * - changelog formats (debezium-json, canal-json, ...): no, because ranges are read in parallel and the
 *   changes of one file must stay in order.
 * - anything else (avro, ...): no.
 */
export function isSplittableLineFormat(format: DecodingFormat, identifier: string | undefined, tableOptions: Readonly<Record<string, string>>): boolean {
  const declared = (format as Partial<SplittableDecodingFormat>).isSplittable;
  if (typeof declared === 'function') return declared.call(format);
  if (!format.getChangelogMode().isInsertOnly()) return false;
  switch (identifier) {
    case 'json':
    case 'raw':
      return true;
    case 'csv':
      return (tableOptions['csv.disable-quote-character'] ?? '').trim().toLowerCase() === 'true';
    default:
      return false;
  }
}
