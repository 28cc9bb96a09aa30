import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { SerializationSchema } from '../../factories/format.js';
import type { BulkEncoder } from '../../formats/arrow/bulk-format.js';
import {
  jsonSerializer,
  type CommitRequest,
  type Committer,
  type GlobalCommitter,
  type Sink,
  type SinkWriter,
  type VersionedSerializer,
  type WriterInitContext,
} from '../../runtime/index.js';
import type { Row } from '../../types/row.js';
import { makeDirectories, syncDirectory, writeFileSynced } from './durable-files.js';
import { removeStaleFiles, type FileWriterState } from './stale-files.js';
import { fileSystemError } from './file-system-errors.js';

/** A closed part file waiting for its checkpoint: renaming `pending` to `final` commits it. */
export interface PendingFile {
  readonly pending: string;
  readonly final: string;
  /** Partition folder relative to the table root ('' when not partitioned). */
  readonly partition: string;
  /** When the writer created the partition's first file in this run (process-time trigger). */
  readonly createdAt: number;
  /** The writer's watermark when it prepared the commit (partition-time trigger). */
  readonly watermark: number | null;
  /** Prepared at the end of a bounded input: every partition written is complete. */
  readonly endOfInput: boolean;
}

export type FileWriteFormat =
  | { readonly kind: 'lines'; readonly encoder: () => SerializationSchema }
  | { readonly kind: 'bulk'; readonly encoder: () => BulkEncoder };

export interface FileSinkSettings {
  readonly root: string;
  readonly format: FileWriteFormat;
  /** The partition folder (`k=v/...`, '' if none) and the file payload columns of a row. */
  readonly bucketOf: (row: Row) => string;
  readonly payloadOf: (row: Row) => Row;
  readonly rollingFileSize: number;
  readonly rolloverIntervalMs: number;
  readonly inactivityIntervalMs: number;
  readonly checkIntervalMs: number;
  /** INSERT OVERWRITE: the committer replaces what the written partitions (or the table) held. */
  readonly overwrite: boolean;
  readonly partitioned: boolean;
  readonly commit: PartitionCommitSettings;
}

export interface PartitionCommitSettings {
  readonly successFile: string | undefined;
  readonly trigger: 'process-time' | 'partition-time';
  readonly delayMs: number;
  /** Event time of a partition (partition-time trigger). */
  readonly partitionTime: (partition: string) => number;
}

interface Bucket {
  readonly dir: string;
  readonly partition: string;
  pending: string;
  final: string;
  handle: FileHandle | undefined;
  chunks: Buffer[];
  buffered: number;
  size: number;
  openedAt: number;
  lastWriteAt: number;
  bulkRows: Row[];
}

const NEWLINE = Buffer.from('\n');

/**
 * Writes part files `part-<uuid>-<subtask>-<n>` through hidden in-progress files
 * `.part-<uuid>-<subtask>-<n>.inprogress.<uuid>`. Every checkpoint rolls all open files (Flink's table
 * rolling policy), so at a barrier everything written is in pending files whose rename the committer does.
 * Durability: a file is fsynced when it is rolled (once per part file), and the directories holding the
 * checkpoint's pending files when it is prepared, so an acknowledged checkpoint never names a file that a
 * machine crash can lose; new partition folders are synced into their parents when created.
 * A writer restored from a checkpoint first removes the hidden files of its subtask that a failed attempt
 * left (see `removeStaleFiles`), keeping the pending files its state says the checkpoint may still commit.
 */
class FileWriter implements SinkWriter<Row, PendingFile, FileWriterState> {
  private readonly buckets = new Map<string, Bucket>();
  private readonly rolled: PendingFile[] = [];
  private readonly firstSeen = new Map<string, number>();
  private readonly uuid = randomUUID();
  private counter = 0;
  private lastCheck = Date.now();
  private watermark: number | null = null;
  private endOfInput = false;
  private readonly encoder: SerializationSchema | undefined;
  private readonly bulk: BulkEncoder | undefined;
  /** Pending files handed to the committer (or restored) whose rename was not seen yet: the writer state. */
  private readonly prepared = new Set<string>();
  /** Removal of a failed attempt's hidden files; awaited before the first file is written. */
  private cleanup: Promise<void> | undefined;

  constructor(
    private readonly s: FileSinkSettings,
    private readonly ctx: WriterInitContext,
    restoredState: readonly FileWriterState[] | undefined,
  ) {
    if (s.format.kind === 'lines') this.encoder = s.format.encoder();
    else this.bulk = s.format.encoder();
    // Only a restore that carries writer state knows which hidden files the checkpoint may still commit;
    // without it (a finished sink's snapshot, or a checkpoint of an older version) nothing is removed.
    if (restoredState !== undefined && restoredState.length > 0) {
      for (const st of restoredState) for (const p of st.pending) this.prepared.add(p);
      this.cleanup = removeStaleFiles(s.root, {
        subtaskIndex: ctx.subtaskIndex,
        parallelism: ctx.parallelism,
        keep: new Set(this.prepared),
        ownUuid: this.uuid,
      }).then(() => undefined);
    } else if (ctx.attemptNumber > 0 && ctx.restoredCheckpointId === undefined) {
      // A restart before any checkpoint completed: nothing was prepared that could still be committed.
      this.cleanup = removeStaleFiles(s.root, { subtaskIndex: ctx.subtaskIndex, parallelism: ctx.parallelism, keep: new Set(), ownUuid: this.uuid }).then(
        () => undefined,
      );
    }
  }

