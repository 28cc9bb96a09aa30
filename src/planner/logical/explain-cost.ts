import type { LogicalType } from '../../types/logical-type.js';
import type { RexNode } from '../rex/rex-node.js';
import { javaDouble } from './explain-rex.js';
import type { PlanNode } from './plan-node.js';
import { inputsOf } from './plan-node.js';
import { hasWatermarkAssigner, watermarkAssignerView, type WatermarkAssignerView } from './explain-watermark.js';

/** Calcite's RelOptCost as Flink prints it: `{rows, cpu, io, network, memory}`. */
export interface PlanCost {
  readonly rows: number;
  readonly cpu: number;
  readonly io: number;
  readonly network: number;
  readonly memory: number;
}

/**
 * Sluice has no table statistics, so a scan counts Flink's default of 1.0E8 rows (what Flink assumes for
 * a table without statistics); filters use Calcite's guessed selectivities; other nodes keep their input's
 * count (a global aggregate emits one row, a fetch at most `fetch`). Only for ESTIMATED_COST display.
 */
const UNKNOWN_TABLE_ROWS = 1e8;

/** Flink's average field sizes (FlinkRelMdSize), so io and network read as Flink's would. */
function fieldSize(t: LogicalType): number {
  switch (t.kind) {
    case 'BOOLEAN':
    case 'TINYINT':
      return 1;
    case 'SMALLINT':
      return 2;
    case 'INT':
    case 'FLOAT':
    case 'DATE':
    case 'TIME':
    case 'INTERVAL_YEAR_MONTH':
      return 4;
    case 'BIGINT':
    case 'DOUBLE':
    case 'INTERVAL_DAY_TIME':
      return 8;
    default:
      return 12;
  }
}

function rowSize(n: PlanNode): number {
  return n.fields.reduce((s, f) => s + fieldSize(f.type), 0);
}

/** Calcite's RelMdUtil.guessSelectivity, with Flink's 0.05 for LIKE. */
function selectivity(c: RexNode | null): number {
  if (c === null) return 1;
  if (c.kind !== 'call') return 0.25;
  switch (c.op) {
    case 'AND':
      return c.operands.reduce((s, o) => s * selectivity(o), 1);
    case '=':
      return 0.15;
    case '<':
    case '<=':
    case '>':
    case '>=':
      return 0.5;
    case 'IS NOT NULL':
      return 0.9;
    case 'LIKE':
      return 0.05;
    default:
      return 0.25;
  }
}

/** Row count estimates and cumulative costs of a physical plan, memoized per node. */
export class CostEstimator {
  /** @param exchanged whether the physical plan has an exchange between `parent` and its input `input`. */
  constructor(private readonly exchanged: (parent: PlanNode, input: PlanNode) => boolean) {}

  private readonly rowsOf = new Map<PlanNode, number>();
  private readonly cumulativeOf = new Map<PlanNode, PlanCost>();

  rowCount(n: PlanNode): number {
    const known = this.rowsOf.get(n);
    if (known !== undefined) return known;
    const input = (): number => this.rowCount(inputsOf(n)[0]!);
    let rows: number;
    switch (n.kind) {
      case 'scan':
        rows = UNKNOWN_TABLE_ROWS;
        break;
      case 'values':
        rows = n.rows.length;
        break;
      case 'calc':
        rows = input() * selectivity(n.condition);
        break;
      case 'aggregate':
        rows = n.groupKeys.length === 0 ? 1 : input();
        break;
      case 'local-window-aggregate':
      case 'global-window-aggregate':
        rows = input();
        break;
      case 'union':
        rows = n.inputs.reduce((s, i) => s + this.rowCount(i), 0);
        break;
      case 'join':
        rows = Math.max(this.rowCount(n.left), this.rowCount(n.right));
        break;
      case 'sort':
        rows = n.fetch === null ? input() : Math.min(n.fetch, input());
        break;
      case 'sink':
      case 'window-tvf':
      case 'rank':
      case 'over':
      case 'match':
      case 'unnest':
      case 'lookup-join':
      case 'changelog-normalize':
        rows = input();
        break;
      default: {
        const never: never = n;
        return never;
      }
    }
    this.rowsOf.set(n, rows);
    return rows;
  }

