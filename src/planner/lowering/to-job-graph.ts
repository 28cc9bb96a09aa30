import { PlanningError } from '../../errors/sluice-error.js';
import type { JobEdge, JobGraph, JobVertex } from '../../runtime/job-graph.js';
import type { Partitioner } from '../../runtime/partitioner.js';
import type { AnySink } from '../../runtime/sink/sink.js';
import type { OperatorFactory } from '../../runtime/stream-operator.js';
import type { Row } from '../../types/row.js';
import { hashFields } from '../../types/values/equality.js';
import { physicalNodeText } from '../logical/explain-plan.js';
import { inputsOf } from '../logical/plan-node.js';
import type { PlanNode, ScanNode } from '../logical/plan-node.js';
import { transientScans } from './transient-scans.js';
import { postOrder } from '../logical/subplan-reuse.js';
import { PhysicalPlanner } from '../physical/physical-planner.js';
import { lowerAggregate, lowerGlobalWindow, lowerLocalWindowAggregate } from './lower-aggregate.js';
import { lowerJoin } from './lower-join.js';
import { lowerChangelogNormalize, lowerMatch, lowerOver, lowerRank, lowerSort } from './lower-keyed.js';
import { lowerScan, lowerValues } from './lower-source.js';
import { lowerCalc, lowerLookupJoin, lowerUnion, lowerUnnest, lowerWindowTvf } from './lower-stateless.js';
import type { Lowering, LoweringOptions, Stream, VertexDraft } from './lowering-context.js';
import { mainThreadReasons } from './main-thread-pins.js';

export type { LoweringOptions } from './lowering-context.js';

/** How a sink vertex runs and is fed. */
export interface SinkOptions {
  /** Run the sink on the main thread, for this reason (it hands rows to the caller). */
  readonly mainThread?: string;
  /** Hash the sink's input by these fields. */
  readonly keyBy?: readonly number[];
}

/**
 * Lowers an optimized plan, through its physical plan, to a job graph. A stateless node (calc) is chained onto its
 * input's vertex; a keyed or global node starts a vertex behind the hash or single exchange the physical plan put in
 * front of it. A sink ends the graph (a table sink, or the collect sink of a SELECT).
 */
export class JobGraphBuilder implements Lowering {
  private readonly vertices: VertexDraft[] = [];
  private readonly edges: JobEdge[] = [];
  private next = 0;
  /** Each plan node object is lowered once: a node sub-plan reuse shared is computed once for all its readers. */
  private readonly lowered = new Map<PlanNode, Stream>();
  /** Nodes read by more than one consumer (after sub-plan reuse): nothing is chained onto their vertex. */
  private readonly fanOut = new Set<PlanNode>();
  /** Scans whose values die with their batch (transient-scans.ts), found by `planShared`. */
  private transient: ReadonlySet<ScanNode> = new Set();

  readonly physical: PhysicalPlanner;

  constructor(readonly options: LoweringOptions) {
    this.physical = new PhysicalPlanner(options.mode);
  }

  vertex(kind: VertexDraft['kind'], name: string, parallelism: number): VertexDraft {
    const v: VertexDraft = { id: `v${this.next++}`, name, parallelism, kind, operators: [] };
    this.vertices.push(v);
    return v;
  }

  draft(id: string): VertexDraft {
    return this.vertices.find((v) => v.id === id)!;
  }

  connect(from: Stream, to: VertexDraft, partitioner: Partitioner, inputIndex = 0): void {
    const p: Partitioner = partitioner.kind === 'forward' && from.parallelism !== to.parallelism ? { kind: 'rebalance' } : partitioner;
    this.edges.push(inputIndex === 0 ? { from: from.id, to: to.id, partitioner: p } : { from: from.id, to: to.id, inputIndex, partitioner: p });
  }

  /** A vertex for keyed node `n`: one subtask behind a single exchange (all of its input in one place). */
  keyedVertex(n: PlanNode, name: string): VertexDraft {
    return this.vertex('operator', name, this.keyedParallelism(n));
  }

  keyedParallelism(n: PlanNode): number {
    return this.physical.exchangeInto(n, 0)?.distribution.kind === 'single' ? 1 : this.options.parallelism;
  }

