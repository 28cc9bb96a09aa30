import { availableParallelism } from 'node:os';
import type { PlanNode } from './logical/plan-node.js';
import { postOrder } from './logical/subplan-reuse.js';

/**
 * Input rows from which a job is worth spreading over threads. A worker costs about 0.2 s of wall time to
 * start (its isolate loads Sluice and rebuilds the job), which two threads win back only after about a
 * second of single-thread work: 0.5-2 M rows, depending on the query (bench/parallel-speedup.mjs).
 */
export const LARGE_JOB_ROWS = 1_000_000;

/**
 * A source paced below this many rows per second (datagen's default is 10,000) is one thread's easy work
 * however long it runs: its rows do not count towards LARGE_JOB_ROWS.
 */
export const PACED_ROWS_PER_SECOND = 100_000;

/**
 * The parallelism of a job whose session does not set `parallelism.default`: one subtask per core for a
 * job that reads at least LARGE_JOB_ROWS rows in all or an endless generator at full speed, and 1 for a
 * small job (a VALUES list, a datagen table of a thousand rows, datagen at its default 10,000 rows per
 * second), which would only pay for starting threads.
 *
 * A job with a source that does not report its size (kafka, pravega, a monitored directory) keeps Flink's
 * default of 1: such a source has as many splits as the system holds (partitions, segments, files), and a
 * reader left without one holds back event time for the whole job, as in Flink, whose Kafka source does not
 * go idle when its parallelism exceeds the partitions. A parallelism Sluice chose must not stall a window
 * that ran at 1. See docs/differences-from-flink.md.
 */
export function defaultParallelism(roots: readonly PlanNode[], cores = availableParallelism()): number {
  if (cores <= 1) return 1;
  let rows = 0;
  for (const n of postOrder(roots)) {
    if (n.kind === 'values') rows += n.rows.length;
    else if (n.kind === 'scan') {
      const stats = n.source.reportStatistics?.();
      if (stats === undefined) return 1;
      if (stats.rowsPerSecond === undefined || stats.rowsPerSecond >= PACED_ROWS_PER_SECOND) rows += stats.rowCount;
    }
  }
  return rows >= LARGE_JOB_ROWS ? cores : 1;
}
