import type { CatalogTable } from '../../catalog/catalog-table.js';
import type { ObjectIdentifier } from '../../catalog/object-identifier.js';
import type { DynamicTableSink } from '../../factories/dynamic-table-sink.js';
import type { LookupTableSource, ScanTableSource } from '../../factories/dynamic-table-source.js';
import type { LogicalType } from '../../types/logical-type.js';
import type { RexNode } from '../rex/rex-node.js';
import type { MatchNode } from './match-node.js';

/** One output column of a plan node. */
export interface PlanField {
  readonly name: string;
  readonly type: LogicalType;
}

/**
 * How a scan assigns event time: `rowtime` (over the scan's output) with a bounded out-of-orderness, or a
 * watermark expression evaluated per row (the watermark is the maximum seen so far).
 */
export type WatermarkAssignment =
  | ({ readonly kind: 'bounded'; readonly rowtime: RexNode; readonly delayMs: number; readonly text: string } & DeclaredWatermark)
  | ({ readonly kind: 'expression'; readonly rowtime: RexNode; readonly expr: RexNode; readonly text: string } & DeclaredWatermark);

/**
 * The watermark as the DDL declares it, for EXPLAIN: `declared` over the table's columns in schema order
 * (computed columns referenced, not inlined), `rowtimeIndex` the rowtime column's position among them.
 * Never rewritten by the optimizer (it describes the table, not the scan's output).
 */
export interface DeclaredWatermark {
  readonly declared?: RexNode;
  readonly rowtimeIndex?: number;
}

/**
 * A catalog table read through its ScanTableSource. `physicalIndexes` are the physical columns the
 * scan produces (after projection push-down, null = all), `metadataKeys` the metadata appended after.
 */
export interface ScanNode {
  readonly kind: 'scan';
  readonly identifier: ObjectIdentifier;
  readonly table: CatalogTable;
  readonly source: ScanTableSource;
  readonly physicalIndexes: readonly number[] | null;
  readonly metadataKeys: readonly string[];
  readonly watermark: WatermarkAssignment | null;
  readonly fields: readonly PlanField[];
  /**
   * Set once filter push-down offered filters to the source: those it accepted, over the table's
   * physical row (`$i` = physical column i), for the digest. Undefined = not offered.
   */
  readonly acceptedFilters?: readonly RexNode[];
  /** Set by partition push-down: the partitions left after pruning (null value = default partition). */
  readonly partitions?: readonly ReadonlyMap<string, string | null>[];
  /** Set by limit push-down: the row count the source was told it may stop after. */
  readonly limit?: number;
  /**
   * The table's columns in schema order as bound over this scan's fields (a ref for a stored column, the
   * expression of a computed one), for EXPLAIN, which prints them where Flink evaluates them. Refs carry
   * their column names, so they still resolve after projection push-down.
   */
  readonly columnExprs?: readonly RexNode[];
}

/** Literal rows (VALUES / fromValues), already in the runtime representation. */
export interface ValuesNode {
  readonly kind: 'values';
  readonly rows: readonly (readonly unknown[])[];
  readonly fields: readonly PlanField[];
}

/** Projection plus optional filter (Flink's Calc): the condition is applied first, on the input. */
export interface CalcNode {
  readonly kind: 'calc';
  readonly input: PlanNode;
  readonly projects: readonly RexNode[];
  readonly condition: RexNode | null;
  readonly fields: readonly PlanField[];
}

/** An aggregate call over input fields; `filterArg` is the index of a BOOLEAN input field or -1. */
export interface AggCall {
  readonly name: string;
  readonly args: readonly number[];
  readonly distinct: boolean;
  readonly filterArg: number;
  readonly type: LogicalType;
  /** Output alias for EXPLAIN (`cnt` in `COUNT(*) AS cnt`). */
  readonly alias: string;
}

/** GROUP BY: output is the group keys followed by the aggregate results. */
export interface AggregateNode {
  readonly kind: 'aggregate';
  readonly input: PlanNode;
  readonly groupKeys: readonly number[];
  readonly aggCalls: readonly AggCall[];
  readonly fields: readonly PlanField[];
  /**
   * Set by the window rule when the keys include window_start and window_end of a window TVF: the
   * aggregate then emits final rows once the watermark passes window_end (a WindowAggregate).
   */
  readonly window?: WindowAggregateInfo;
  /**
   * False when every consumer takes the streaming GROUP BY's updates by key (Flink's ONLY_UPDATE_AFTER, set by
   * rules/changelog-normalize.ts): it then emits +U without the -U before it. Absent: it emits both.
   */
  readonly generateUpdateBefore?: false;
}

