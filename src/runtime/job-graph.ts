import type { Row } from '../types/row.js';
import type { Partitioner } from './partitioner.js';
import type { AnySink } from './sink/sink.js';
import type { AnySource } from './source/source.js';
import type { WatermarkStrategy } from './source/watermark-strategy.js';
import type { OperatorFactory } from './stream-operator.js';

/**
 * A vertex reading a FLIP-27 source, optionally followed by chained operators.
 * `name` appears in errors ("source 'orders' is unbounded ...") and metrics.
 */
export interface SourceVertex {
  readonly kind: 'source';
  readonly id: string;
  readonly name: string;
  readonly parallelism: number;
  readonly source: AnySource<Row>;
  /** Why the vertex's subtasks must stay on the main thread, if they must (see `JobGraph.workerRecipe`). */
  readonly mainThread?: string;
  readonly watermarkStrategy?: WatermarkStrategy<Row>;
  /** Operators chained after the source, in order. */
  readonly operators?: readonly OperatorFactory[];
}

/** A vertex running a chain of operators; the first one receives the inputs (input index = edge's `inputIndex`). */
export interface OperatorVertex {
  readonly kind: 'operator';
  readonly id: string;
  readonly name: string;
  readonly parallelism: number;
  readonly operators: readonly OperatorFactory[];
  readonly mainThread?: string;
}

/** A vertex ending in a Sink V2 writer, optionally preceded by chained operators. */
export interface SinkVertex {
  readonly kind: 'sink';
  readonly id: string;
  readonly name: string;
  readonly parallelism: number;
  readonly sink: AnySink<Row>;
  readonly mainThread?: string;
  readonly operators?: readonly OperatorFactory[];
}

export type JobVertex = SourceVertex | OperatorVertex | SinkVertex;

/** Data flows from `from` to input `inputIndex` (default 0) of `to`. */
export interface JobEdge {
  readonly from: string;
  readonly to: string;
  readonly inputIndex?: number;
  readonly partitioner: Partitioner;
}

/**
 * A job as the planner hands it to the runtime. Vertices connected by a forward edge with equal
 * parallelism, where the consumer has that single input and the producer that single output, are
 * chained into one task by the executor (direct calls, no channel).
 *
 * @example
 * ```ts
 * const graph: JobGraph = {
 *   jobName: 'copy',
 *   vertices: [
 *     { kind: 'source', id: 'src', name: 'numbers', parallelism: 1, source },
 *     { kind: 'sink', id: 'out', name: 'print', parallelism: 1, sink },
 *   ],
 *   edges: [{ from: 'src', to: 'out', partitioner: { kind: 'forward' } }],
 * };
 * const client = executeJob(graph, defaultRuntimeConfig());
 * await client.waitForCompletion();
 * ```
 */
export interface JobGraph {
  readonly jobName: string;
  /** A stable id chosen by the caller (32 hex chars), so a job can be resumed by id; generated if absent. */
  readonly jobId?: string;
  readonly vertices: readonly JobVertex[];
  readonly edges: readonly JobEdge[];
  /**
   * How a worker thread builds this same graph (`execution.worker-threads`): operators are closures and
   * cannot cross threads, so each worker rebuilds the graph and instantiates only its own subtasks.
   * Without a recipe (or with a string saying why there is none) every subtask runs on the main thread.
   */
  readonly workerRecipe?: WorkerRecipe | string;
}

/**
 * `entry` is the file URL of a worker module that calls `runWorker` (runtime/workers/worker-runtime.ts)
 * with a function turning `payload` into the job graph; `payload` must survive structured cloning.
 */
export interface WorkerRecipe {
  readonly entry: string;
  readonly payload: unknown;
  /**
   * What the user can do so that vertices pinned to the main thread (their `mainThread`) run on workers
   * too; the job's warning about pinned vertices ends with it.
   */
  readonly mainThreadAdvice?: string;
}
