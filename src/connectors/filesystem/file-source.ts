import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { isAscii } from 'node:buffer';
import type { DeserializationSchema } from '../../factories/format.js';
import { ConnectorError } from '../../errors/sluice-error.js';
import type { BulkDecoder } from '../../formats/arrow/bulk-format.js';
import {
  jsonSerializer,
  RecordsBySplits,
  SingleThreadFetcherManager,
  SourceReaderBase,
  type Boundedness,
  type RecordEmitter,
  type RecordsWithSplitIds,
  type Source,
  type SourceOutput,
  type SourceReader,
  type SourceReaderContext,
  type SplitEnumerator,
  type SplitEnumeratorContext,
  type SplitReader,
  type SplitsChange,
  type VersionedSerializer,
} from '../../runtime/index.js';
import { Row } from '../../types/row.js';
import { ColumnBatch } from '../../types/columns/column-batch.js';
import type { ColumnVector } from '../../types/columns/column-vector.js';
import type { SplitSizing } from './file-ranges.js';
import { FileEnumerator } from './file-enumerator.js';
import { bytesLeft, lineBytesBetween } from './file-progress.js';
import { DEFAULT_MAX_RECORD_BYTES, LineRangeCursor } from './line-range-cursor.js';
import { asciiDecode } from '../../util/utf8.js';
import { asAsciiLineDecoder } from './ascii-lines.js';
import { listFiles } from './list-files.js';

/** One file or one byte range of a large line file (file-ranges.ts), and how far it has been read. */
export interface FileSplit {
  /** The path for a whole file; path plus byte range for a range. */
  readonly splitId: string;
  readonly path: string;
  /**
   * Line formats: the byte after the last line emitted (always a line start), or `start` before the
   * range's first line was found. Bulk formats: the number of
   * rows already emitted, since a bulk file is decoded from its start and has no resumable byte position.
   * Checkpoints from before bulk files were read in batches only ever hold 0 here for a bulk split (its
   * state ended with the file), so both readings agree on them.
   */
  readonly offset: number;
  /** The file's size (the `file.size` metadata column), not the range's. */
  readonly size: number;
  /** First byte of the range; absent (checkpoints from before ranges) = 0. */
  readonly start?: number;
  /** The range owns lines starting before this byte; absent = to the end of the file. */
  readonly end?: number;
  readonly modificationTime: number;
  /** Partition values as folder text, in partition-key order. */
  readonly partition: readonly string[];
}

export interface FileEnumState {
  readonly unassigned: FileSplit[];
  /** Paths already turned into splits (continuous mode never reads a path twice). */
  readonly seen: string[];
  readonly discovered: boolean;
}

/** How file bytes become rows: line by line through a DecodingFormat, or whole files through a bulk format. */
export type FileReadFormat =
  | {
      readonly kind: 'lines';
      readonly decoder: () => DeserializationSchema;
      /**
       * The decoder's rows hold exactly the `file` fields, in the order of their indexes, each a value or null (a
       * decoder from DecodingFormat.createProjectedDecoder): when the produced fields are just those, a decoded
       * row is emitted as it is. Absent = rows are projected into the produced fields.
       */
      readonly projected?: boolean;
    }
  | { readonly kind: 'bulk'; readonly decoder: () => BulkDecoder };

/** Where each produced field comes from. */
export type FieldSource =
  | { readonly kind: 'file'; readonly index: number }
  | { readonly kind: 'partition'; readonly index: number; readonly convert: (text: string) => unknown }
  | { readonly kind: 'metadata'; readonly key: 'file.path' | 'file.name' | 'file.size' | 'file.modification-time' };

