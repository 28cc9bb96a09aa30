import type { FileSplit } from './file-source.js';

/**
 * How much of a split's bytes is consumed, for a bounded read's progress (`pendingBytes`, `numBytesIn`).
 * A line split owns `[start, end)`; its offset, a byte position, counts within that range only, so the
 * ranges of one file add up to the file's size even though a range's last line runs past its end. A bulk
 * split's offset counts rows, not bytes: it is consumed all at once, when it ends.
 */

/** The byte after a split's range: its `end`, or the file's end. */
function rangeEnd(split: FileSplit): number {
  return Math.min(split.end ?? split.size, split.size);
}

/** A line split's position counted within its range. */
function within(split: FileSplit, offset: number): number {
  return Math.min(Math.max(offset, split.start ?? 0), rangeEnd(split));
}

/** Bytes of the split still to consume at `offset` (its checkpointed position). */
export function bytesLeft(split: FileSplit, offset: number, bulk: boolean): number {
  if (bulk) return split.size;
  return rangeEnd(split) - within(split, offset);
}

/** Bytes a line split consumed moving from offset `from` to `to`. */
export function lineBytesBetween(split: FileSplit, from: number, to: number): number {
  return Math.max(0, within(split, to) - within(split, from));
}
