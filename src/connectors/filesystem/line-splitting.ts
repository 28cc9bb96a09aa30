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
 * Whether the filesystem source may read files of `format` as byte ranges: the format's own answer (json
 * and raw always, csv only without quote and escape characters), and no for a format that declares none
 * (changelog formats such as debezium-json must keep a file's changes in order; avro and others are not
 * line formats). Called once per table source. The arguments after `format` are ignored: the decision used
 * to be made from the format identifier and the table options, and callers may still pass them.
 */
export function isSplittableLineFormat(format: DecodingFormat, ..._ignored: readonly unknown[]): boolean {
  const declared = (format as Partial<SplittableDecodingFormat>).isSplittable;
  return typeof declared === 'function' && declared.call(format) === true;
}