export interface FileSourceSettings {
  readonly root: string;
  readonly partitionKeys: readonly string[];
  readonly pathRegex: RegExp | undefined;
  /** undefined = bounded (scan once). */
  readonly monitorIntervalMs: number | undefined;
  readonly format: FileReadFormat;
  readonly fields: readonly FieldSource[];
  /** Bytes read per fetch from a line-oriented file. */
  readonly chunkSize?: number;
  /** Longest line a line format may have ('source.max-record-size'); default DEFAULT_MAX_RECORD_BYTES. */
  readonly maxRecordBytes?: number;
  /**
   * Line formats whose records never span a line break: files larger than a range are read as byte
   * ranges, one split each. Absent = one split per file (bulk formats are never cut).
   */
  readonly split?: SplitSizing;
}

export { listFiles };

/** A fetched batch, as rows or (a columnar bulk format) as columns, and the split's offset after it. */
type Element =
  | { readonly kind: 'rows'; readonly rows: Row[]; readonly offset: number }
  | { readonly kind: 'columns'; readonly columns: ColumnBatch; readonly offset: number };

const NONE_FINISHED: ReadonlySet<string> = new Set();

/** One fetch's result: the split's element, if any, and whether the split ended with it. */
function batchOf(splitId: string, element: Element | null, finished: boolean): RecordsWithSplitIds<Element> {
  return new RecordsBySplits(new Map([[splitId, element === null ? [] : [element]]]), finished ? new Set([splitId]) : NONE_FINISHED);
}

/** A line file or range being read. */
interface LineCursor {
  readonly kind: 'lines';
  readonly split: FileSplit;
  readonly lines: LineRangeCursor;
  /**
   * 1-based file line number of the next chunk's first line, when known (errors name it): counted here while
   * the lines are decoded, from line 1 at the file's start; a split starting mid-file (a later range, a restored
   * split) cannot know it.
   */
  line: number | undefined;
}

/**
 * A bulk file being read: its bytes are in memory (the format needs them all) and `batches` yields its rows
 * lazily, so only one batch of rows is built per fetch instead of the whole file's.
 */
interface BulkCursor {
  readonly kind: 'bulk';
  readonly split: FileSplit;
  readonly size: number;
  readonly batches: Iterator<Row[] | ColumnBatch>;
  /** Rows of the file read so far, emitted or skipped; the split's offset after the next element. */
  row: number;
}

/** Reads one file at a time: chunks of lines, or a bulk file one decoded batch at a time. */
class FileSplitReader implements SplitReader<Element, FileSplit> {
  private readonly queue: FileSplit[] = [];
  private current: LineCursor | BulkCursor | undefined;
  private lineDecoder: DeserializationSchema | undefined;
  private bulkDecoder: BulkDecoder | undefined;
  /**
   * A decoded row is the produced row (a projected decoder, no partition or metadata column): it is emitted as it
   * is instead of being copied into a second row, one row per record.
   */
  private readonly passThrough: boolean;

  constructor(private readonly s: FileSourceSettings) {
    this.passThrough = s.format.kind === 'lines' && s.format.projected === true && s.fields.every((f, i) => f.kind === 'file' && f.index === i);
  }

  async fetch(): Promise<RecordsWithSplitIds<Element>> {
    if (!this.current) {
      const split = this.queue.shift();
      if (!split) return new RecordsBySplits(new Map());
      let handle: FileHandle;
      try {
        handle = await open(split.path, 'r');
      } catch (e) {
        throw new ConnectorError(`Cannot open file '${split.path}': ${(e as Error).message}`, { cause: e });
      }
      this.current =
        this.s.format.kind === 'bulk'
          ? await this.openBulk(split, handle, this.s.format.decoder)
          : { kind: 'lines', split, line: split.offset === 0 ? 1 : undefined, lines: new LineRangeCursor(handle, split.start ?? 0, split.offset, split.end ?? Infinity, {
              maxRecordBytes: this.s.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
              path: split.path,
            }),
          };
    }
    const cur = this.current;
    return cur.kind === 'bulk' ? this.fetchBulk(cur) : this.fetchLines(cur);
  }

