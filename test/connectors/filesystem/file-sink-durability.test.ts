import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PendingFile, FileSinkSettings } from '../../../src/connectors/filesystem/file-sink.js';
import type { CommitRequest, WriterInitContext } from '../../../src/runtime/index.js';
import { Row } from '../../../src/types/row.js';

/**
 * What is fsynced and when. The property is about the calls (a crash test needs a power cut), so the fs
 * module is wrapped: every handle's sync and every rename is logged in order, and the files are real.
 */
const fsLog = vi.hoisted(() => ({
  events: [] as Array<{ op: 'sync' | 'rename' | 'write'; path: string }>,
  /** Make directory fsync fail with this code, as on platforms that cannot fsync a directory. */
  dirSyncError: undefined as string | undefined,
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const { statSync } = await import('node:fs');
  const open: typeof real.open = async (path, flags, mode) => {
    const fh = await real.open(path, flags, mode);
    const p = String(path);
    const sync = fh.sync.bind(fh);
    const write = fh.write.bind(fh) as (...args: unknown[]) => Promise<unknown>;
    Object.assign(fh, {
      sync: async () => {
        fsLog.events.push({ op: 'sync', path: p });
        if (fsLog.dirSyncError !== undefined && statSync(p).isDirectory()) {
          throw Object.assign(new Error(`${fsLog.dirSyncError}: cannot fsync a directory`), { code: fsLog.dirSyncError });
        }
        return sync();
      },
      write: async (...args: unknown[]) => {
        fsLog.events.push({ op: 'write', path: p });
        return write(...args);
      },
    });
    return fh;
  };
  const rename: typeof real.rename = async (from, to) => {
    fsLog.events.push({ op: 'rename', path: String(to) });
    return real.rename(from, to);
  };
  return { ...real, open, rename, default: { ...real, open, rename } };
});

const { FileSink } = await import('../../../src/connectors/filesystem/file-sink.js');

const dirs: string[] = [];
beforeEach(() => {
  fsLog.events.length = 0;
  fsLog.dirSyncError = undefined;
});
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function settings(root: string, over: Partial<FileSinkSettings> = {}): FileSinkSettings {
  const enc = new TextEncoder();
  return {
    root,
    format: { kind: 'lines', encoder: () => ({ serialize: (r: Row) => enc.encode(String(r.fields[1])) }) },
    bucketOf: (r) => `p=${String(r.fields[0])}`,
    payloadOf: (r) => r,
    rollingFileSize: 1 << 30,
    rolloverIntervalMs: 1e9,
    inactivityIntervalMs: 1e9,
    checkIntervalMs: 1e9,
    overwrite: false,
    partitioned: true,
    commit: { successFile: undefined, trigger: 'process-time', delayMs: 0, partitionTime: () => 0 },
    ...over,
  } as FileSinkSettings;
}

const ctx: WriterInitContext = { subtaskIndex: 0, parallelism: 1, attemptNumber: 0, restoredCheckpointId: undefined, jobId: '0'.repeat(32), config: new Map() };

function request(committable: PendingFile): CommitRequest<PendingFile> {
  const fail = (e: unknown): never => {
    throw e;
  };
  return { committable, numberOfRetries: 0, signalFailedWithKnownReason: fail, signalFailedWithUnknownReason: fail, retryLater() {}, updateAndRetryLater() {}, signalAlreadyCommitted() {} };
}

const syncs = (): string[] => fsLog.events.filter((e) => e.op === 'sync').map((e) => e.path);
const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory();

function root(): string {
  const d = mkdtempSync(join(tmpdir(), 'sluice-fs-durable-'));
  dirs.push(d);
  return join(d, 'table'); // not there yet: the sink creates it
}

describe('file sink durability', () => {
  it('fsyncs each part file once at pre-commit (not per write) and the folders naming them before the checkpoint is acknowledged', async () => {
    const r = root();
    const sink = new FileSink(settings(r));
    const w = sink.createWriter(ctx);
    // Payloads over the 1 MiB buffer: every batch goes out to the files in its own write.
    const big = 'x'.repeat(1.1 * (1 << 20));
    for (let i = 0; i < 3; i++) await w.write([new Row(0, [1, big]), new Row(0, [2, big])]);
    const writes = fsLog.events.filter((e) => e.op === 'write');
    expect(writes.length).toBeGreaterThanOrEqual(6);
    // Creating table/, table/p=1 and table/p=2 synced their parents; no file was synced by a write.
    expect(syncs()).toEqual([dirname(r), r, r]);
    fsLog.events.length = 0;

    const pending = await w.prepareCommit!();
    expect(pending).toHaveLength(2);
    // prepareCommit returned, so the checkpoint may be acknowledged now: every file and its folder is synced.
    const s = syncs();
    for (const p of pending) {
      expect(s.filter((x) => x === p.pending), p.pending).toHaveLength(1);
      expect(s).toContain(dirname(p.pending));
      expect(s.indexOf(dirname(p.pending))).toBeGreaterThan(s.indexOf(p.pending));
    }
    expect(s.filter((x) => !isDir(x))).toHaveLength(2);
    await w.close();
  });

  it('syncs new partition folders into their parents when it creates them', async () => {
    const r = root();
    const sink = new FileSink(settings(r, { bucketOf: (row) => `d=${String(row.fields[0])}/h=0` }));
    const w = sink.createWriter(ctx);
    await w.write([new Row(0, ['x', 1])]);
    await w.flush(false);
    // table/, table/d=x and table/d=x/h=0 were created: their parents hold the new entries.
    expect(syncs().slice(0, 3)).toEqual([dirname(r), r, join(r, 'd=x')]);
    fsLog.events.length = 0;
    await w.write([new Row(0, ['x', 2])]);
    await w.flush(false);
    expect(syncs().filter(isDir)).toEqual([]); // the folders exist already: nothing more to sync
    await w.close();
  });

  it('fsyncs bulk (Arrow-style) part files when they are written', async () => {
    const r = root();
    const bulk = { fileExtension: 'bin', encode: (rows: readonly Row[]) => new TextEncoder().encode(rows.map((x) => String(x.fields[1])).join(',')) };
    const sink = new FileSink(settings(r, { format: { kind: 'bulk', encoder: () => bulk } as FileSinkSettings['format'] }));
    const w = sink.createWriter(ctx);
    await w.write([new Row(0, [1, 'a']), new Row(0, [1, 'b'])]);
    const pending = await w.prepareCommit!();
    expect(pending).toHaveLength(1);
    const s = syncs();
    expect(s.filter((x) => x === pending[0]!.pending)).toHaveLength(1);
    expect(s.lastIndexOf(dirname(pending[0]!.pending))).toBeGreaterThan(s.indexOf(pending[0]!.pending));
    expect(readFileSync(pending[0]!.pending, 'utf8')).toBe('a,b');
    await w.close();
  });

  it('fsyncs the folder after the commit renames, once per folder', async () => {
    const r = root();
    const sink = new FileSink(settings(r));
    const w = sink.createWriter(ctx);
    await w.write([new Row(0, [1, 'a']), new Row(0, [2, 'b'])]);
    const pending = await w.prepareCommit!();
    await w.write([new Row(0, [1, 'c'])]);
    pending.push(...(await w.prepareCommit!()));
    fsLog.events.length = 0;
    await sink.createCommitter().commit(pending.map(request));
    const ev = fsLog.events;
    const lastRename = Math.max(...ev.map((e, i) => (e.op === 'rename' ? i : -1)));
    const dirSyncs = ev.map((e, i) => ({ ...e, i })).filter((e) => e.op === 'sync');
    expect(ev.filter((e) => e.op === 'rename')).toHaveLength(3);
    expect(dirSyncs.map((e) => e.path).sort()).toEqual([join(r, 'p=1'), join(r, 'p=2')]);
    for (const d of dirSyncs) expect(d.i).toBeGreaterThan(lastRename);
    for (const p of pending) expect(existsSync(p.final)).toBe(true);
    await w.close();
  });

  it('writes the success file durably', async () => {
    const r = root();
    const sink = new FileSink(settings(r, { commit: { successFile: '_SUCCESS', trigger: 'process-time', delayMs: 0, partitionTime: () => 0 } }));
    const w = sink.createWriter(ctx);
    await w.write([new Row(0, [1, 'a'])]);
    const pending = await w.prepareCommit!();
    await sink.createCommitter().commit(pending.map(request));
    fsLog.events.length = 0;
    await sink.createGlobalCommitter!().commitGlobal(1, pending);
    expect(syncs()).toEqual([join(r, 'p=1', '_SUCCESS'), join(r, 'p=1')]);
  });

  it('goes on where the platform cannot fsync a directory (EINVAL, EISDIR)', async () => {
    for (const code of ['EINVAL', 'EISDIR']) {
      fsLog.dirSyncError = code;
      const r = root();
      const sink = new FileSink(settings(r));
      const w = sink.createWriter(ctx);
      await w.write([new Row(0, [1, 'a'])]);
      const pending = await w.prepareCommit!();
      await sink.createCommitter().commit(pending.map(request));
      expect(readFileSync(pending[0]!.final, 'utf8')).toBe('a\n');
      await w.close();
    }
  });

  it('fails the pre-commit when a directory fsync fails for real (EIO)', async () => {
    const r = root();
    const sink = new FileSink(settings(r));
    const w = sink.createWriter(ctx);
    await w.write([new Row(0, [1, 'a'])]);
    await w.flush(false);
    fsLog.dirSyncError = 'EIO';
    await expect(w.prepareCommit!()).rejects.toThrow(/EIO/);
    await w.close();
  });
});
