import { availableParallelism } from 'node:os';
import type { TaskGraph } from '../chaining.js';
import type { TaskVertex } from '../task-host.js';

/** `execution.worker-threads`: no workers, one per core, or this many. */
export type WorkerThreadsSetting = 'off' | 'auto' | number;

/** The thread of a subtask: the main thread, or a worker's index. */
export const MAIN_THREAD = -1;

/**
 * How many workers a job gets: none when the option is off or no task has more than one subtask (small
 * jobs must not pay for threads), else the setting (or the cores) capped by the highest parallelism,
 * since subtask i of every task shares worker i (Flink's slot sharing).
 */
export function workerCount(setting: WorkerThreadsSetting, graph: TaskGraph, cores = availableParallelism()): number {
  if (setting === 'off') return 0;
  const maxP = graph.tasks.reduce((m, t) => Math.max(m, t.parallelism), 1);
  if (maxP <= 1) return 0;
  const wanted = setting === 'auto' ? cores : setting;
  return Math.max(0, Math.min(wanted, maxP));
}

/** Subtask `index` of `task` runs in worker `index mod workers`, unless its vertex must stay on the main thread. */
export function threadOf(task: TaskVertex, index: number, workers: number): number {
  if (workers === 0 || task.mainThread !== undefined) return MAIN_THREAD;
  return index % workers;
}

/**
 * What the main thread and a worker each built must be the same graph, or subtasks would be wired to
 * the wrong operators: the shape (ids, names, parallelism, operators, edges) as one string.
 */
export function graphSignature(graph: TaskGraph): string {
  return JSON.stringify({
    tasks: graph.tasks.map((t) => [t.id, t.name, t.parallelism, t.source !== undefined, t.sink !== undefined, t.operators.map((o) => o.name), t.mainThread ?? null]),
    edges: graph.edges.map((e) => [e.from, e.to, e.inputIndex, e.partitioner.kind]),
  });
}