  /** The complete owned lines of the next chunk; bytes after the last line break wait for the next fetch. */
  private async fetchLines(cur: LineCursor): Promise<RecordsWithSplitIds<Element>> {
    const rows: Row[] = [];
    const chunk = await cur.lines.next(this.s.chunkSize ?? 256 * 1024);
    cur.line = this.decodeLines(chunk.data, chunk.at, cur.line, cur.split, rows);
    const id = cur.split.splitId;
    if (chunk.done) {
      await cur.lines.close();
      this.current = undefined;
    }
    return batchOf(id, { kind: 'rows', rows, offset: chunk.offset }, chunk.done);
  }

  /** Reads the whole file (the handle is closed here) and starts decoding it; no rows are built yet. */
  private async openBulk(split: FileSplit, handle: FileHandle, decoder: () => BulkDecoder): Promise<BulkCursor> {
    let data: Buffer;
    try {
      data = await handle.readFile();
    } finally {
      await handle.close();
    }
    const d = (this.bulkDecoder ??= decoder());
    const origin = (): string => `file ${split.path}`;
    // A columnar format's batches are handed on as columns: rows are built only where an operator needs them.
    const batches = (d.decodeColumnBatches ? d.decodeColumnBatches(data, origin) : d.decodeBatches(data, origin))[Symbol.iterator]();
    return { kind: 'bulk', split, size: data.length, batches, row: 0 };
  }

  /**
   * The next decoded batch after the split's offset. A restored split's first `offset` rows were emitted
   * before the checkpoint; they are decoded again (the only way to reach them) but dropped, so each row is
   * emitted exactly once. The end of the file is an element-less batch that finishes the split, which keeps
   * each fetch to one decoded batch instead of peeking at the next.
   */
  private fetchBulk(cur: BulkCursor): RecordsWithSplitIds<Element> {
    const id = cur.split.splitId;
    for (;;) {
      const next = cur.batches.next();
      if (next.done === true) {
        this.current = undefined;
        return batchOf(id, null, true);
      }
      const batch = next.value;
      const skip = Math.min(batch.length, Math.max(0, cur.split.offset - cur.row));
      cur.row += batch.length;
      if (skip === batch.length) continue;
      if (batch instanceof ColumnBatch && skip === 0) {
        return batchOf(id, { kind: 'columns', columns: this.projectColumns(batch, cur.split, cur.size), offset: cur.row }, false);
      }
      // Rows, or the first batch after a restore that resumes inside it: rows from the offset on.
      const decoded = batch instanceof ColumnBatch ? batch.toRows() : batch;
      const rows = new Array<Row>(decoded.length - skip);
      for (let i = skip; i < decoded.length; i++) rows[i - skip] = this.project(decoded[i]!, cur.split, cur.size);
      return batchOf(id, { kind: 'rows', rows, offset: cur.row }, false);
    }
  }

