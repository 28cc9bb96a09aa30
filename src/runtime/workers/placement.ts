import { availableParallelism } from 'node:os';
import type { TaskGraph } from '../chaining.js';
import type { TaskVertex } from '../task-host.js';

/** `execution.worker-threads`: no workers, one per core, or this many. */
export type WorkerThreadsSetting = 'off' | 'auto' | number;

/** The thread of a subtask: the main thread, or a worker's index. */
export const MAIN_THREAD = -1;

/**
 * How many workers a job gets. The main thread is a task slot too (it would otherwise sit idle while
 * the workers run), so a job with highest parallelism P spreads over the main thread and at most P - 1
 * workers: none when the option is off or no task has more than one subtask (small jobs must not pay
 * for threads), else the setting ('auto': one thread per core, the main thread being one of them),
 * since subtask i of every task shares slot i (Flink's slot sharing). Tasks pinned to the main thread
 * (`mainThread`) put nothing in a worker, so they do not count.
 */
export function workerCount(setting: WorkerThreadsSetting, graph: TaskGraph, cores = availableParallelism()): number {
  if (setting === 'off') return 0;
  const maxP = graph.tasks.reduce((m, t) => (t.mainThread === undefined ? Math.max(m, t.parallelism) : m), 1);
  if (maxP <= 1) return 0;
  return Math.max(0, Math.min(autoWorkers(setting, cores), maxP - 1));
}

/** The workers a setting asks for at most: 'auto' leaves one core to the main thread. */
export function autoWorkers(setting: Exclude<WorkerThreadsSetting, 'off'>, cores = availableParallelism()): number {
  return setting === 'auto' ? Math.max(0, cores - 1) : setting;
}

/**
 * Subtask `index` of `task` runs in slot `index mod (workers + 1)`: slot 0 is the main thread, slot k
 * worker k - 1. A vertex that must stay on the main thread always does.
 */
export function threadOf(task: TaskVertex, index: number, workers: number): number {
  if (workers === 0 || task.mainThread !== undefined) return MAIN_THREAD;
  const slot = index % (workers + 1);
  return slot === 0 ? MAIN_THREAD : slot - 1;
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