/** What makes an aggregate a window aggregate. */
export interface WindowAggregateInfo {
  /** Input field indexes of window_start and window_end. */
  readonly windowStartField: number;
  readonly windowEndField: number;
  readonly spec: WindowSpec;
  /** The window TVF's time column; null when the window comes as window_start / window_end columns of a window aggregate or window Top-N below. */
  readonly timeField: string | null;
}

/** The window of a TUMBLE / HOP / CUMULATE table function, sizes in milliseconds. */
export type WindowSpec =
  | { readonly kind: 'TUMBLE'; readonly size: number; readonly offset: number }
  | { readonly kind: 'HOP'; readonly slide: number; readonly size: number; readonly offset: number }
  | { readonly kind: 'CUMULATE'; readonly step: number; readonly size: number; readonly offset: number }
  | { readonly kind: 'SESSION'; readonly gap: number; readonly offset: number };

/** The windows whose aggregates are cut into slices (every kind but SESSION). */
export type SlicedWindowSpec = Exclude<WindowSpec, { kind: 'SESSION' }>;

/**
 * Flink's LocalWindowAggregate, the first phase of a two-phase window aggregate (rules/two-phase-window.ts):
 * before the exchange, each subtask pre-aggregates its rows per group key and slice and emits the partial
 * accumulators when the watermark reaches a slice's end (or at a checkpoint barrier, so it keeps no state).
 * Output: the group keys, one accumulator field per call (`accNames`), then `$slice_end`.
 */
export interface LocalWindowAggregateNode {
  readonly kind: 'local-window-aggregate';
  /** The window TVF's input rows (through a projection of the columns used). */
  readonly input: PlanNode;
  /** The non-window group keys, as input fields. */
  readonly groupKeys: readonly number[];
  /** The calls over input fields. */
  readonly aggCalls: readonly AggCall[];
  readonly timeIndex: number;
  readonly window: SlicedWindowSpec;
  /** Per call, how EXPLAIN names its accumulator (`count1$0`, `(sum$1, count$2)`), Flink's naming. */
  readonly accNames: readonly string[];
  readonly fields: readonly PlanField[];
}

/** Where a group key of a window aggregate's output comes from: a field of the input, or the window's start / end. */
export type WindowKeySource = { readonly kind: 'field'; readonly index: number } | { readonly kind: 'start' } | { readonly kind: 'end' };

/**
 * Flink's GlobalWindowAggregate, the second phase: after the exchange by the group keys, merges the partial
 * accumulators of each slice and fires windows as a one-phase window aggregate does. Its fields are those of
 * the aggregate it replaces (group keys with window_start / window_end in their places, then the results).
 */
export interface GlobalWindowAggregateNode {
  readonly kind: 'global-window-aggregate';
  /** The local phase. */
  readonly input: PlanNode;
  /** Per output group key: a key field of the local phase's output, or the window start / end. */
  readonly keys: readonly WindowKeySource[];
  /** The original calls (name, alias, result type); their arguments are the local phase's accumulators. */
  readonly aggCalls: readonly AggCall[];
  readonly window: SlicedWindowSpec;
  readonly fields: readonly PlanField[];
}

/**
 * `TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), size))` & co.: the input's fields plus window_start, window_end
 * and window_time; HOP and CUMULATE emit a row once per window it falls in.
 */
export interface WindowTvfNode {
  readonly kind: 'window-tvf';
  readonly input: PlanNode;
  readonly timeIndex: number;
  readonly window: WindowSpec;
  readonly fields: readonly PlanField[];
}

/** UNION ALL of inputs with the same field types. */
export interface UnionNode {
  readonly kind: 'union';
  readonly inputs: readonly PlanNode[];
  readonly fields: readonly PlanField[];
}

export interface SortKey {
  readonly index: number;
  readonly descending: boolean;
  readonly nullsFirst: boolean;
}

/** ORDER BY with optional OFFSET / FETCH (LIMIT); `keys` empty for a bare LIMIT. */
export interface SortNode {
  readonly kind: 'sort';
  readonly input: PlanNode;
  readonly keys: readonly SortKey[];
  readonly offset: number;
  readonly fetch: number | null;
  readonly fields: readonly PlanField[];
}

