// A restore from a checkpoint holding state of an operator the new job does not have (issue #12): Flink
// refuses it ("Cannot map checkpoint/savepoint state for operator ... to the new program") unless told to
// drop that state (--allowNonRestoredState; here 'execution.state-recovery.ignore-unclaimed-state').
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRuntimeConfig, executeJob, type JobGraph, type OperatorContext, type OperatorFactory, type RuntimeConfig } from '../../../src/runtime/index.js';
import type { CompletedCheckpoint } from '../../../src/runtime/checkpoint/completed-checkpoint.js';
import { type ClaimingVertex, claimState, findUnclaimedState, UnclaimedStateError } from '../../../src/runtime/checkpoint/unclaimed-state.js';
import { encodeState } from '../../../src/runtime/state/state-codec.js';
import { Row } from '../../../src/types/row.js';
import { FileCommitSink } from '../fakes/file-commit-sink.js';
import { SequenceSource } from '../fakes/sequence-source.js';

const tmp = (p: string): string => mkdtempSync(join(tmpdir(), p));
const N = 4000;

/** Counts rows per key `n % 7` in keyed state and passes them on. */
const counter: OperatorFactory = {
  name: 'count',
  create() {
    let ctx!: OperatorContext;
    return {
      open(c) {
        ctx = c;
      },
      processBatch(rows) {
        const count = ctx.keyedState.getState<number>('count');
        for (const r of rows) {
          ctx.keyedState.setCurrentKey((r.fields[0] as number) % 7);
          count.update((count.value() ?? 0) + 1);
        }
        ctx.output.collect(rows);
      },
      processWatermark() {},
    };
  },
};

/** Passes rows on, holding no state. */
const passThrough: OperatorFactory = {
  name: 'pass',
  create() {
    let ctx!: OperatorContext;
    return {
      open(c) {
        ctx = c;
      },
      processBatch(rows) {
        ctx.output.collect(rows.map((r) => Row.insert(...r.fields)));
      },
      processWatermark() {},
    };
  },
};

const source = (): SequenceSource => new SequenceSource({ from: 1, to: N, splits: 2, batchSize: 10, fetchDelayMs: 2 });

/** numbers -> [middle] -> files; without `middle` the source feeds the sink. */
function graph(out: string, middle?: { id: string; name: string; op: OperatorFactory }): JobGraph {
  const sink = { kind: 'sink' as const, id: 'snk', name: 'files', parallelism: 2, sink: new FileCommitSink(out) };
  if (middle === undefined) {
    return {
      jobName: 'unclaimed',
      vertices: [{ kind: 'source', id: 'src', name: 'numbers', parallelism: 2, source: source() }, sink],
      edges: [{ from: 'src', to: 'snk', partitioner: { kind: 'forward' } }],
    };
  }
  return {
    jobName: 'unclaimed',
    vertices: [
      { kind: 'source', id: 'src', name: 'numbers', parallelism: 2, source: source() },
      { kind: 'operator', id: middle.id, name: middle.name, parallelism: 2, operators: [middle.op] },
      sink,
    ],
    edges: [
      { from: 'src', to: middle.id, partitioner: { kind: 'hash', key: (r) => (r.fields[0] as number) % 7 } },
      { from: middle.id, to: 'snk', partitioner: { kind: 'forward' } },
    ],
  };
}

/** Runs `g` until a savepoint part way through the input, and returns the savepoint's path. */
async function savepointOf(g: JobGraph): Promise<string> {
  const job = executeJob(g, defaultRuntimeConfig({ checkpointIntervalMs: 10 }));
  await new Promise((r) => setTimeout(r, 80));
  const path = await job.stopWithSavepoint(tmp('sluice-unclaimed-sp-'));
  expect((await job.waitForCompletion()).status).toBe('FINISHED');
  return path;
}

const restoring = (path: string, overrides: Partial<RuntimeConfig> = {}): RuntimeConfig =>
  defaultRuntimeConfig({ restorePath: path, restartStrategy: { kind: 'fixed-delay', attempts: 5, delayMs: 10 }, ...overrides });