  /** Connects `from` to input `inputIndex` of `to`, the vertex of `n`, through the physical plan's exchange there, if any. */
  exchange(n: PlanNode, from: Stream, to: VertexDraft, inputIndex = 0): void {
    const d = this.physical.exchangeInto(n, inputIndex)?.distribution;
    if (d === undefined) this.connect(from, to, { kind: 'forward' }, inputIndex);
    else if (d.kind === 'single') this.connect(from, to, { kind: 'rebalance' }, inputIndex);
    else {
      const keys = d.keys;
      this.connect(from, to, { kind: 'hash', key: (r) => hashFields(r.fields, keys) }, inputIndex);
    }
  }

  /**
   * Declares the roots that will be lowered into this graph (each read by one sink), after sub-plan reuse
   * (logical/subplan-reuse.ts) made identical sub-plans one object: a node with several readers, such as the
   * scan of a self-join or of two INSERTs, is lowered once and its rows are fanned out. Returns the roots.
   * Their physical plan is built here, once and bottom-up, before lowering asks it about any node.
   */
  planShared<T extends readonly PlanNode[]>(roots: T): T {
    this.physical.plan(roots);
    this.transient = transientScans(roots);
    const readers = new Map<PlanNode, number>();
    const read = (n: PlanNode): void => void readers.set(n, (readers.get(n) ?? 0) + 1);
    // Each root is read once, by its sink (a table sink, or the collect sink of a SELECT); each node reads each
    // of its inputs once (a self-join's shared input twice).
    roots.forEach(read);
    for (const n of postOrder(roots)) inputsOf(n).forEach(read);
    for (const [n, c] of readers) if (c > 1) this.fanOut.add(n);
    return roots;
  }

  /** A stream the next stateless operator may be chained onto: a fresh vertex behind a shared source. */
  chainTarget(input: Stream, name: string): Stream {
    if (input.shared !== true) return input;
    const v = this.vertex('operator', name, input.parallelism);
    this.connect(input, v, { kind: 'forward' });
    return { id: v.id, parallelism: v.parallelism };
  }

  hasTransientValues(n: ScanNode): boolean {
    return this.transient.has(n);
  }

  isLowered(n: PlanNode): boolean {
    return this.lowered.has(n);
  }

  /** Lowers `n`, returning the stream (vertex) its rows leave from. */
  lower(n: PlanNode): Stream {
    const done = this.lowered.get(n);
    if (done !== undefined) return done;
    if (!this.warming && planDepthExceeds(n, DEEP_PLAN)) this.lowerInputsFirst(n);
    return this.lowerOnce(n);
  }

  /** Lowers `n` (its inputs are lowered or lowered on the way) and remembers its stream. */
  private lowerOnce(n: PlanNode): Stream {
    const lowered = this.lowerNode(n);
    this.pinCallers(n, lowered);
    const s = this.fanOut.has(n) ? { ...lowered, shared: true } : lowered;
    this.lowered.set(n, s);
    return s;
  }

  /**
   * Pins the vertex `n`'s operator went to when it calls a function that must run on the main thread, naming the
   * operator and why. An input `n` lowered itself rather than through `lower` (a projection done by the window
   * aggregate below it) has its operator on the same vertex, so its calls count too.
   */
  private pinCallers(n: PlanNode, out: Stream): void {
    for (const node of [n, ...inputsOf(n).filter((i) => !this.lowered.has(i))]) {
      const reasons = mainThreadReasons(node, this.options.functions);
      if (reasons.length > 0) this.pin(this.draft(out.id), `${physicalNodeText(node, this.options.mode)} (${reasons.join(', ')})`);
    }
  }

  private pin(v: VertexDraft, reason: string): void {
    if (v.mainThread === undefined) v.mainThread = reason;
    else if (!v.mainThread.split('; ').includes(reason)) v.mainThread = `${v.mainThread}; ${reason}`;
  }

  private warming = false;

