import type { Partitioner } from '../../runtime/partitioner.js';
import type { AnySink } from '../../runtime/sink/sink.js';
import type { AnySource } from '../../runtime/source/source.js';
import type { WatermarkStrategy } from '../../runtime/source/watermark-strategy.js';
import type { OperatorFactory } from '../../runtime/stream-operator.js';
import type { Row } from '../../types/row.js';
import type { FunctionLookup } from '../functions/function-registry.js';
import type { PlanNode, ScanNode } from '../logical/plan-node.js';
import type { PhysicalPlanner } from '../physical/physical-planner.js';

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

/** A vertex under construction; operators may still be chained onto its end. */
export interface Stream {
  readonly id: string;
  readonly parallelism: number;
  /** True for a node with several readers (sub-plan reuse): readers start their own vertex instead of chaining. */
  readonly shared?: boolean;
}

export interface VertexDraft {
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
 * What the lowering of one node kind (lower-*.ts) uses of the job graph under construction (JobGraphBuilder):
 * it lowers its inputs, adds its vertex or chains its operator, and connects its inputs through the exchanges the
 * physical plan put in front of them (physical/physical-planner.ts).
 */
export interface Lowering {
  readonly options: LoweringOptions;
  /** The physical plan being lowered: each node's exchanges and changelog mode, for choosing operator implementations. */
  readonly physical: PhysicalPlanner;
  /** Lowers `n` (once; a node shared by several readers is lowered once), returning the stream its rows leave from. */
  lower(n: PlanNode): Stream;
  isLowered(n: PlanNode): boolean;
  /** Whether the values of scan `n` die with their batch (ScanContext.transientValues). */
  hasTransientValues(n: ScanNode): boolean;
  vertex(kind: VertexDraft['kind'], name: string, parallelism: number): VertexDraft;
  /** A vertex for keyed node `n`: one subtask when the physical plan puts a single exchange in front of it. */
  keyedVertex(n: PlanNode, name: string): VertexDraft;
  /** The parallelism `keyedVertex` gives the vertex of `n`. */
  keyedParallelism(n: PlanNode): number;
  draft(id: string): VertexDraft;
  connect(from: Stream, to: VertexDraft, partitioner: Partitioner, inputIndex?: number): void;
  /** Connects `from` to input `inputIndex` of `to`, the vertex of `n`, through the physical plan's exchange there, if any. */
  exchange(n: PlanNode, from: Stream, to: VertexDraft, inputIndex?: number): void;
  /** A stream the next stateless operator may be chained onto: a fresh vertex behind a shared source. */
  chainTarget(input: Stream, name: string): Stream;
}