  /**
   * `firstLine` is the file line number of `data`'s first line, when known (errors name it); returns the line
   * number after `data`'s last line (each `\n` ends one).
   */
  private decodeLines(data: Buffer, start: number, firstLine: number | undefined, split: FileSplit, rows: Row[]): number | undefined {
    const decoder = (this.lineDecoder ??= (this.s.format as { decoder: () => DeserializationSchema }).decoder());
    // Rows are decoded straight into `rows` when they need no projection (see passThrough).
    const decoded: Row[] = this.passThrough ? rows : [];
    let from = 0;
    let line = firstLine;
    let at = start;
    // One origin for the chunk, read only when a record fails, during the deserialize call that reports it (the
    // decoders build their error at once), instead of a closure and a "line N" text built for every line.
    const origin = (): string => `file ${split.path}, ${line === undefined ? '' : `line ${line}, `}byte offset ${at}`;
    const max = this.s.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
    // One native ASCII check of the chunk instead of a UTF-8 check per line (the common case of CSV and JSON files).
    const ascii = decoder.deserializeText !== undefined && isAscii(data);
    // An ASCII chunk for a decoder that reads lines in place: one string per window of whole lines (see
    // AsciiLineDecoder and TEXT_WINDOW), the lines handed over as offsets into it.
    const inPlace = ascii ? asAsciiLineDecoder(decoder) : undefined;
    let winStart = 0;
    let winEnd = 0;
    let winBytes = data;
    let winText = '';
    while (from < data.length) {
      let nl: number;
      if (inPlace === undefined) nl = data.indexOf(10, from);
      else {
        if (from >= winEnd) {
          winStart = from;
          winEnd = textWindowEnd(data, from);
          winBytes = data.subarray(winStart, winEnd);
          winText = asciiDecode(data, winStart, winEnd);
        }
        nl = winText.indexOf('\n', from - winStart);
        nl = nl < 0 ? winEnd : winStart + nl;
      }
      if (nl < 0) nl = data.length;
      let end = nl;
      if (end > from && data[end - 1] === 13) end--;
      if (nl - from > max) {
        throw new ConnectorError(
          `A record in file '${split.path}' starting at byte offset ${start + from} is longer than 'source.max-record-size' (${max} bytes); ` +
            'raise the option if records this large are expected, or check that the file is really line-separated.',
        );
      }
      if (end > from) {
        at = start + from;
        if (inPlace !== undefined) inPlace.deserializeAsciiLine(winBytes, winText, from - winStart, end - winStart, decoded, origin);
        else if (ascii) decoder.deserializeText!(asciiDecode(data, from, end), decoded, origin);
        else decoder.deserialize(data.subarray(from, end), decoded, origin);
      }
      from = nl + 1;
      if (line !== undefined) line++;
    }
    if (!this.passThrough) for (const r of decoded) rows.push(this.project(r, split, split.size));
    return line;
  }

  /** The produced columns of a decoded batch: file columns as they are, partition and metadata constant. */
  private projectColumns(batch: ColumnBatch, split: FileSplit, size: number): ColumnBatch {
    const columns = this.s.fields.map((f): ColumnVector => {
      switch (f.kind) {
        case 'file':
          return batch.columns[f.index]!;
        case 'partition':
          return { kind: 'constant', value: f.convert(split.partition[f.index]!) };
        case 'metadata':
          return { kind: 'constant', value: metadataValue(f.key, split, size) };
        default: {
          const never: never = f;
          throw new Error(`unknown field source ${String(never)}`);
        }
      }
    });
    return new ColumnBatch(columns, batch.length);
  }

  private project(r: Row, split: FileSplit, size: number): Row {
    const fields = this.s.fields;
    const out = new Array<unknown>(fields.length);
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      switch (f.kind) {
        case 'file':
          out[i] = r.fields[f.index] ?? null;
          break;
        case 'partition':
          out[i] = f.convert(split.partition[f.index]!);
          break;
        case 'metadata':
          out[i] = metadataValue(f.key, split, size);
          break;
        default: {
          const never: never = f;
          throw new Error(`unknown field source ${String(never)}`);
        }
      }
    }
    return new Row(r.kind, out);
  }

  handleSplitsChanges(change: SplitsChange<FileSplit>): void {
    if (change.kind === 'add') this.queue.push(...change.splits);
  }

  wakeUp(): void {}

  async close(): Promise<void> {
    const cur = this.current;
    this.current = undefined;
    // A bulk file's handle is already closed; ending its generator lets the decoder drop the file's bytes.
    if (cur?.kind === 'bulk') cur.batches.return?.();
    else await cur?.lines.close().catch(() => undefined);
  }
}

/**
 * Chars of one string an ASCII chunk is decoded into for in-place reading. V8 puts a string over 128 KiB in its
 * large-object space, mapped and unmapped by the kernel one by one: a 256 KiB chunk as one string doubled the
 * system time of a CSV scan. Windows this size stay in the young generation and die there.
 */
const TEXT_WINDOW = 32 * 1024;

/** End of the window of whole lines starting at `from`: after the last `\n` within TEXT_WINDOW bytes, else after the first. */
function textWindowEnd(data: Buffer, from: number): number {
  if (data.length - from <= TEXT_WINDOW) return data.length;
  const last = data.lastIndexOf(10, from + TEXT_WINDOW - 1);
  if (last >= from) return last + 1;
  // One line longer than the window: the window is that line.
  const nl = data.indexOf(10, from);
  return nl < 0 ? data.length : nl + 1;
}

