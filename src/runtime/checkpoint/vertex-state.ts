import type { TaskGraph } from '../chaining.js';
import type { ChainedVertex, TaskVertex } from '../task-host.js';
import type { TaskSnapshot } from './completed-checkpoint.js';

/**
 * Checkpointed state belongs to job-graph vertices, not to the tasks they were chained into: a vertex
 * keeps its id whatever its neighbours' parallelism, while chaining (and so a task's id and its list of
 * operators) changes when a parallelism does, e.g. a sink with its own 'sink.parallelism' chains to its
 * input at one default parallelism and not at another. Flink keys operator state by operator id for the
 * same reason.
 */

/**
 * One subtask's snapshot of a chained task, cut into the parts of its vertices, head first: each vertex
 * gets its own operators' states, the head the reader splits (a source) or the rows in flight (unaligned
 * checkpoints), the last (a sink) the writer state. `operators` may be shorter than the chain's operators (a finished task keeps none).
 */
export function splitTaskSnapshot(s: TaskSnapshot, chain: readonly ChainedVertex[]): TaskSnapshot[] {
  let offset = 0;
  return chain.map((v, k) => {
    const operators = s.operators.slice(offset, offset + v.operators);
    offset += v.operators;
    const part: TaskSnapshot = {
      finished: s.finished,
      splits: k === 0 ? s.splits : undefined,
      operators,
      writerState: k === chain.length - 1 ? s.writerState : undefined,
    };
    // Rows in flight entered the task at its head, so they belong to the head vertex's inputs.
    return k === 0 && s.inFlight !== undefined ? { ...part, inFlight: s.inFlight } : part;
  });
}

/** Every subtask's task snapshot (`<taskId>#<i>`) as vertex snapshots (`<vertexId>#<i>`). */
export function vertexSnapshots(acks: ReadonlyMap<string, TaskSnapshot>, tasks: readonly TaskVertex[]): Map<string, TaskSnapshot> {
  const out = new Map<string, TaskSnapshot>();
  for (const t of tasks) {
    for (let i = 0; i < t.parallelism; i++) {
      const s = acks.get(`${t.id}#${i}`);
      if (s === undefined) continue;
      splitTaskSnapshot(s, t.chain).forEach((part, k) => out.set(`${t.chain[k]!.id}#${i}`, part));
    }
  }
  return out;
}

/** The vertex id of a task's sink: the last of its chain. Committables are stored under it. */
export function sinkVertexOf(task: TaskVertex): string {
  return task.chain[task.chain.length - 1]!.id;
}

/** The task a vertex runs in, in this job. */
export function taskOfVertex(graph: TaskGraph, vertexId: string): TaskVertex | undefined {
  return graph.tasks.find((t) => t.chain.some((v) => v.id === vertexId));
}
