import type { FileHandle } from 'node:fs/promises';
import { ConnectorError } from '../../errors/sluice-error.js';

/** The complete lines a range owns in one chunk, and where a restored reader would continue. */
export interface LineChunk {
  /** Whole lines (each with its `\n`, except a last line at the end of the file); may be empty. */
  readonly data: Buffer;
  /** File position of `data[0]`, for error messages. */
  readonly at: number;
  /**
   * The split's checkpoint offset after this chunk: the line start after `data`, or the range start
   * while the reader is still looking for its first line (a restore then looks again, with the same result).
   */
  readonly offset: number;
  /** The range owns no more lines: its last line ended, or the file did. */
  readonly done: boolean;
}

const EMPTY = Buffer.alloc(0);
/** Longest carry copied in front of the next chunk's bytes (see `next`); longer ones are joined at their line's end. */
const PREFIX_CARRY_MAX = 64 * 1024;
const NL = 10;

/** The default of 'source.max-record-size': 128 MiB, far above any sane line, below V8's string limit. */
export const DEFAULT_MAX_RECORD_BYTES = 128 * 1024 * 1024;

/** What a cursor needs besides the range: the limit on one line and how errors name the file. */
export interface LineCursorLimits {
  /** Longest line accepted, in bytes without its line break; longer ones fail the read. */
  readonly maxRecordBytes: number;
  /** The file's path, for the error. */
  readonly path: string;
}

/**
 * Reads the lines of one byte range `[start, end)` of a file in chunks: the lines that START in the range,
 * the last one read to its end even past `end`. Used by the file source's split reader, one cursor per
 * split being read, one `next` per fetch; never shared. A line break is the byte `\n` (a `\r` before it is
 * the decoder's business), which never occurs inside a multi-byte UTF-8 character, so cutting at byte
 * positions is safe for UTF-8 text.
 *
 * Linear in the line length: the unfinished tail of a line waits as a list of chunks (never re-copied
 * per chunk), only new bytes are searched for line breaks, and the tail is joined once when its line
 * ends. A line longer than `maxRecordBytes` fails with the file and the line's byte offset.
 *
 * Lines are not counted here (a native search per line): the reader, which walks every line anyway, counts
 * them from the file's first line (`offset` 0 is line 1; a cursor starting mid-file cannot know its line).
 */
export class LineRangeCursor {
  private position: number;
  /** The unfinished line after the last line break, as read (no `\n` in it). */
  private carry: Buffer[] = [];
  private carryLength = 0;
  /** True until the first line start at or after `start` is found (ranges after the first). */
  private aligning: boolean;

  /**
   * `offset` is the split's checkpointed position: `start` for a fresh range, else the line start after
   * the last line emitted. `end` is Infinity for a range that reads to the end of the file.
   */
  constructor(
    private readonly handle: FileHandle,
    private readonly start: number,
    offset: number,
    private readonly end: number,
    private readonly limits: LineCursorLimits = { maxRecordBytes: DEFAULT_MAX_RECORD_BYTES, path: '<unknown>' },
  ) {
    // A line starts at `start` only if the byte before it ends a line, so reading begins one byte early.
    this.aligning = start > 0 && offset === start;
    this.position = this.aligning ? start - 1 : offset;
  }

  /** Reads the next chunk of up to `chunkSize` bytes and returns the owned lines completed so far. */
  async next(chunkSize: number): Promise<LineChunk> {
    const carried = this.carryLength;
    // A short carry (the usual line cut by the last chunk) is copied in front of the new bytes, so the chunk's
    // lines are one buffer without joining the whole chunk to it; a long one (a line over many chunks) is joined
    // once its line ends, as it is never re-copied per chunk.
    const prefix = carried > 0 && carried <= PREFIX_CARRY_MAX ? carried : 0;
    const buf = Buffer.allocUnsafe(prefix + chunkSize);
    if (prefix > 0) {
      let p = 0;
      for (const part of this.carry) p += part.copy(buf, p);
    }
    const { bytesRead } = await this.handle.read(buf, prefix, chunkSize, this.position);
    const eof = bytesRead === 0;
    let fresh = buf.subarray(prefix, prefix + bytesRead);
    let at = this.position - carried;
    this.position += bytesRead;
    if (this.aligning) {
      const nl = fresh.indexOf(NL);
      // Still inside the line that straddles `start`: the previous range owns it.
      if (nl < 0) return { data: EMPTY, at: this.position, offset: this.start, done: eof };
      this.aligning = false;
      fresh = fresh.subarray(nl + 1);
      at += nl + 1;
    }
    if (at >= this.end) {
      this.clearCarry();
      return { data: EMPTY, at, offset: at, done: true };
    }
    // The line holding the range's last byte (index end - at - 1 of carry + fresh) is the last one owned;
    // it ends at the first line break from there on. The carry holds no line break, so only fresh is searched.
    const last = this.end - at - 1;
    const from = Math.max(0, last - carried);
    const endNl = from < fresh.length ? fresh.indexOf(NL, from) : -1;
    let completeFresh: number;
    let done: boolean;
    if (endNl >= 0) {
      completeFresh = endNl + 1;
      done = true;
    } else if (eof) {
      completeFresh = fresh.length;
      done = true;
    } else {
      completeFresh = fresh.lastIndexOf(NL) + 1;
      done = false;
    }
    if (completeFresh === 0 && !done) {
      // No line ended in this chunk: the line grows by the whole chunk.
      this.carry.push(fresh);
      this.carryLength += fresh.length;
      this.checkLength(this.carryLength, at);
      return { data: EMPTY, at, offset: at, done: false };
    }
    this.checkLength(carried + firstLineLength(fresh, completeFresh), at);
    const head = fresh.subarray(0, completeFresh);
    // With a prefix, the carry sits right before `fresh` in `buf` (aligning never happens with a carry).
    const data = carried === 0 ? head : prefix > 0 ? buf.subarray(0, prefix + completeFresh) : Buffer.concat([...this.carry, head], carried + head.length);
    this.clearCarry();
    if (!done && completeFresh < fresh.length) {
      // A copy, so the rest of this chunk's buffer can be freed.
      this.carry.push(Buffer.from(fresh.subarray(completeFresh)));
      this.carryLength = fresh.length - completeFresh;
      this.checkLength(this.carryLength, at + data.length);
    }
    return { data, at, offset: at + data.length, done };
  }

  /** Closes the file; called once, when the range is done or the reader closes. */
  async close(): Promise<void> {
    this.clearCarry();
    await this.handle.close();
  }

  private clearCarry(): void {
    this.carry = [];
    this.carryLength = 0;
  }

  /** Fails a line of `length` bytes (so far) starting at file offset `at` when it passes the limit. */
  private checkLength(length: number, at: number): void {
    if (length <= this.limits.maxRecordBytes) return;
    throw new ConnectorError(
      `A record in file '${this.limits.path}' starting at byte offset ${at} is longer than 'source.max-record-size' ` +
        `(${this.limits.maxRecordBytes} bytes); raise the option if records this large are expected, or check that the file is really line-separated.`,
    );
  }
}

/** Length of the first line within `chunk[0, complete)` (without its `\n`), the one that continues the carry. */
function firstLineLength(chunk: Buffer, complete: number): number {
  const nl = chunk.indexOf(NL);
  return nl >= 0 && nl < complete ? nl : complete;
}
