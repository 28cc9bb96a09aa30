import { ValidationError } from '../../errors/sluice-error.js';
import type { TaskGraph } from '../chaining.js';
import type { ChainedVertex } from '../task-host.js';
import type { CompletedCheckpoint, PendingCommittable, TaskLayoutCheckpoint, TaskSnapshot } from './completed-checkpoint.js';
import { splitTaskSnapshot } from './vertex-state.js';

/**
 * Reads a checkpoint of format v1 or v2 (state keyed by task) as one keyed by vertex, for the job about
 * to restore it, so that it restores even where that job chains its vertices differently.
 *
 * The old chaining is recovered from the job graph: the checkpoint names the tasks that ran (their ids
 * are the ids of the vertices heading a chain), and every other vertex was chained to its only
 * predecessor, which is fixed by the graph's shape, not by parallelism. Each old task's operators are
 * then cut by the number of operators of each of its vertices.
 *
 * @throws ValidationError when an old task holds state for another number of operators than its vertices
 *   have in this job (the job is not the one checkpointed)
 */
export function toVertexLayout(cp: TaskLayoutCheckpoint, graph: TaskGraph): CompletedCheckpoint {
  const heads = new Set(cp.parallelism.keys());
  const vertex = new Map<string, ChainedVertex>();
  for (const t of graph.tasks) for (const v of t.chain) vertex.set(v.id, v);
  const successor = successors(graph);
  const chainOf = (head: string): ChainedVertex[] => {
    const chain: ChainedVertex[] = [];
    for (let v = vertex.get(head); v !== undefined; ) {
      chain.push(v);
      const next = successor.get(v.id);
      v = next === undefined || heads.has(next) ? undefined : vertex.get(next);
    }
    return chain;
  };
  const parallelism = new Map<string, number>();
  const vertices = new Map<string, TaskSnapshot>();
  const sinkOf = new Map<string, string>();
  for (const [head, p] of cp.parallelism) {
    const chain = chainOf(head);
    if (chain.length === 0) {
      // A task this job no longer has: its state is kept under the task's id (its head vertex's), for the
      // check that refuses, or drops with a warning, state no vertex of the job claims (unclaimed-state.ts).
      parallelism.set(head, p);
      for (let i = 0; i < p; i++) {
        const s = cp.tasks.get(`${head}#${i}`);
        if (s !== undefined) vertices.set(`${head}#${i}`, s);
      }
      continue;
    }
    sinkOf.set(head, chain[chain.length - 1]!.id);
    const expected = chain.reduce((n, v) => n + v.operators, 0);
    for (const v of chain) parallelism.set(v.id, p);
    for (let i = 0; i < p; i++) {
      const s = cp.tasks.get(`${head}#${i}`);
      if (s === undefined) continue;
      if (!s.finished && s.operators.length !== expected) {
        throw new ValidationError(
          `Cannot restore from '${cp.path ?? 'the checkpoint'}': its task '${head}' holds the state of ${s.operators.length} operator(s), but in this job the vertices it ran (${chain.map((v) => `'${v.id}'`).join(', ')}) have ${expected}. The checkpoint was taken of another job.`,
        );
      }
      splitTaskSnapshot(s, chain).forEach((part, k) => vertices.set(`${chain[k]!.id}#${i}`, part));
    }
  }
  const committables: PendingCommittable[] = cp.committables.map(({ sinkTaskId, ...c }) => ({ ...c, sinkId: sinkOf.get(sinkTaskId) ?? sinkTaskId }));
  const { layout: _layout, tasks: _tasks, ...rest } = cp;
  return { ...rest, layout: 'vertex', parallelism, vertices, committables };
}

/**
 * The vertex each vertex would be chained to if it were not the head of a task: the next in its chain,
 * or, across an edge between tasks, the only input of a task fed by a task with that one output.
 */
function successors(graph: TaskGraph): Map<string, string> {
  const next = new Map<string, string>();
  for (const t of graph.tasks) for (let k = 0; k + 1 < t.chain.length; k++) next.set(t.chain[k]!.id, t.chain[k + 1]!.id);
  for (const e of graph.edges) {
    if (graph.edges.filter((x) => x.from === e.from).length !== 1 || graph.edges.filter((x) => x.to === e.to).length !== 1) continue;
    const from = graph.tasks.find((t) => t.id === e.from)!;
    const to = graph.tasks.find((t) => t.id === e.to)!;
    if (to.source !== undefined || from.chain.length === 0 || to.chain.length === 0) continue;
    next.set(from.chain[from.chain.length - 1]!.id, to.chain[0]!.id);
  }
  return next;
}