  private async awaitCleanup(): Promise<void> {
    const c = this.cleanup;
    if (c === undefined) return;
    this.cleanup = undefined;
    await c;
  }

  async write(batch: readonly Row[]): Promise<void> {
    if (this.cleanup !== undefined) await this.awaitCleanup();
    const now = Date.now();
    // Buckets that reached the size limit mid-batch: detached at once so later rows open a new part.
    const full: Bucket[] = [];
    for (const row of batch) {
      const partition = this.s.bucketOf(row);
      let b = this.buckets.get(partition);
      if (!b) {
        b = this.newBucket(partition, now);
        this.buckets.set(partition, b);
      }
      const payload = this.s.payloadOf(row);
      if (this.bulk) b.bulkRows.push(payload);
      else {
        const bytes = this.encoder!.serialize(payload);
        b.chunks.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        b.buffered += bytes.byteLength + 1;
        if (bytes[bytes.byteLength - 1] !== 10) b.chunks.push(NEWLINE);
        else b.buffered--;
        if (b.size + b.buffered >= this.s.rollingFileSize) {
          this.buckets.delete(partition);
          full.push(b);
        }
      }
      b.lastWriteAt = now;
    }
    for (const b of full) await this.roll(b);
    for (const b of this.buckets.values()) if (b.buffered >= 1 << 20) await this.drain(b);
    if (now - this.lastCheck >= this.s.checkIntervalMs) {
      this.lastCheck = now;
      for (const b of [...this.buckets.values()]) {
        if (now - b.openedAt >= this.s.rolloverIntervalMs || now - b.lastWriteAt >= this.s.inactivityIntervalMs) await this.roll(b);
      }
    }
  }

  writeWatermark(watermark: number): void {
    this.watermark = watermark;
  }

  private newBucket(partition: string, now: number): Bucket {
    if (!this.firstSeen.has(partition)) this.firstSeen.set(partition, now);
    const dir = partition === '' ? this.s.root : join(this.s.root, partition);
    const n = this.counter++;
    const ext = this.bulk ? `.${this.bulk.fileExtension}` : '';
    const name = `part-${this.uuid}-${this.ctx.subtaskIndex}-${n}${ext}`;
    return {
      dir,
      partition,
      pending: join(dir, `.${name}.inprogress.${randomUUID()}`),
      final: join(dir, name),
      handle: undefined,
      chunks: [],
      buffered: 0,
      size: 0,
      openedAt: now,
      lastWriteAt: now,
      bulkRows: [],
    };
  }

  private async drain(b: Bucket): Promise<void> {
    if (b.chunks.length === 0) return;
    if (!b.handle) {
      b.handle = await inDirectory(b.dir, async () => {
        await makeDirectories(b.dir);
        return open(b.pending, 'w');
      });
    }
    const data = Buffer.concat(b.chunks);
    b.chunks = [];
    b.buffered = 0;
    await b.handle.write(data);
    b.size += data.length;
  }

  /** Closes the bucket's file and moves it to the pending list. */
  private async roll(b: Bucket): Promise<void> {
    if (this.buckets.get(b.partition) === b) this.buckets.delete(b.partition);
    if (this.bulk) {
      if (b.bulkRows.length === 0) return;
      const data = this.bulk.encode(b.bulkRows);
      await inDirectory(b.dir, async () => {
        await makeDirectories(b.dir);
        await writeFileSynced(b.pending, data);
      });
    } else {
      await this.drain(b);
      if (!b.handle) return;
      // The part's bytes must be on disk before a checkpoint can name it: one fsync per part file.
      await b.handle.sync();
      await b.handle.close();
    }
    this.rolled.push({
      pending: b.pending,
      final: b.final,
      partition: b.partition,
      createdAt: this.firstSeen.get(b.partition) ?? b.openedAt,
      watermark: null,
      endOfInput: false,
    });
  }

  async flush(endOfInput: boolean): Promise<void> {
    await this.awaitCleanup();
    this.endOfInput = endOfInput;
    for (const b of [...this.buckets.values()]) await this.roll(b);
  }

  async prepareCommit(): Promise<PendingFile[]> {
    for (const b of [...this.buckets.values()]) await this.roll(b);
    const out = this.rolled.splice(0).map((p) => ({ ...p, watermark: this.watermark, endOfInput: this.endOfInput }));
    // Each file was fsynced when rolled; the entries naming them are made durable here, once per folder.
    for (const dir of new Set(out.map((p) => dirname(p.pending)))) await syncDirectory(dir);
    for (const p of out) this.prepared.add(p.pending);
    return out;
  }