/** INSERT INTO a catalog table; fields are the sink's consumed columns. */
export interface SinkNode {
  readonly kind: 'sink';
  readonly input: PlanNode;
  readonly identifier: ObjectIdentifier;
  readonly sink: DynamicTableSink;
  readonly table: CatalogTable;
  readonly overwrite: boolean;
  readonly staticPartition: ReadonlyMap<string, string>;
  readonly fields: readonly PlanField[];
}

/**
 * A regular join. `leftKeys`/`rightKeys` are the equi-join fields (pairwise), `condition` the rest of the
 * ON clause over the joined row (left fields, then right fields).
 */
export interface JoinNode {
  readonly kind: 'join';
  /** SEMI / ANTI (IN / NOT IN subqueries) output the left fields only. */
  readonly joinType: 'INNER' | 'LEFT' | 'RIGHT' | 'FULL' | 'SEMI' | 'ANTI';
  readonly left: PlanNode;
  readonly right: PlanNode;
  readonly leftKeys: readonly number[];
  readonly rightKeys: readonly number[];
  readonly condition: RexNode | null;
  readonly fields: readonly PlanField[];
  /**
   * SEMI / ANTI only, how NULL keys compare (default `sql`: never equal): `null-equal` for INTERSECT /
   * EXCEPT, `not-in` for the null-aware anti join of `x NOT IN (subquery)` over nullable keys.
   */
  readonly semiNulls?: 'sql' | 'null-equal' | 'not-in';
  /**
   * INTERSECT ALL (SEMI) / EXCEPT ALL (ANTI) over all columns: rows keep their multiplicity,
   * min(left, right) and max(left - right, 0) copies.
   */
  readonly setOpAll?: boolean;
  /**
   * Event-time temporal join (`FOR SYSTEM_TIME AS OF left.rowtime`, INNER / LEFT): the left field giving the
   * time and the versioned (right) table's rowtime field, as indexes into each input.
   */
  readonly temporal?: { readonly leftTime: number; readonly rightTime: number };
}

/**
 * ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...): Top-N when `limit` is set (from `WHERE rn <= N`),
 * deduplication when N = 1 and the order is on a time attribute. `outputRankNumber` false when the query
 * does not select the rank column (then it is not among `fields`).
 */
export interface RankNode {
  readonly kind: 'rank';
  readonly input: PlanNode;
  readonly partitionKeys: readonly number[];
  readonly orderKeys: readonly SortKey[];
  readonly limit: number | null;
  readonly outputRankNumber: boolean;
  readonly fields: readonly PlanField[];
  /** Default ROW_NUMBER; RANK and DENSE_RANK give peers (equal order keys) the same number. */
  readonly rankType?: RankType;
  /**
   * Set when the rank is a streaming `ORDER BY ... LIMIT fetch OFFSET offset` (Flink's SortLimit): rows
   * numbered `offset + 1` to `limit` (= offset + fetch) are emitted, with no rank column.
   */
  readonly sortLimit?: { readonly offset: number; readonly fetch: number };
  /**
   * Set when the planner narrowed the rank's input to the columns it needs (prune-rank-input.ts): the width
   * of the unpruned input, and which of its columns are kept. The rank keeps input rows in state, so rows
   * restored from a checkpoint of the unpruned plan are narrowed by it.
   */
  readonly prunedFrom?: { readonly width: number; readonly kept: readonly number[] };
  /**
   * Set (streaming only) when the partition keys hold window_start and window_end of the TUMBLE / HOP / CUMULATE
   * window its input carries (a window TVF's or a window aggregate's rows): a window Top-N or window
   * deduplication, which emits each window's rows once, when the watermark passes the window's end (Flink's
   * WindowRank / WindowDeduplicate). Indexes are input fields.
   */
  readonly window?: WindowFields;
}

/** Where a node's rows carry their window: the fields of window_start and window_end, and the window. */
export interface WindowFields {
  readonly startField: number;
  readonly endField: number;
  readonly spec: SlicedWindowSpec;
  /** A window on processing time (a TVF over a PROCTIME() column), which a window Top-N refuses as Flink does. */
  readonly proctime?: true;
}

export type RankType = 'ROW_NUMBER' | 'RANK' | 'DENSE_RANK';

