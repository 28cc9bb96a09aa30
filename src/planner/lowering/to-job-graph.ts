import { PlanningError } from '../../errors/sluice-error.js';
import type { JobEdge, JobGraph, JobVertex } from '../../runtime/job-graph.js';
import type { Partitioner } from '../../runtime/partitioner.js';
import type { AnySink } from '../../runtime/sink/sink.js';
import type { AnySource } from '../../runtime/source/source.js';
import { WatermarkStrategy } from '../../runtime/source/watermark-strategy.js';
import type { OperatorFactory } from '../../runtime/stream-operator.js';
import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import { hashFields } from '../../types/values/equality.js';
import { calcOperatorFactory } from '../../table-runtime/calc-operator.js';
import { builtinAggregate } from '../../table-runtime/aggregates/builtin-aggregates.js';
import { BUILTIN_AGGREGATES } from '../functions/aggregates/builtin-aggregate-types.js';
import { groupAggregateFactory } from '../../table-runtime/group-aggregate-operator.js';
import type { AggregateSpec } from '../../table-runtime/group-aggregate-operator.js';
import { temporalSortFactory } from '../../table-runtime/temporal-sort-operator.js';
import { limitFactory, sortLimitFactory } from '../../table-runtime/sort-limit-operator.js';
import { lookupJoinFactory } from '../../table-runtime/lookup-join-operator.js';
import { unnestOperatorFactory } from '../../table-runtime/unnest-operator.js';
import { semiJoinFactory } from '../../table-runtime/semi-join-operator.js';
import { setOpAllFactory } from '../../table-runtime/set-op-all-operator.js';
import { temporalJoinFactory } from '../../table-runtime/temporal-join-operator.js';
import { joinOperatorFactory } from '../../table-runtime/join-operator.js';
import { joinKeyAt } from '../../table-runtime/join-flat-rows.js';
import type { StateKey } from '../../runtime/state/state.js';
import type { JoinSpec } from '../../table-runtime/join-operator.js';
import { intervalJoinFactory } from '../../table-runtime/interval-join-operator.js';
import { timeBoundedJoinBounds } from './interval-bounds.js';
import { sessionWindowFactory } from '../../table-runtime/session-window-operator.js';
import { windowAggregateFactory } from '../../table-runtime/window-aggregate-operator.js';
import type { WindowAggregateSpec } from '../../table-runtime/window-aggregate-operator.js';
import { windowAssignerFactory } from '../../table-runtime/window-assigner-operator.js';
import { localWindowAggregateFactory } from '../../table-runtime/local-window-aggregate-operator.js';
import { overAggregateFactory } from '../../table-runtime/over-aggregate-operator.js';
import type { OverSpec } from '../../table-runtime/over-aggregate-operator.js';
import { matchRecognizeFactory } from '../../table-runtime/match-recognize/match-recognize-operator.js';
import { matchSpec } from './lower-match.js';
import { rankOperatorFactory } from '../../table-runtime/rank-operator.js';
import { changelogNormalizeFactory } from '../../table-runtime/changelog-normalize-operator.js';
import { unionOperatorFactory } from '../../table-runtime/union-operator.js';
import { ValuesSource } from '../../table-runtime/values-source.js';
import type { FunctionLookup } from '../functions/function-registry.js';
import { ChangelogInference, replacesTop1InPlace } from '../logical/changelog.js';
import { requiredDistribution } from '../logical/distribution.js';
import { isProctimeFirstRow } from '../logical/deduplicate.js';
import { physicalNodeText } from '../logical/explain-plan.js';
import { inputsOf } from '../logical/plan-node.js';
import type { AggCall, AggregateNode, GlobalWindowAggregateNode, PlanNode } from '../logical/plan-node.js';
import { fuseWindowAggregate } from './window-fusion.js';
import { postOrder } from '../logical/subplan-reuse.js';