  /** The cost of the node itself: every node touches its output rows once; scans read, keyed nodes keep state. */
  selfCost(n: PlanNode): PlanCost {
    const rows = this.rowCount(n);
    const zero = { rows, cpu: 0, io: 0, network: 0, memory: 0 };
    switch (n.kind) {
      case 'scan':
        return { ...zero, cpu: rows, io: rows * rowSize(n) };
      case 'calc':
        return { ...zero, cpu: rows * n.projects.filter((p) => p.kind !== 'input-ref').length };
      case 'aggregate':
      case 'local-window-aggregate':
      case 'global-window-aggregate':
      case 'join':
      case 'rank':
      case 'over':
      case 'match':
      case 'sort':
      case 'changelog-normalize':
        return { ...zero, cpu: rows, memory: rows * rowSize(n) };
      default:
        return { ...zero, cpu: rows };
    }
  }

  /** The cost of an Exchange in front of `n`'s input `input`: its rows cross the network. */
  exchangeCost(input: PlanNode): PlanCost {
    const rows = this.rowCount(input);
    return { rows, cpu: rows, io: 0, network: rows * rowSize(input), memory: 0 };
  }

  /**
   * Self cost plus the cumulative costs of the inputs (and of the exchanges in front of them, if any). An input that
   * EXPLAIN prints as Flink's Calc -> WatermarkAssigner -> Calc -> TableSourceScan (explain-watermark.ts) counts
   * that chain, as Flink's plan does; `underOver`: `n` is read by an OVER window or a rank, which sees the chain
   * another way (watermarkAssignerView).
   */
  cumulative(n: PlanNode, underOver = false): PlanCost {
    const view = n.kind === 'calc' && hasWatermarkAssigner(n.input) ? watermarkAssignerView(n, underOver) : undefined;
    if (view !== undefined) return this.watermarkChain(view).top;
    const known = this.cumulativeOf.get(n);
    if (known !== undefined) return known;
    let total = this.selfCost(n);
    const inputsUnderOver = n.kind === 'rank' || n.kind === 'over';
    for (const i of inputsOf(n)) {
      const bareScan = hasWatermarkAssigner(i) ? watermarkAssignerView(i, inputsUnderOver) : undefined;
      total = add(total, bareScan !== undefined ? this.watermarkChain(bareScan).top : this.cumulative(i, inputsUnderOver));
      if (this.exchanged(n, i)) total = add(total, this.exchangeCost(i));
    }
    this.cumulativeOf.set(n, total);
    return total;
  }

  /**
   * The cumulative costs of the lines EXPLAIN prints for a scan without watermark push-down: the Calc below the
   * assigner, the assigner, and the Calc above it (`top`: what the consumer reads). Flink's WatermarkAssigner costs
   * its rows once as rows and once as cpu (Calcite's default self cost), which Flink 2.3.0's ESTIMATED_COST shows
   * ({2.0E8 rows, 1.0E8 cpu} below it, {3.0E8 rows, 2.0E8 cpu} at it).
   */
  watermarkChain(view: WatermarkAssignerView): { readonly lower: PlanCost; readonly assigner: PlanCost; readonly top: PlanCost } {
    const scan = this.selfCost(view.scan);
    const lower = view.lower === null ? scan : add(this.selfCost(view.lower), scan);
    const rows = this.rowCount(view.lower ?? view.scan);
    const assigner = add(lower, { rows, cpu: rows, io: 0, network: 0, memory: 0 });
    return { lower, assigner, top: view.upper === null ? assigner : add(this.selfCost(view.upper), assigner) };
  }
}

export function add(a: PlanCost, b: PlanCost): PlanCost {
  return { rows: a.rows + b.rows, cpu: a.cpu + b.cpu, io: a.io + b.io, network: a.network + b.network, memory: a.memory + b.memory };
}

/** `: rowcount = 5.0E7, cumulative cost = {1.5E8 rows, 1.0E8 cpu, 2.4E9 io, 0.0 network, 0.0 memory}`. */
export function costSuffix(rowCount: number, c: PlanCost): string {
  const d = javaDouble;
  return `: rowcount = ${d(rowCount)}, cumulative cost = {${d(c.rows)} rows, ${d(c.cpu)} cpu, ${d(c.io)} io, ${d(c.network)} network, ${d(c.memory)} memory}`;
}