  /**
   * For a plan deeper than DEEP_PLAN (hundreds of nested scalar subqueries): lowers `root`'s inputs
   * bottom-up in a loop, first input first, so the recursion in `lowerNode` only meets lowered inputs
   * and costs no stack. Shallower plans recurse as always, keeping their vertex order exactly.
   */
  private lowerInputsFirst(root: PlanNode): void {
    this.warming = true;
    try {
      const stack: [PlanNode, boolean][] = [[root, false]];
      while (stack.length > 0) {
        const [node, expanded] = stack.pop()!;
        if (this.lowered.has(node)) continue;
        if (expanded) {
          if (node !== root) this.lowerOnce(node);
          continue;
        }
        stack.push([node, true]);
        const inputs = inputsOf(node);
        for (let i = inputs.length - 1; i >= 0; i--) if (!this.lowered.has(inputs[i]!)) stack.push([inputs[i]!, false]);
      }
    } finally {
      this.warming = false;
    }
  }

  /**
   * Ends the graph with a sink. `keyBy`: hash the input by these fields (a table sink's primary key, see
   * physical/sink-exchange.ts) instead of forwarding it, or round-robin when the parallelisms differ.
   */
  addSink(input: Stream, name: string, sink: AnySink<Row>, parallelism: number, operators: OperatorFactory[] = [], options: SinkOptions = {}): void {
    const v = this.vertex('sink', name, parallelism);
    v.sink = sink;
    if (options.mainThread !== undefined) v.mainThread = options.mainThread;
    v.operators.push(...operators);
    const keys = options.keyBy;
    this.connect(input, v, keys === undefined ? { kind: 'forward' } : { kind: 'hash', key: (r) => hashFields(r.fields, keys) });
  }

  build(jobName: string): JobGraph {
    const vertices: JobVertex[] = this.vertices.map((v) => {
      switch (v.kind) {
        case 'source':
          return {
            kind: 'source',
            id: v.id,
            name: v.name,
            parallelism: v.parallelism,
            source: v.source!,
            ...(v.watermarkStrategy === undefined ? {} : { watermarkStrategy: v.watermarkStrategy }),
            operators: v.operators,
            ...pinOf(v),
          };
        case 'operator':
          return { kind: 'operator', id: v.id, name: v.name, parallelism: v.parallelism, operators: v.operators, ...pinOf(v) };
        case 'sink':
          return { kind: 'sink', id: v.id, name: v.name, parallelism: v.parallelism, sink: v.sink!, operators: v.operators, ...pinOf(v) };
        default: {
          const never: never = v.kind;
          return never;
        }
      }
    });
    return { jobName, vertices, edges: this.edges };
  }

  private lowerNode(n: PlanNode): Stream {
    const name = physicalNodeText(n, this.options.mode);
    switch (n.kind) {
      case 'values':
        return lowerValues(this, n, name);
      case 'scan':
        return lowerScan(this, n, name);
      case 'calc':
        return lowerCalc(this, n, name);
      case 'aggregate':
        return lowerAggregate(this, n, null, name);
      case 'union':
        return lowerUnion(this, n, name);
      case 'sort':
        return lowerSort(this, n, name);
      case 'join':
        return lowerJoin(this, n, name);
      case 'over':
        return lowerOver(this, n, name);
      case 'match':
        return lowerMatch(this, n, name);
      case 'rank':
        return lowerRank(this, n, name);
      case 'lookup-join':
        return lowerLookupJoin(this, n, name);
      case 'unnest':
        return lowerUnnest(this, n, name);
      case 'window-tvf':
        return lowerWindowTvf(this, n, name);
      case 'local-window-aggregate':
        return lowerLocalWindowAggregate(this, n, name);
      case 'global-window-aggregate':
        return lowerGlobalWindow(this, n, null, name);
      case 'changelog-normalize':
        return lowerChangelogNormalize(this, n, name);
      case 'sink':
        throw new PlanningError('internal: sinks are lowered by the planner entry points');
      default: {
        const never: never = n;
        return never;
      }
    }
  }
}

/** A vertex's `mainThread`, present only when it is pinned (graphs without pins stay as they were). */
function pinOf(v: VertexDraft): { mainThread?: string } {
  return v.mainThread === undefined ? {} : { mainThread: v.mainThread };
}

/** Plans at most this deep are lowered by plain recursion, as they always were. */
const DEEP_PLAN = 256;

/** Whether a path from `root` down its inputs is longer than `limit` nodes; iterative, so any depth is safe. */
function planDepthExceeds(root: PlanNode, limit: number): boolean {
  const stack: [PlanNode, number][] = [[root, 1]];
  const seen = new Set<PlanNode>();
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const input of inputsOf(node)) stack.push([input, depth + 1]);
  }
  return false;
}