/** `hashFields` in `joinKeyAt`'s shape: the state key of the keyed operators that key by a hash of fields. */
const hashFieldsAt = (fields: readonly unknown[], _offset: number, keys: readonly number[]): StateKey => hashFields(fields, keys);
import { compileRex, compileRexCalc } from '../rex/compile-rex.js';

/** Settings the lowering reads. */
export interface LoweringOptions {
  readonly mode: 'streaming' | 'batch';
  readonly parallelism: number;
  readonly timeZone: string;
  readonly functions: FunctionLookup | undefined;
  /** `table.exec.state.ttl` in ms for group aggregates and regular joins; 0 keeps state forever. */
  readonly stateTtlMs?: number;
  /** `table.exec.mini-batch.enabled`: group aggregates emit one change per group per input batch. */
  readonly miniBatch?: boolean;
}

/** How a sink vertex runs and is fed. */
export interface SinkOptions {
  /** Run the sink on the main thread, for this reason (it hands rows to the caller). */
  readonly mainThread?: string;
  /** Hash the sink's input by these fields. */
  readonly keyBy?: readonly number[];
}

/** A vertex under construction; operators may still be chained onto its end. */
interface Stream {
  readonly id: string;
  readonly parallelism: number;
  /** True for a node with several readers (sub-plan reuse): readers start their own vertex instead of chaining. */
  readonly shared?: boolean;
}

interface VertexDraft {
  readonly id: string;
  name: string;
  readonly parallelism: number;
  readonly kind: 'source' | 'operator' | 'sink';
  source?: AnySource<Row>;
  watermarkStrategy?: WatermarkStrategy<Row>;
  sink?: AnySink<Row>;
  readonly operators: OperatorFactory[];
  mainThread?: string;
}

/**
 * Lowers an optimized plan to a job graph. Each plan node has one consumer, so a stateless node (calc)
 * is chained onto its input's vertex; keyed and global nodes start a vertex behind a hash or single
 * exchange. `terminal` ends the graph (a table sink, or the collect sink of a SELECT).
 */
export class JobGraphBuilder {
  private readonly vertices: VertexDraft[] = [];
  private readonly edges: JobEdge[] = [];
  private next = 0;
  /** Each plan node object is lowered once: a node sub-plan reuse shared is computed once for all its readers. */
  private readonly lowered = new Map<PlanNode, Stream>();
  /** Nodes read by more than one consumer (after sub-plan reuse): nothing is chained onto their vertex. */
  private readonly fanOut = new Set<PlanNode>();

  /** Which row kinds each node emits (memoized), for choosing aggregate implementations. */
  private readonly changelog: ChangelogInference;

  constructor(private readonly options: LoweringOptions) {
    this.changelog = new ChangelogInference(options.mode);
  }

  private vertex(kind: VertexDraft['kind'], name: string, parallelism: number): VertexDraft {
    const v: VertexDraft = { id: `v${this.next++}`, name, parallelism, kind, operators: [] };
    this.vertices.push(v);
    return v;
  }

  private draft(id: string): VertexDraft {
    return this.vertices.find((v) => v.id === id)!;
  }

  private connect(from: Stream, to: VertexDraft, partitioner: Partitioner, inputIndex = 0): void {
    const p: Partitioner = partitioner.kind === 'forward' && from.parallelism !== to.parallelism ? { kind: 'rebalance' } : partitioner;
    this.edges.push(inputIndex === 0 ? { from: from.id, to: to.id, partitioner: p } : { from: from.id, to: to.id, inputIndex, partitioner: p });
  }

  /** A vertex for keyed node `n`: one subtask when it needs all of its input in one place (distribution.ts). */
  private keyedVertex(n: PlanNode, name: string): VertexDraft {
    return this.vertex('operator', name, requiredDistribution(n, 0)?.kind === 'single' ? 1 : this.options.parallelism);
  }

