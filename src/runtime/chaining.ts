import { ValidationError } from '../errors/sluice-error.js';
import type { JobEdge, JobGraph, JobVertex } from './job-graph.js';
import type { Partitioner } from './partitioner.js';
import type { TaskVertex } from './task-host.js';
import type { OperatorFactory } from './stream-operator.js';

/** An edge between two tasks after chaining. */
export interface TaskEdge {
  readonly from: string;
  readonly to: string;
  readonly inputIndex: number;
  readonly partitioner: Partitioner;
}

export interface TaskGraph {
  readonly tasks: readonly TaskVertex[];
  readonly edges: readonly TaskEdge[];
}

function toTask(v: JobVertex): TaskVertex {
  const t = toTaskUnpinned(v);
  return v.mainThread === undefined ? t : { ...t, mainThread: v.mainThread };
}

function toTaskUnpinned(v: JobVertex): TaskVertex {
  const operators = v.operators ?? [];
  const chain = [{ id: v.id, operators: operators.length }];
  switch (v.kind) {
    case 'source':
      return { id: v.id, name: v.name, parallelism: v.parallelism, source: v.source, watermarkStrategy: v.watermarkStrategy, operators, sink: undefined, chain };
    case 'operator':
      return { id: v.id, name: v.name, parallelism: v.parallelism, source: undefined, watermarkStrategy: undefined, operators, sink: undefined, chain };
    case 'sink':
      return { id: v.id, name: v.name, parallelism: v.parallelism, source: undefined, watermarkStrategy: undefined, operators, sink: v.sink, chain };
    default: {
      const never: never = v;
      throw new Error(`unknown vertex ${String(never)}`);
    }
  }
}

/** Checks the graph and chains forward edges between equal parallelisms into single tasks. */
export function buildTaskGraph(graph: JobGraph): TaskGraph {
  const tasks = new Map<string, TaskVertex>();
  for (const v of graph.vertices) {
    if (tasks.has(v.id)) throw new ValidationError(`Job graph has two vertices with id '${v.id}'.`);
    if (!Number.isInteger(v.parallelism) || v.parallelism < 1) {
      throw new ValidationError(`Vertex '${v.name}' has parallelism ${v.parallelism}; it must be a positive integer.`);
    }
    tasks.set(v.id, toTask(v));
  }
  let edges: TaskEdge[] = graph.edges.map((e: JobEdge) => ({ from: e.from, to: e.to, inputIndex: e.inputIndex ?? 0, partitioner: e.partitioner }));
  for (const e of edges) {
    const a = tasks.get(e.from), b = tasks.get(e.to);
    if (!a || !b) throw new ValidationError(`Job graph edge '${e.from}' -> '${e.to}' names an unknown vertex.`);
    if (b.source) throw new ValidationError(`Source vertex '${b.name}' cannot have inputs.`);
    if (a.sink) throw new ValidationError(`Sink vertex '${a.name}' cannot have outputs.`);
    if (e.partitioner.kind === 'forward' && a.parallelism !== b.parallelism) {
      throw new ValidationError(`Forward edge from '${a.name}' (parallelism ${a.parallelism}) to '${b.name}' (parallelism ${b.parallelism}) needs equal parallelism.`);
    }
  }
  for (const t of tasks.values()) {
    if (!t.source && !edges.some((e) => e.to === t.id)) throw new ValidationError(`Vertex '${t.name}' has no input.`);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const e of edges) {
      const a = tasks.get(e.from)!, b = tasks.get(e.to)!;
      if (e.partitioner.kind !== 'forward' || a.sink || b.source) continue;
      if (edges.filter((x) => x.from === a.id).length !== 1 || edges.filter((x) => x.to === b.id).length !== 1) continue;
      const ops: OperatorFactory[] = [...a.operators, ...b.operators];
      // Both reasons are kept: the warning about pinned operators names every one of them.
      const mainThread = a.mainThread === undefined || b.mainThread === undefined || a.mainThread === b.mainThread ? (a.mainThread ?? b.mainThread) : `${a.mainThread}; ${b.mainThread}`;
      tasks.set(a.id, { ...a, name: `${a.name} -> ${b.name}`, operators: ops, sink: b.sink, chain: [...a.chain, ...b.chain], ...(mainThread === undefined ? {} : { mainThread }) });
      tasks.delete(b.id);
      edges = edges.filter((x) => x !== e).map((x) => (x.from === b.id ? { ...x, from: a.id } : x));
      changed = true;
      break;
    }
  }
  return { tasks: [...tasks.values()], edges };
}
