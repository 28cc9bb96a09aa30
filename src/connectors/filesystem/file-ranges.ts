/**
 * How large line files are cut into byte ranges, so one big file is read by several source subtasks.
 *
 * A range `[start, end)` owns every line that STARTS in it (as Hadoop's and Flink's delimited text input):
 * its reader skips to the first line start at or after `start` and reads past `end` to finish the last
 * line it owns. Ranges never cut through a record because the boundary is only a hint for where readers
 * begin looking; line breaks decide. Only line formats whose records never span a line break are cut
 * (see line-splitting.ts); bulk files (arrow) are always one split.
 */

/** Sizing of byte ranges, fixed when the source is built. */
export interface SplitSizing {
  /** No range is larger than this (`source.split-max-size`). */
  readonly maxBytes: number;
  /**
   * No file smaller than this is cut, and no range is smaller unless the bytes per subtask are; this keeps
   * the per-split overhead (open, seek, skip to a line start) small against the bytes read. Flink's Hive
   * source calls this the file open cost and defaults it to 4 MB.
   */
  readonly minBytes: number;
}

/** Flink's `table.exec.hive.file-open-cost` default, the floor of a range's size. */
export const DEFAULT_MIN_SPLIT_BYTES = 4 * 1024 * 1024;

/**
 * The range size for one discovery of files, as Flink's Hive source (and Spark) compute it: the bytes per
 * subtask, so every subtask gets work, clamped to `[minBytes, maxBytes]`. Called by the enumerator once per
 * discovered batch of files.
 */
export function rangeSizeFor(fileSizes: readonly number[], parallelism: number, sizing: SplitSizing): number {
  let total = 0;
  for (const s of fileSizes) total += s;
  const perSubtask = Math.ceil(total / Math.max(1, parallelism));
  return Math.max(1, Math.min(sizing.maxBytes, Math.max(sizing.minBytes, perSubtask)));
}

/** What a range needs to know of its file; `FileSplit` satisfies it. */
export interface RangeableFile {
  readonly splitId: string;
  readonly path: string;
  readonly size: number;
  readonly offset: number;
}

/**
 * Cuts a file into ranges of at most `rangeSize` bytes, of equal size so the last one is not a sliver.
 * A file that fits is returned as is (a whole-file split, id = path, as before ranges existed). Every
 * range's `offset` starts at its `start`; the last range has no `end` (it reads to the end of the file).
 */
export function toRanges<F extends RangeableFile>(file: F, rangeSize: number): (F & { readonly start: number; readonly end?: number })[] {
  if (file.size <= rangeSize) return [{ ...file, start: 0 }];
  const count = Math.ceil(file.size / rangeSize);
  const step = Math.ceil(file.size / count);
  const out: (F & { readonly start: number; readonly end?: number })[] = [];
  for (let start = 0; start < file.size; start += step) {
    const end = start + step;
    const range = { ...file, splitId: `${file.path}#bytes=${start}-${Math.min(end, file.size)}`, start, offset: start };
    out.push(end >= file.size ? range : { ...range, end });
  }
  return out;
}