  /** Connects `from` to input `inputIndex` of `to`, the vertex of `n`, through the exchange `n` requires of it. */
  private exchange(n: PlanNode, from: Stream, to: VertexDraft, inputIndex = 0): void {
    const d = requiredDistribution(n, inputIndex);
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
   */
  planShared<T extends readonly PlanNode[]>(roots: T): T {
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
  private chainTarget(input: Stream, name: string): Stream {
    if (input.shared !== true) return input;
    const v = this.vertex('operator', name, input.parallelism);
    this.connect(input, v, { kind: 'forward' });
    return { id: v.id, parallelism: v.parallelism };
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
    const s = this.fanOut.has(n) ? { ...lowered, shared: true } : lowered;
    this.lowered.set(n, s);
    return s;
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

  /** Adds a sink vertex consuming `input`'s stream; `mainThread` says why its writer must run on the main thread, if it must. */
  /**
   * Ends the graph with a sink. `keyBy`: hash the input by these fields (a table sink's primary key, see
   * sink-exchange.ts) instead of forwarding it, or round-robin when the parallelisms differ.
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
          };
        case 'operator':
          return { kind: 'operator', id: v.id, name: v.name, parallelism: v.parallelism, operators: v.operators };
        case 'sink':
          return { kind: 'sink', id: v.id, name: v.name, parallelism: v.parallelism, sink: v.sink!, operators: v.operators, ...(v.mainThread === undefined ? {} : { mainThread: v.mainThread }) };
        default: {
          const never: never = v.kind;
          return never;
        }
      }
    });
    return { jobName, vertices, edges: this.edges };
  }

  /** A group / window / session aggregate; `output` projects a window aggregate's columns (null: all). */
  private lowerAggregate(n: AggregateNode, output: readonly number[] | null, name: string): Stream {
    const o = this.options;
    const fused = fuseWindowAggregate(n);
    const inputNode = fused?.input ?? n.input;
    const input = this.lower(inputNode);
    const keys = n.groupKeys;
    const w = n.window;
    // Window aggregates are partitioned by their plain keys (every window of a key in one subtask).
    // A fused window aggregate reads below its window TVF: its plain keys index that input.
    const fusedKeys = fused?.keys.flatMap((k) => (k.kind === 'field' ? [k.index] : []));
    const v = fusedKeys === undefined ? this.keyedVertex(n, name) : this.vertex('operator', name, fusedKeys.length === 0 ? 1 : o.parallelism);
    const calls = fused?.calls ?? n.aggCalls;
    // Window aggregates and batch jobs only ever see inserts; a streaming GROUP BY sees retractions only
    // when its input updates. Without them MIN / MAX keep just the best value (Flink's MaxAggFunction).
    const retracts = o.mode === 'streaming' && w === undefined && !this.changelog.of(inputNode).isInsertOnly();
    const aggs = this.aggregateSpecs(calls, inputNode, retracts);
    if (w === undefined) v.operators.push(groupAggregateFactory(name, keys, aggs, o.mode, o.stateTtlMs ?? 0, o.miniBatch === true));
    else if (w.spec.kind === 'SESSION') {
      v.operators.push(sessionWindowFactory(name, { groupKeys: keys, windowStartField: w.windowStartField, windowEndField: w.windowEndField, gap: w.spec.gap }, aggs));
    } else {
      const spec: WindowAggregateSpec =
        fused !== undefined
          ? { input: { kind: 'assign', timeIndex: fused.timeIndex, window: fused.window, byWindow: o.mode === 'batch' }, keys: fused.keys, output }
          : {
              input: { kind: 'fields', startField: w.windowStartField, endField: w.windowEndField, window: w.spec },
              keys: keys.map((k) => (k === w.windowStartField ? { kind: 'start' as const } : k === w.windowEndField ? { kind: 'end' as const } : { kind: 'field' as const, index: k })),
              output,
            };
      v.operators.push(windowAggregateFactory(name, spec, aggs));
    }
    if (fusedKeys === undefined) this.exchange(n, input, v);
    else this.connect(input, v, fusedKeys.length === 0 ? { kind: 'rebalance' } : { kind: 'hash', key: (r) => hashFields(r.fields, fusedKeys) });
    return { id: v.id, parallelism: v.parallelism };
  }

  /** How the operators run `calls` over the rows of `inputNode` (one fresh set per operator instance). */
  private aggregateSpecs(calls: readonly AggCall[], inputNode: PlanNode, retracts: boolean): () => AggregateSpec[] {
    const o = this.options;
    const inputTypes = inputNode.fields.map((f) => f.type);
    return () =>
      calls.map((c) => {
        const argTypes = c.args.map((i) => inputTypes[i]!);
        const def = o.functions?.lookup(c.name);
        const fn =
          def?.kind === 'aggregate' && !BUILTIN_AGGREGATES.has(c.name)
            ? def.create(argTypes, { distinct: c.distinct, star: c.args.length === 0 })
            : builtinAggregate(c.name, argTypes, c.type, { retracts });
        const countStar = c.name === 'COUNT' && c.args.length === 0;
        return { fn, args: c.args, distinct: c.distinct, filterArg: c.filterArg, countStar };
      });
  }

  /**
   * The global phase of a two-phase window aggregate, behind a hash exchange on the group keys the local phase
   * forwards first (the same hash a one-phase window aggregate's exchange computes from the input rows, so
   * either plan's state lands in the same key groups); `output` projects its columns (null: all).
   */
  private lowerGlobalWindow(n: GlobalWindowAggregateNode, output: readonly number[] | null, name: string): Stream {
    const local = n.input;
    if (local.kind !== 'local-window-aggregate') throw new PlanningError('internal: a global window aggregate reads its local phase');
    const input = this.lower(local);
    const keyCount = local.groupKeys.length;
    const v = this.keyedVertex(n, name);
    // The calls' functions as the local phase creates them (over its input's types); they only merge here.
    const localAggs = this.aggregateSpecs(local.aggCalls, local.input, false);
    const aggs = (): AggregateSpec[] => localAggs().map((a) => ({ ...a, args: [], filterArg: -1 }));
    const spec: WindowAggregateSpec = { input: { kind: 'partial', keyCount, window: n.window }, keys: n.keys, output };
    v.operators.push(windowAggregateFactory(name, spec, aggs));
    this.exchange(n, input, v);
    return { id: v.id, parallelism: v.parallelism };
  }

  private lowerNode(n: PlanNode): Stream {
    const o = this.options;
    const name = physicalNodeText(n, o.mode);
    switch (n.kind) {
      case 'values': {
        const v = this.vertex('source', name, 1);
        v.source = new ValuesSource(n.rows.map((r) => new Row(RowKind.INSERT, r.slice())));
        return { id: v.id, parallelism: 1 };
      }
      case 'scan': {
        const id = n.identifier;
        if (o.mode === 'batch' && !n.source.getChangelogMode().isInsertOnly()) {
          throw new PlanningError(
            `Querying a table in batch mode is currently only possible for INSERT-only table sources. But the source for table '${id.catalog}.${id.database}.${id.object}' produces other changelog messages than just INSERT.`,
          );
        }
        const provider = n.source.getScanRuntimeProvider({ batchMode: o.mode === 'batch' });
        if (o.mode === 'batch' && !provider.bounded) {
          throw new PlanningError(
            `Querying an unbounded table '${id.catalog}.${id.database}.${id.object}' in batch mode is not allowed. The table source is unbounded.`,
          );
        }
        const p = provider.parallelism ?? o.parallelism;
        const v = this.vertex('source', name, p);
        v.source = provider.source;
        if (n.watermark !== null && o.mode === 'streaming') {
          const rowtime = compileRex(n.watermark.rowtime, { timeZone: o.timeZone });
          const ts = (r: Row): number => (rowtime(r.fields) as number | null) ?? Number.MIN_SAFE_INTEGER;
          if (n.watermark.kind === 'bounded') {
            v.watermarkStrategy = WatermarkStrategy.forBoundedOutOfOrderness<Row>(n.watermark.delayMs, ts);
          } else {
            // A general watermark expression: derive the delay from the difference on first use would be
            // wrong for non-linear expressions; approximate with the expression as the timestamp (delay 0).
            const expr = compileRex(n.watermark.expr, { timeZone: o.timeZone });
            v.watermarkStrategy = WatermarkStrategy.forBoundedOutOfOrderness<Row>(0, (r) => (expr(r.fields) as number | null) ?? Number.MIN_SAFE_INTEGER);
          }
        }
        return { id: v.id, parallelism: p };
      }
      case 'calc': {
        const agg = n.input;
        if (n.condition === null && agg.kind === 'aggregate' && agg.window !== undefined && agg.window.spec.kind !== 'SESSION' && !this.lowered.has(agg)) {
          // A projection of a window aggregate's columns is done by the aggregate as it emits.
          const refs = n.projects.map((p) => (p.kind === 'input-ref' ? p.index : -1));
          if (refs.every((r) => r >= 0)) return this.lowerAggregate(agg, refs, physicalNodeText(agg, o.mode));
        }
        if (n.condition === null && agg.kind === 'global-window-aggregate' && !this.lowered.has(agg)) {
          const refs = n.projects.map((p) => (p.kind === 'input-ref' ? p.index : -1));
          if (refs.every((r) => r >= 0)) return this.lowerGlobalWindow(agg, refs, physicalNodeText(agg, o.mode));
        }
        const input = this.chainTarget(this.lower(n.input), name);
        const draft = this.draft(input.id);
        const picked = n.condition === null && n.projects.every((p) => p.kind === 'input-ref') ? n.projects.map((p) => (p.kind === 'input-ref' ? p.index : -1)) : undefined;
        draft.operators.push(calcOperatorFactory(name, compileRexCalc(n.projects, n.condition, { timeZone: o.timeZone }), picked));
        return input;
      }
      case 'aggregate':
        return this.lowerAggregate(n, null, name);
      case 'union': {
        const v = this.vertex('operator', name, o.parallelism);
        v.operators.push(unionOperatorFactory(name));
        n.inputs.forEach((i, idx) => this.connect(this.lower(i), v, { kind: 'forward' }, idx));
        return { id: v.id, parallelism: v.parallelism };
      }
      case 'sort': {
        const input = this.lower(n.input);
        const v = this.keyedVertex(n, name);
        if (n.keys.length === 0) v.operators.push(limitFactory(name, n.offset, n.fetch));
        else if (o.mode === 'batch') v.operators.push(sortLimitFactory(name, n.keys, n.offset, n.fetch));
        else {
          // Checked by the planner: the first key is an ascending rowtime.
          v.operators.push(temporalSortFactory(name, n.keys[0]!.index, n.keys));
          if (n.fetch !== null || n.offset > 0) v.operators.push(limitFactory(name, n.offset, n.fetch));
        }
        this.exchange(n, input, v);
        return { id: v.id, parallelism: v.parallelism };
      }
      case 'join': {
        const left = this.lower(n.left);
        const right = this.lower(n.right);
        const v = this.keyedVertex(n, name);
        const condition = n.condition === null ? null : compileRex(n.condition, { timeZone: o.timeZone });
        const jt = n.joinType;
        /** How the operator keys its state by the join keys; the regular join keys by value where it can. */
        let stateKey: (fields: readonly unknown[], offset: number, keys: readonly number[]) => StateKey = hashFieldsAt;
        if (jt === 'SEMI' || jt === 'ANTI') {
          if (condition !== null && (n.setOpAll === true || n.semiNulls === 'not-in')) throw new PlanningError('Semi/anti joins with non-equi conditions are supported for EXISTS and IN only');
          if (n.setOpAll === true) v.operators.push(setOpAllFactory(name, jt === 'SEMI' ? 'INTERSECT' : 'EXCEPT', n.left.fields.length, o.mode));
          else {
            const spec = { kind: jt, leftKeys: n.leftKeys, rightKeys: n.rightKeys, mode: o.mode, nulls: n.semiNulls ?? 'sql' } as const;
            v.operators.push(semiJoinFactory(name, condition === null ? spec : { ...spec, condition: (row) => condition(row) === true }));
          }
        } else if (n.temporal !== undefined) {
          if (jt !== 'INNER' && jt !== 'LEFT') throw new PlanningError(`${jt} JOIN is not supported for temporal table joins`);
          v.operators.push(
            temporalJoinFactory(name, {
              joinType: jt,
              leftKeys: n.leftKeys,
              rightKeys: n.rightKeys,
              leftArity: n.left.fields.length,
              rightArity: n.right.fields.length,
              leftTime: n.temporal.leftTime,
              rightTime: n.temporal.rightTime,
              condition,
            }),
          );
        } else {
          const spec: JoinSpec = {
            joinType: jt,
            leftKeys: n.leftKeys,
            rightKeys: n.rightKeys,
            leftArity: n.left.fields.length,
            rightArity: n.right.fields.length,
            condition,
            mode: o.mode,
            stateTtlMs: o.stateTtlMs ?? 0,
          };
          // A join bounding both sides' time attributes against each other is an interval join: its state
          // is cleaned as time passes, and outer sides are padded then (a regular join keeps rows forever).
          // Likewise a window join (window_end = window_end): a window's rows are complete once the watermark passes it.
          const bounds = o.mode === 'streaming' ? timeBoundedJoinBounds(n) : undefined;
          v.operators.push(bounds === undefined ? joinOperatorFactory(name, spec) : intervalJoinFactory(name, spec, bounds));
          if (bounds === undefined) stateKey = joinKeyAt;
        }
        // Each side's exchange computes the state key the join operator sets, so rows meet their state
        // in the subtask owning its key group at any parallelism.
        const lk = n.leftKeys;
        const rk = n.rightKeys;
        const key = stateKey;
        this.connect(left, v, { kind: 'hash', key: (r) => key(r.fields, 0, lk) }, 0);
        this.connect(right, v, { kind: 'hash', key: (r) => key(r.fields, 0, rk) }, 1);
        return { id: v.id, parallelism: v.parallelism };
      }
      case 'over': {
        const input = this.lower(n.input);
        const keys = n.partitionKeys;
        const v = this.keyedVertex(n, name);
        const inputTypes = n.input.fields.map((f) => f.type);
        const spec = (): OverSpec => ({
          partitionKeys: keys,
          orderKey: n.orderKey.index,
          descending: n.orderKey.descending,
          mode: o.mode,
          calls: n.calls.map((c) => ({
            create: () => {
              const argTypes = c.call.args.map((i) => inputTypes[i]!);
              const def = o.functions?.lookup(c.call.name);
              return def?.kind === 'aggregate' && !BUILTIN_AGGREGATES.has(c.call.name)
                ? def.create(argTypes, { distinct: c.call.distinct, star: c.call.args.length === 0 })
                : builtinAggregate(c.call.name, argTypes, c.call.type);
            },
            args: c.call.args,
            frame: c.frame,
            distinct: c.call.distinct,
          })),
        });
        v.operators.push(overAggregateFactory(name, spec));
        this.exchange(n, input, v);
        return { id: v.id, parallelism: v.parallelism };
      }
      case 'match': {
        const input = this.lower(n.input);
        // Without PARTITION BY the whole input is one partition, so one subtask (as Flink).
        const v = this.keyedVertex(n, name);
        v.operators.push(matchRecognizeFactory(name, () => matchSpec(n, o.mode, o.timeZone, o.functions)));
        this.exchange(n, input, v);
        return { id: v.id, parallelism: v.parallelism };
      }
      case 'rank': {
        const input = this.lower(n.input);
        const keys = n.partitionKeys;
        const v = this.keyedVertex(n, name);
        if (o.mode === 'streaming' && n.limit === null) {
          throw new PlanningError('OVER windows\' ordering in stream mode must be defined on a time attribute.');
        }
        v.operators.push(
          rankOperatorFactory(name, {
            partitionKeys: keys,
            orderKeys: n.orderKeys,
            limit: n.limit,
            outputRankNumber: n.outputRankNumber,
            mode: o.mode,
            rankType: n.rankType ?? 'ROW_NUMBER',
            firstRowOnly: isProctimeFirstRow(n),
            rankStart: n.sortLimit === undefined ? 1 : n.sortLimit.offset + 1,
            insertOnlyInput: o.mode === 'streaming' && this.changelog.of(n.input).isInsertOnly(),
            top1Updates: o.mode === 'streaming' && !n.outputRankNumber && replacesTop1InPlace(n, this.changelog.of(n.input)),
            ...(n.prunedFrom === undefined ? {} : { restoredRows: n.prunedFrom }),
          }),
        );
        this.exchange(n, input, v);
        return { id: v.id, parallelism: v.parallelism };
      }
      case 'lookup-join': {
        const input = this.chainTarget(this.lower(n.input), name);
        const source = n.source;
        const rightKeys = n.rightKeys;
        this.draft(input.id).operators.push(
          lookupJoinFactory(name, {
            lookup: () => source.lookup(rightKeys),
            leftKeys: n.leftKeys,
            rightArity: n.rightFields.length,
            condition: n.condition === null ? null : compileRex(n.condition, { timeZone: o.timeZone }),
            joinType: n.joinType,
          }),
        );
        return input;
      }
      case 'unnest': {
        const input = this.chainTarget(this.lower(n.input), name);
        const t = n.collection.type;
        const kind = t.kind === 'MAP' ? 'MAP' : t.kind === 'MULTISET' ? 'MULTISET' : 'ARRAY';
        const expandRow = t.kind === 'ARRAY' && t.element.kind === 'ROW';
        const width = n.fields.length - n.input.fields.length - (n.withOrdinality ? 1 : 0);
        this.draft(input.id).operators.push(
          unnestOperatorFactory(name, { collection: compileRex(n.collection, { timeZone: o.timeZone }), kind, expandRow, width, withOrdinality: n.withOrdinality, keepEmpty: n.keepEmpty }),
        );
        return input;
      }
      case 'window-tvf': {
        const input = this.chainTarget(this.lower(n.input), name);
        this.draft(input.id).operators.push(windowAssignerFactory(name, n.timeIndex, n.window));
        return input;
      }
      case 'local-window-aggregate': {
        // Chained after its input, before the exchange: it pre-aggregates the rows of its subtask.
        const input = this.chainTarget(this.lower(n.input), name);
        const local = { timeIndex: n.timeIndex, window: n.window, keys: n.groupKeys };
        this.draft(input.id).operators.push(localWindowAggregateFactory(name, local, this.aggregateSpecs(n.aggCalls, n.input, false)));
        return input;
      }
      case 'global-window-aggregate':
        return this.lowerGlobalWindow(n, null, name);
      case 'changelog-normalize': {
        const input = this.lower(n.input);
        const keys = n.uniqueKeys;
        const v = this.keyedVertex(n, name);
        v.operators.push(changelogNormalizeFactory(name, { keys, generateUpdateBefore: n.generateUpdateBefore, stateTtlMs: o.stateTtlMs ?? 0 }));
        this.exchange(n, input, v);
        return { id: v.id, parallelism: v.parallelism };
      }
      case 'sink':
        throw new PlanningError('internal: sinks are lowered by the planner entry points');
      default: {
        const never: never = n;
        return never;
      }
    }
  }
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
