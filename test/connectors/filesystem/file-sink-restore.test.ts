import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSink, type FileSinkSettings } from '../../../src/connectors/filesystem/file-sink.js';
import { removeStaleFiles, type FileWriterState } from '../../../src/connectors/filesystem/stale-files.js';
import type { WriterInitContext } from '../../../src/runtime/index.js';
import { Row } from '../../../src/types/row.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'sluice-fs-restore-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function settings(root: string): FileSinkSettings {
  const enc = new TextEncoder();
  return {
    root,
    format: { kind: 'lines', encoder: () => ({ serialize: (r: Row) => enc.encode(String(r.fields[0])) }) },
    bucketOf: () => '',
    payloadOf: (r) => r,
    // Tiny parts: every write rolls, so closed pending files exist between checkpoints.
    rollingFileSize: 1,
    rolloverIntervalMs: 1e9,
    inactivityIntervalMs: 1e9,
    checkIntervalMs: 1e9,
    overwrite: false,
    partitioned: false,
    commit: { successFile: undefined, trigger: 'process-time', delayMs: 0, partitionTime: () => 0 },
  } as FileSinkSettings;
}

function ctx(subtaskIndex: number, restoredCheckpointId: number | undefined, attemptNumber = 0): WriterInitContext {
  return { subtaskIndex, parallelism: 2, attemptNumber, restoredCheckpointId, jobId: '0'.repeat(32), config: new Map() };
}

const hidden = (root: string): string[] => readdirSync(root).filter((f) => f.startsWith('.')).sort();
const rows = (...ns: number[]): Row[] => ns.map((n) => new Row(0, [n]));

describe('file sink restore', () => {
  it('removes the hidden files a failed attempt left, keeps what the restored checkpoint may still commit', async () => {
    const root = tmp();
    const sink = new FileSink(settings(root));
    const first = sink.createWriter(ctx(0, undefined));
    await first.write(rows(1));
    const checkpointed = await first.prepareCommit!();
    const state = first.snapshotState!(1) as FileWriterState[];
    expect(state).toEqual([{ pending: checkpointed.map((p) => p.pending) }]);
    // After checkpoint 1: a part prepared for a checkpoint that never completed, then a half-written one.
    await first.write(rows(2));
    await first.prepareCommit!();
    await first.write(rows(3));
    const other = sink.createWriter(ctx(1, undefined));
    await other.write(rows(4)); // subtask 1's file: not subtask 0's business
    expect(hidden(root)).toHaveLength(4);

    // The "crash": the first attempt's writers vanish without close. Subtask 0 is restored from checkpoint 1.
    const restored = sink.createWriter(ctx(0, 1, 1), state);
    await restored.write(rows(5));
    await restored.flush(false);
    const left = hidden(root);
    expect(left).toContain(checkpointed[0]!.pending.slice(root.length + 1));
    expect(left.filter((f) => /-1-\d+\.inprogress/.test(f))).toHaveLength(1);
    expect(left).toHaveLength(3); // checkpoint 1's pending file, subtask 1's file, the restored writer's new part

    // The restored checkpoint's file survives until the committer renames it; then the state drops it.
    const committer = sink.createCommitter();
    await committer.commit([{ committable: checkpointed[0]!, numberOfRetries: 0, signalFailedWithKnownReason() {}, signalFailedWithUnknownReason() {}, retryLater() {}, updateAndRetryLater() {}, signalAlreadyCommitted() {} }]);
    expect(existsSync(checkpointed[0]!.final)).toBe(true);
    const prepared = await restored.prepareCommit!();
    expect(restored.snapshotState!(2)).toEqual([{ pending: prepared.map((p) => p.pending) }]);
  });

  it('a restart before any checkpoint removes all of the subtask\'s hidden part files; a fresh start removes none', async () => {
    const root = tmp();
    const sink = new FileSink(settings(root));
    const first = sink.createWriter(ctx(0, undefined));
    await first.write(rows(1));
    await first.prepareCommit!();
    await first.write(rows(2));
    const fresh = sink.createWriter(ctx(0, undefined, 0));
    await fresh.write(rows(3));
    expect(hidden(root)).toHaveLength(3);
    const restarted = sink.createWriter(ctx(0, undefined, 1));
    await restarted.write(rows(4));
    expect(hidden(root)).toHaveLength(1);
  });

  it('removeStaleFiles matches only hidden part files of the subtask, in partition folders too', async () => {
    const root = tmp();
    const uuid = '0b8a3c9e-1f2d-4c5b-9a6e-7d8f9a0b1c2d';
    const other = '11111111-2222-4333-8444-555555555555';
    mkdirSync(join(root, 'p=1'));
    const files = [
      `.part-${uuid}-0-0.inprogress.${other}`,
      `p=1/.part-${uuid}-0-3.arrow.inprogress.${other}`,
      `.part-${uuid}-1-0.inprogress.${other}`,
      `.part-${uuid}-5-0.inprogress.${other}`, // beyond the parallelism: subtask 0 takes it
      `.keep-me`,
      `part-${uuid}-0-1`,
      `p=1/_SUCCESS`,
    ];
    for (const f of files) writeFileSync(join(root, f), 'x');
    const removed = await removeStaleFiles(root, { subtaskIndex: 0, parallelism: 2, keep: new Set(), ownUuid: other.replace('1', '9') });
    expect(removed).toBe(3);
    expect(files.filter((f) => existsSync(join(root, f)))).toEqual([`.part-${uuid}-1-0.inprogress.${other}`, '.keep-me', `part-${uuid}-0-1`, 'p=1/_SUCCESS']);
    expect(await removeStaleFiles(join(root, 'missing'), { subtaskIndex: 0, parallelism: 1, keep: new Set(), ownUuid: uuid })).toBe(0);
  });
});
