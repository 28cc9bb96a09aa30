import type { FileHandle } from 'node:fs/promises';

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
const NL = 10;

/**
 * Reads the lines of one byte range `[start, end)` of a file in chunks: the lines that START in the range,
 * the last one read to its end even past `end`. Used by the file source's split reader, one cursor per
 * split being read, one `next` per fetch; never shared. A line break is the byte `\n` (a `\r` before it is
 * the decoder's business), which never occurs inside a multi-byte UTF-8 character, so cutting at byte
 * positions is safe for UTF-8 text.
 */
export class LineRangeCursor {
  private position: number;
  private carry: Buffer | undefined;
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
  ) {
    // A line starts at `start` only if the byte before it ends a line, so reading begins one byte early.
    this.aligning = start > 0 && offset === start;
    this.position = this.aligning ? start - 1 : offset;
  }

  /** Reads the next chunk of up to `chunkSize` bytes and returns the owned lines completed so far. */
  async next(chunkSize: number): Promise<LineChunk> {
    const buf = Buffer.allocUnsafe(chunkSize);
    const { bytesRead } = await this.handle.read(buf, 0, chunkSize, this.position);
    const eof = bytesRead === 0;
    const carried = this.carry;
    let chunk = carried ? Buffer.concat([carried, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
    let at = this.position - (carried?.length ?? 0);
    this.position += bytesRead;
    this.carry = undefined;
    if (this.aligning) {
      const nl = chunk.indexOf(NL);
      // Still inside the line that straddles `start`: the previous range owns it.
      if (nl < 0) return { data: EMPTY, at: this.position, offset: this.start, done: eof };
      this.aligning = false;
      chunk = chunk.subarray(nl + 1);
      at += nl + 1;
    }
    if (at >= this.end) return { data: EMPTY, at, offset: at, done: true };
    // The line holding the range's last byte (index end - at - 1) is the last one owned; it ends at the
    // first line break from there on.
    const last = this.end - at - 1;
    const endNl = last < chunk.length ? chunk.indexOf(NL, last) : -1;
    let complete: number;
    let done: boolean;
    if (endNl >= 0) {
      complete = endNl + 1;
      done = true;
    } else if (eof) {
      complete = chunk.length;
      done = true;
    } else {
      complete = chunk.lastIndexOf(NL) + 1;
      done = false;
    }
    if (!done && complete < chunk.length) this.carry = Buffer.from(chunk.subarray(complete));
    return { data: chunk.subarray(0, complete), at, offset: at + complete, done };
  }

  /** Closes the file; called once, when the range is done or the reader closes. */
  async close(): Promise<void> {
    await this.handle.close();
  }
}