function metadataValue(key: 'file.path' | 'file.name' | 'file.size' | 'file.modification-time', split: FileSplit, size: number): unknown {
  return key === 'file.path' ? split.path : key === 'file.name' ? basename(split.path) : key === 'file.size' ? BigInt(size) : split.modificationTime;
}

interface SplitState {
  offset: number;
  readonly split: FileSplit;
}

/** Emits a fetched element and moves its split's offset; a line split's bytes consumed are counted as it goes. */
function fileEmitter(bulk: boolean, countBytesIn: (bytes: number) => void): RecordEmitter<Element, Row, SplitState> {
  return {
    emitRecord(e: Element, output: SourceOutput<Row>, state: SplitState): void {
      if (e.kind === 'rows') output.collectBatch(e.rows);
      else if (output.collectColumns) output.collectColumns(e.columns);
      else output.collectBatch(e.columns.toRows());
      if (!bulk) countBytesIn(lineBytesBetween(state.split, state.offset, e.offset));
      state.offset = e.offset;
    },
  };
}

class FileReader extends SourceReaderBase<Element, Row, FileSplit, SplitState> {
  private readonly bulk: boolean;

  constructor(s: FileSourceSettings, ctx: SourceReaderContext) {
    const bulk = s.format.kind === 'bulk';
    super(new SingleThreadFetcherManager(() => new FileSplitReader(s), 2), fileEmitter(bulk, (n) => ctx.countBytesIn(n)), ctx);
    this.bulk = bulk;
  }
  protected initializedState(split: FileSplit): SplitState {
    return { offset: split.offset, split };
  }
  protected toSplitType(_id: string, st: SplitState): FileSplit {
    return { ...st.split, offset: st.offset };
  }

  /** What an ended split had not counted yet counts now: all of a bulk file, the tail of a line range. */
  protected override onSplitFinished(finished: ReadonlyMap<string, SplitState>): void {
    for (const st of finished.values()) this.context.countBytesIn(bytesLeft(st.split, st.offset, this.bulk));
    super.onSplitFinished(finished);
  }

  /** Bytes left in the splits this reader owns (the enumerator knows those not handed out yet). */
  override pendingBytes(): number {
    let left = 0;
    for (const st of this.currentSplitStates()) left += bytesLeft(st.split, st.offset, this.bulk);
    return left;
  }
}

/**
 * The filesystem connector's FLIP-27 source: a split per file or per byte range of a large line file,
 * checkpointed byte offsets (lines) or row counts (bulk).
 */
export class FileSource implements Source<Row, FileSplit, FileEnumState> {
  constructor(readonly settings: FileSourceSettings) {}

  boundedness(): Boundedness {
    return this.settings.monitorIntervalMs === undefined ? 'BOUNDED' : 'CONTINUOUS_UNBOUNDED';
  }

  createReader(ctx: SourceReaderContext): SourceReader<Row, FileSplit> {
    return new FileReader(this.settings, ctx);
  }

  createEnumerator(ctx: SplitEnumeratorContext<FileSplit>): SplitEnumerator<FileSplit, FileEnumState> {
    return new FileEnumerator(ctx, this.settings, () => listFiles(this.settings), [], [], false);
  }

  restoreEnumerator(ctx: SplitEnumeratorContext<FileSplit>, cp: FileEnumState): SplitEnumerator<FileSplit, FileEnumState> {
    return new FileEnumerator(ctx, this.settings, () => listFiles(this.settings), [...cp.unassigned], cp.seen, cp.discovered);
  }

  getSplitSerializer(): VersionedSerializer<FileSplit> {
    return jsonSerializer();
  }

  getEnumeratorCheckpointSerializer(): VersionedSerializer<FileEnumState> {
    return jsonSerializer();
  }
}