  /**
   * The pending files a restore may still have to commit. A file renamed meanwhile was committed and is
   * dropped (one `existsSync` per pending file per checkpoint: they are few, one per open bucket).
   */
  snapshotState(_checkpointId: number): FileWriterState[] {
    for (const p of this.prepared) if (!existsSync(p)) this.prepared.delete(p);
    return [{ pending: [...this.prepared] }];
  }

  async close(): Promise<void> {
    await this.cleanup?.catch(() => undefined);
    for (const b of this.buckets.values()) await b.handle?.close().catch(() => undefined);
    this.buckets.clear();
  }
}

/**
 * Renames pending files to their final names (the rename is the commit). A pending file that is gone while
 * its final file exists was committed before a failure: that is not an error. With overwrite, the visible
 * files of the written partitions (or of the table) that this commit does not bring are deleted first.
 */
class FileCommitter implements Committer<PendingFile> {
  constructor(private readonly s: FileSinkSettings) {}

  async commit(requests: readonly CommitRequest<PendingFile>[]): Promise<void> {
    // Folders whose entries this commit changed: synced once each at the end, so the commit survives a crash.
    const changed = new Set<string>();
    if (this.s.overwrite && requests.length > 0) {
      const keep = new Set(requests.map((r) => r.committable.final));
      const dirs = new Set(requests.map((r) => (this.s.partitioned ? dirname(r.committable.final) : resolve(this.s.root))));
      for (const dir of dirs) await removeVisible(dir, keep, this.s.partitioned, changed);
    }
    for (const r of requests) {
      const { pending, final } = r.committable;
      if (existsSync(pending)) {
        await inDirectory(dirname(final), () => rename(pending, final));
        changed.add(dirname(final));
      } else if (existsSync(final)) {
        r.signalAlreadyCommitted();
      } else {
        r.signalFailedWithKnownReason(new Error(`pending file '${pending}' and final file '${final}' are both missing`));
      }
    }
    for (const dir of changed) await syncDirectory(dir);
  }

  async close(): Promise<void> {}
}

/** Deletes visible data below `dir` except `keep`; hidden files (in-progress, success files) stay. Adds folders it deleted from to `changed`. */
async function removeVisible(dir: string, keep: ReadonlySet<string>, shallow: boolean, changed: Set<string>): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.name.startsWith('.') || keep.has(p)) continue;
    if (e.isDirectory()) {
      if (!shallow) await removeVisible(p, keep, false, changed);
    } else {
      await rm(p, { force: true });
      changed.add(dir);
    }
  }
}

/**
 * Commits partitions (writes the success file) once the trigger allows: process-time = the partition's
 * creation time plus the delay has passed; partition-time = the watermark passed partition time plus the
 * delay. At the end of a bounded input every written partition is committed.
 */
class PartitionCommitter implements GlobalCommitter<PendingFile> {
  private readonly pending = new Map<string, number>();

  constructor(private readonly s: FileSinkSettings) {}

  async commitGlobal(_checkpointId: number, committables: readonly PendingFile[]): Promise<void> {
    const c = this.s.commit;
    if (c.successFile === undefined || !this.s.partitioned) return;
    let watermark = Infinity;
    let end = false;
    for (const p of committables) {
      const t = this.pending.get(p.partition);
      if (t === undefined || p.createdAt < t) this.pending.set(p.partition, p.createdAt);
      watermark = Math.min(watermark, p.watermark ?? -Infinity);
      end ||= p.endOfInput;
    }
    const now = Date.now();
    for (const [partition, createdAt] of [...this.pending]) {
      const due =
        end ||
        (c.trigger === 'process-time' ? now >= createdAt + c.delayMs : watermark !== Infinity && watermark >= c.partitionTime(partition) + c.delayMs);
      if (!due) continue;
      const dir = partition === '' ? this.s.root : join(this.s.root, partition);
      const successFile = join(dir, c.successFile);
      await inDirectory(dir, async () => {
        await makeDirectories(dir);
        // Readers take the success file as "this partition is complete": it must not vanish in a crash.
        await writeFileSynced(successFile, '');
        await syncDirectory(dir);
      });
      this.pending.delete(partition);
    }
  }

  async close(): Promise<void> {}
}

/** Runs a write into `dir`, turning a file-system error into one that names the directory and the problem. */
async function inDirectory<T>(dir: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    throw fileSystemError(e, dir, 'write');
  }
}

/** The filesystem connector's exactly-once Sink V2. */
export class FileSink implements Sink<Row, PendingFile, FileWriterState> {
  constructor(readonly settings: FileSinkSettings) {}

  createWriter(ctx: WriterInitContext, restoredState?: readonly FileWriterState[]): SinkWriter<Row, PendingFile, FileWriterState> {
    return new FileWriter(this.settings, ctx, restoredState);
  }

  getWriterStateSerializer(): VersionedSerializer<FileWriterState> {
    return jsonSerializer();
  }

  createCommitter(): Committer<PendingFile> {
    return new FileCommitter(this.settings);
  }

  getCommittableSerializer(): VersionedSerializer<PendingFile> {
    return jsonSerializer();
  }

  createGlobalCommitter(): GlobalCommitter<PendingFile> {
    return new PartitionCommitter(this.settings);
  }
}