/** One aggregate of an OVER window: its call and its frame (ending at the current row). */
export interface OverCall {
  readonly call: AggCall;
  readonly frame: { readonly unit: 'ROWS' | 'RANGE'; readonly preceding: number | null };
}

/** `agg(x) OVER (PARTITION BY ... ORDER BY t [frame])`: the input fields followed by one field per call. */
export interface OverNode {
  readonly kind: 'over';
  readonly input: PlanNode;
  readonly partitionKeys: readonly number[];
  readonly orderKey: SortKey;
  readonly calls: readonly OverCall[];
  readonly fields: readonly PlanField[];
}

/** `[LEFT] JOIN UNNEST(expr) [WITH ORDINALITY]`: the input fields followed by the element columns. */
export interface UnnestNode {
  readonly kind: 'unnest';
  readonly input: PlanNode;
  readonly collection: RexNode;
  readonly withOrdinality: boolean;
  readonly keepEmpty: boolean;
  readonly fields: readonly PlanField[];
}

/** `JOIN dim FOR SYSTEM_TIME AS OF t.proctime ON ...` against a LookupTableSource. */
export interface LookupJoinNode {
  readonly kind: 'lookup-join';
  readonly input: PlanNode;
  readonly identifier: ObjectIdentifier;
  readonly source: LookupTableSource;
  readonly joinType: 'INNER' | 'LEFT';
  /** Left fields compared with the dimension's `rightKeys` (physical column indexes). */
  readonly leftKeys: readonly number[];
  readonly rightKeys: readonly number[];
  readonly rightFields: readonly PlanField[];
  readonly condition: RexNode | null;
  readonly fields: readonly PlanField[];
}

/**
 * Flink's ChangelogNormalize: after an upsert source (updates without -U, deletes maybe only by key) or a
 * CDC source with duplicate events, turns the stream into a regular changelog by keeping the last row per
 * `uniqueKeys` in keyed state: +I for a new key, -U old / +U new for an update, -D with the full last row.
 * Placed by rules/changelog-normalize.ts (streaming only), never by the binder.
 */
export interface ChangelogNormalizeNode {
  readonly kind: 'changelog-normalize';
  readonly input: PlanNode;
  /** The primary key's positions among the input's fields. */
  readonly uniqueKeys: readonly number[];
  /** False when every consumer takes updates by key (Flink's ONLY_UPDATE_AFTER): then no -U is emitted. */
  readonly generateUpdateBefore: boolean;
  readonly fields: readonly PlanField[];
}

export type PlanNode =
  | LocalWindowAggregateNode
  | GlobalWindowAggregateNode
  | ChangelogNormalizeNode
  | LookupJoinNode
  | UnnestNode
  | ScanNode
  | ValuesNode
  | CalcNode
  | AggregateNode
  | UnionNode
  | SortNode
  | SinkNode
  | JoinNode
  | WindowTvfNode
  | RankNode
  | OverNode
  | MatchNode;

export type PlanNodeKind = PlanNode['kind'];

/** The direct inputs of a node. */
export function inputsOf(node: PlanNode): readonly PlanNode[] {
  switch (node.kind) {
    case 'scan':
    case 'values':
      return [];
    case 'calc':
    case 'aggregate':
    case 'sort':
    case 'sink':
    case 'window-tvf':
    case 'rank':
    case 'over':
    case 'match':
    case 'unnest':
    case 'lookup-join':
    case 'changelog-normalize':
    case 'local-window-aggregate':
    case 'global-window-aggregate':
      return [node.input];
    case 'union':
      return node.inputs;
    case 'join':
      return [node.left, node.right];
    default: {
      const never: never = node;
      return never;
    }
  }
}

/** The same node over new inputs (same count as inputsOf). */
export function withInputs(node: PlanNode, inputs: readonly PlanNode[]): PlanNode {
  switch (node.kind) {
    case 'scan':
    case 'values':
      return node;
    case 'calc':
    case 'aggregate':
    case 'sort':
    case 'sink':
    case 'window-tvf':
    case 'rank':
    case 'over':
    case 'match':
    case 'unnest':
    case 'lookup-join':
    case 'changelog-normalize':
    case 'local-window-aggregate':
    case 'global-window-aggregate':
      return { ...node, input: inputs[0]! };
    case 'union':
      return { ...node, inputs };
    case 'join':
      return { ...node, left: inputs[0]!, right: inputs[1]! };
    default: {
      const never: never = node;
      return never;
    }
  }
}