describe('restoring a checkpoint that holds state of an operator the job does not have', () => {
  it('fails at once (no restarts), naming the checkpoint, the operator, what it holds and the option', async () => {
    const path = await savepointOf(graph(tmp('sluice-unclaimed-out-'), { id: 'cnt', name: 'GroupAggregate(groupBy=[k])', op: counter }));
    const job = executeJob(graph(tmp('sluice-unclaimed-out-')), restoring(path));
    const error = await job.waitForCompletion().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnclaimedStateError);
    expect((error as Error).message).toBe(
      `Failed to rollback to checkpoint/savepoint '${path}'. Cannot map checkpoint/savepoint state for operator cnt 'GroupAggregate(groupBy=[k])' (keyed state) to the new program, because the operator is not available in the new program (the query, or how it is planned, changed since the checkpoint was taken). If you want to allow to skip this, set 'execution.state-recovery.ignore-unclaimed-state' = 'true' (SET, or -D on the command line): that state is then dropped.`,
    );
    expect(job.status()).toBe('FAILED');
    expect(job.metrics().restarts ?? 0).toBe(0);
  });

  it('fails too when the vertex of that id is another operator that cannot take the state (an edited query)', async () => {
    const path = await savepointOf(graph(tmp('sluice-unclaimed-out-'), { id: 'cnt', name: 'count', op: counter }));
    const g = graph(tmp('sluice-unclaimed-out-'));
    const shifted: JobGraph = {
      ...g,
      vertices: g.vertices.map((v) => (v.kind === 'sink' ? { ...v, id: 'cnt' } : v)),
      edges: [{ from: 'src', to: 'cnt', partitioner: { kind: 'forward' } }],
    };
    await expect(executeJob(shifted, restoring(path)).waitForCompletion()).rejects.toThrow(
      /state for operator cnt 'count' \(keyed state; this job's cnt is 'files'\)/,
    );
  });

  it("with 'ignore-unclaimed-state' drops that state with a warning that lists it, and restores the rest exactly once", async () => {
    const out = tmp('sluice-unclaimed-out-');
    const path = await savepointOf(graph(out, { id: 'cnt', name: 'count', op: counter }));
    const before = new FileCommitSink(out).committedNumbers().length;
    expect(before).toBeGreaterThan(0);
    const warnings: string[] = [];
    const sink = new FileCommitSink(out);
    const g = graph(out);
    const job = executeJob({ ...g, vertices: g.vertices.map((v) => (v.kind === 'sink' ? { ...v, sink } : v)) }, restoring(path, { ignoreUnclaimedState: true }), {
      warn: (m) => warnings.push(m),
    });
    expect((await job.waitForCompletion()).status).toBe('FINISHED');
    expect(warnings).toEqual([
      `Skipping the state of checkpoint/savepoint '${path}' for operator cnt 'count' (keyed state): no operator of the job can take it, and 'execution.state-recovery.ignore-unclaimed-state' is true.`,
    ]);
    // The source's splits and the sink's committables were claimed: every number once.
    expect(sink.committedNumbers().sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
  });

  it('restores without a word when the missing operator held no state', async () => {
    const out = tmp('sluice-unclaimed-out-');
    const path = await savepointOf(graph(out, { id: 'mid', name: 'pass', op: passThrough }));
    const warnings: string[] = [];
    const sink = new FileCommitSink(out);
    const g = graph(out);
    const job = executeJob({ ...g, vertices: g.vertices.map((v) => (v.kind === 'sink' ? { ...v, sink } : v)) }, restoring(path), { warn: (m) => warnings.push(m) });
    expect((await job.waitForCompletion()).status).toBe('FINISHED');
    expect(warnings).toEqual([]);
    expect(sink.committedNumbers().sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
  });
});

describe('a checkpoint of the task-keyed format (sluice-checkpoint-v2) of a task the job does not have', () => {
  it('is refused too, naming the task, where it used to be dropped', async () => {
    const fixture = join(import.meta.dirname, 'fixtures', 'chained-sink-v2');
    const job = executeJob(graph(tmp('sluice-unclaimed-out-')), restoring(fixture));
    await expect(job.waitForCompletion()).rejects.toThrow(/state for operator cnt \(keyed state, timers[^)]*\) to the new program/);
  });
});

describe('findUnclaimedState / claimState', () => {
  const opSnapshot = (keyed: Map<number, unknown>): Uint8Array =>
    encodeState({ raw: undefined, keyed: { states: [{ name: 'count', kind: 'value', entries: keyed }] }, operatorState: [], timers: { eventTime: [], processingTime: [] } });
  const cp: CompletedCheckpoint = {
    layout: 'vertex', jobId: 'a'.repeat(32), checkpointId: 7, isSavepoint: false, timestamp: 1, maxParallelism: 128, path: '/cp/chk-7',
    parallelism: new Map([['v0', 1], ['v1', 2], ['v2', 1], ['v3', 1]]),
    enumerators: new Map([['v0', { version: 1, data: new Uint8Array([1]) }]]),
    committables: [{ checkpointId: 7, sinkId: 'v3', subtaskIndex: 0, value: { version: 1, data: new Uint8Array([2]) }, retries: 0 }],
    vertices: new Map([
      ['v0#0', { finished: false, splits: [{ version: 1, data: new Uint8Array([3]) }], operators: [], writerState: undefined }],
      ['v1#0', { finished: false, splits: undefined, operators: [opSnapshot(new Map())], writerState: undefined }],
      ['v1#1', { finished: false, splits: undefined, operators: [opSnapshot(new Map([[1, 5]]))], writerState: undefined }],
      ['v2#0', { finished: true, splits: [], operators: [], writerState: undefined }],
      ['v3#0', { finished: false, splits: undefined, operators: [], writerState: [] }],
    ]),
    vertexNames: new Map([['v1', 'GroupAggregate'], ['v3', 'Sink(table=[t])']]),
  };

  const same = new Map<string, ClaimingVertex>([
    ['v0', { kind: 'source', operators: 0, name: 'Source' }],
    ['v1', { kind: 'operator', operators: 1, name: 'GroupAggregate' }],
    ['v2', { kind: 'operator', operators: 0, name: 'Exchange' }],
    ['v3', { kind: 'sink', operators: 0, name: 'Sink(table=[t])' }],
  ]);
  const only = (...ids: string[]): Map<string, ClaimingVertex> => new Map([...same].filter(([id]) => ids.includes(id)));

  it('lists every vertex the job lacks that holds state (splits and enumerator, keyed state, committables), and not empty ones', () => {
    expect(findUnclaimedState(cp, new Map())).toEqual([
      { vertexId: 'v0', name: undefined, kinds: ['reader splits', 'split enumerator'], other: undefined },
      { vertexId: 'v1', name: 'GroupAggregate', kinds: ['keyed state'], other: undefined },
      { vertexId: 'v3', name: 'Sink(table=[t])', kinds: ['1 committable(s)'], other: undefined },
    ]);
    expect(findUnclaimedState(cp, same)).toEqual([]);
  });

  it('counts as unclaimed what a vertex of the same id but another shape cannot take (an edited query shifts the positional ids)', () => {
    const shifted = new Map<string, ClaimingVertex>([
      ['v0', { kind: 'source', operators: 0, name: 'Source' }],
      ['v1', { kind: 'sink', operators: 0, name: 'Sink(table=[u])' }],
      ['v3', { kind: 'operator', operators: 0, name: 'Calc' }],
    ]);
    expect(findUnclaimedState(cp, shifted)).toEqual([
      { vertexId: 'v1', name: 'GroupAggregate', kinds: ['keyed state'], other: 'Sink(table=[u])' },
      { vertexId: 'v3', name: 'Sink(table=[t])', kinds: ['1 committable(s)'], other: 'Calc' },
    ]);
    expect(() => claimState(cp, shifted, { path: '/cp/chk-7', ignoreUnclaimed: false, warn: () => {} })).toThrow(
      "operator v1 'GroupAggregate' (keyed state; this job's v1 is 'Sink(table=[u])')",
    );
    const kept = claimState(cp, shifted, { path: '/cp/chk-7', ignoreUnclaimed: true, warn: () => {} });
    expect(kept.vertices.get('v1#1')!.operators).toEqual([]);
    expect(kept.committables).toEqual([]);
  });

  it('drops what it may skip: the missing sink\'s committables and the missing source\'s enumerator', () => {
    const warnings: string[] = [];
    const kept = claimState(cp, only('v1', 'v2'), { path: '/cp/chk-7', ignoreUnclaimed: true, warn: (m) => warnings.push(m) });
    expect(kept.committables).toEqual([]);
    expect([...kept.enumerators.keys()]).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("operator v0 (reader splits, split enumerator); operator v3 'Sink(table=[t])' (1 committable(s))");
    expect(kept.vertices.get('v1#1')).toEqual(cp.vertices.get('v1#1'));
    expect(() => claimState(cp, only('v1', 'v2'), { path: '/cp/chk-7', ignoreUnclaimed: false, warn: () => {} })).toThrow(UnclaimedStateError);
  });
});
