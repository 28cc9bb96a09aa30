import type { JobGraph, JobVertex } from '../../runtime/job-graph.js';
import type { Partitioner } from '../../runtime/partitioner.js';

/** One node of Flink's stream graph JSON (StreamGraph.getStreamingPlanAsJSON). */
interface JsonPlanNode {
  id: number;
  type: string;
  pact: 'Data Source' | 'Operator' | 'Data Sink';
  contents: string;
  parallelism: number;
  predecessors?: { id: number; ship_strategy: string; side: 'second' }[];
}

function shipStrategy(p: Partitioner): string {
  switch (p.kind) {
    case 'forward':
      return 'FORWARD';
    case 'hash':
      return 'HASH';
    case 'rebalance':
      return 'REBALANCE';
    case 'broadcast':
      return 'BROADCAST';
    default: {
      const never: never = p;
      return never;
    }
  }
}

/** `Calc(select=[a])` -> `Calc`; the operator name Flink puts in a node's type. */
function operatorName(text: string): string {
  const paren = text.indexOf('(');
  return paren < 0 ? text : text.slice(0, paren);
}

/** `TableSourceScan(table=[[c, d, orders, ...` -> `orders`. */
function tableName(text: string): string {
  return /table=\[\[?[^,\]]+[,.] ?[^,\]]+[,.] ?([^,\]]+)/.exec(text)?.[1] ?? operatorName(text);
}

/**
 * The operators of one vertex, head first, as stream graph nodes: a source vertex is its source then its
 * chained operators; an operator vertex its chain; a sink vertex its chained operators then the writer.
 */
function vertexNodes(v: JobVertex, nextId: () => number, contents: (name: string) => string): JsonPlanNode[] {
  const op = (name: string): JsonPlanNode => {
    const id = nextId();
    return { id, type: `${operatorName(name)}[${id}]`, pact: 'Operator', contents: `[${id}]:${contents(name)}`, parallelism: v.parallelism };
  };
  const chained = (v.operators ?? []).map((o) => o.name);
  switch (v.kind) {
    case 'source': {
      const id = nextId();
      const head: JsonPlanNode = { id, type: `Source: ${tableName(v.name)}[${id}]`, pact: 'Data Source', contents: `[${id}]:${contents(v.name)}`, parallelism: v.parallelism };
      return [head, ...chained.map(op)];
    }
    case 'operator':
      return (chained.length === 0 ? [v.name] : chained).map(op);
    case 'sink': {
      const before = chained.map(op);
      const id = nextId();
      return [...before, { id, type: `Sink: ${tableName(v.name)}[${id}]`, pact: 'Data Sink', contents: `[${id}]:${contents(v.name)}`, parallelism: v.parallelism }];
    }
    default: {
      const never: never = v;
      return never;
    }
  }
}

/**
 * Flink's "Physical Execution Plan" JSON (EXPLAIN JSON_EXECUTION_PLAN) of a Sluice job graph: one node per
 * operator, numbered from 1 in graph order; chained operators follow each other with FORWARD, job edges
 * carry their partitioner as ship_strategy. `skipVertex` leaves out vertices (a SELECT's collect sink,
 * which Flink's EXPLAIN does not show either). `contents` turns an operator's name into the text of its node's
 * `contents` (the caller maps the job graph's names to the execution plan's infix form).
 */
export function jsonExecutionPlan(graph: JobGraph, skipVertex: (v: JobVertex) => boolean = () => false, contents: (name: string) => string = (n) => n): string {
  let next = 1;
  const nextId = (): number => next++;
  const nodes: JsonPlanNode[] = [];
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  const kept = graph.vertices.filter((v) => !skipVertex(v));
  for (const v of kept) {
    const own = vertexNodes(v, nextId, contents);
    own.forEach((n, i) => {
      if (i > 0) n.predecessors = [{ id: own[i - 1]!.id, ship_strategy: 'FORWARD', side: 'second' }];
    });
    first.set(v.id, own[0]!.id);
    last.set(v.id, own[own.length - 1]!.id);
    nodes.push(...own);
  }
  for (const e of graph.edges) {
    const to = first.get(e.to);
    const from = last.get(e.from);
    if (to === undefined || from === undefined) continue;
    const target = nodes.find((n) => n.id === to)!;
    target.predecessors = [...(target.predecessors ?? []), { id: from, ship_strategy: shipStrategy(e.partitioner), side: 'second' }];
  }
  return jackson({ nodes: nodes.map((n) => ({ ...n })) }, 0);
}

/** JSON as Jackson's default pretty printer writes it (`"key" : value`, arrays as `[ {`...`}, {`...`} ]`). */
function jackson(v: unknown, indent: number): string {
  if (Array.isArray(v)) return v.length === 0 ? '[ ]' : `[ ${v.map((x) => jackson(x, indent)).join(', ')} ]`;
  if (v !== null && typeof v === 'object') {
    const pad = ' '.repeat(indent + 2);
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return `{\n${entries.map(([k, x]) => `${pad}${JSON.stringify(k)} : ${jackson(x, indent + 2)}`).join(',\n')}\n${' '.repeat(indent)}}`;
  }
  return JSON.stringify(v);
}
