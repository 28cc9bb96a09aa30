// The job of the fixture `fixtures/chained-sink-v2`: a savepoint written by Sluice before state was keyed
// by vertex (`_metadata` format sluice-checkpoint-v2, state keyed by task), at parallelism 2, where the
// sink was chained to the counter before it. See chaining-change.test.ts.
import type { JobGraph, OperatorContext, OperatorFactory } from '../../../src/runtime/index.js';
import { Row } from '../../../src/types/row.js';
import { FileCommitSink } from '../fakes/file-commit-sink.js';
import { SequenceSource } from '../fakes/sequence-source.js';
import { keyedCounter } from '../fakes/keyed-counter.js';

export const LEGACY_N = 6000;
export const LEGACY_KEYS = 37;

/** A stateless operator in the sink's vertex, so the old chain's operators belong to two vertices. */
function prefix(): OperatorFactory {
  return {
    name: 'prefix',
    create() {
      let ctx!: OperatorContext;
      return {
        open(c) {
          ctx = c;
        },
        processBatch(rows) {
          ctx.output.collect(rows.map((r) => Row.insert(`k${String(r.fields[0])}`)));
        },
        processWatermark() {},
      };
    },
  };
}

/** numbers (p) -> hash -> count (p) -> forward -> prefix, files (2): chained only when p = 2. */
export function legacyGraph(parallelism: number, out: string): JobGraph {
  return {
    jobName: 'chained-sink',
    vertices: [
      { kind: 'source', id: 'src', name: 'numbers', parallelism, source: new SequenceSource({ from: 1, to: LEGACY_N, splits: 5, batchSize: 10, fetchDelayMs: 2 }) },
      { kind: 'operator', id: 'cnt', name: 'count', parallelism, operators: [keyedCounter(LEGACY_KEYS)] },
      { kind: 'sink', id: 'snk', name: 'files', parallelism: 2, sink: new FileCommitSink(out), operators: [prefix()] },
    ],
    edges: [
      { from: 'src', to: 'cnt', partitioner: { kind: 'hash', key: (r) => (r.fields[0] as number) % LEGACY_KEYS } },
      { from: 'cnt', to: 'snk', partitioner: parallelism === 2 ? { kind: 'forward' } : { kind: 'rebalance' } },
    ],
  };
}
