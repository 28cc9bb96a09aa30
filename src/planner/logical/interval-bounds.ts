import { isProctimeAttribute, isRowtimeAttribute } from '../../types/logical-type.js';
import type { TimeDomain } from '../../runtime/timer-service.js';
import type { JoinNode, PlanField, PlanNode } from './plan-node.js';
import type { RexNode } from '../rex/rex-node.js';

/**
 * The time bounds of an interval join: `lower <= left[leftTime] - right[rightTime] <= upper` (ms), from
 * conjuncts such as `l.rt BETWEEN r.rt - INTERVAL '10' SECOND AND r.rt` over time attributes of both sides
 * (both rowtime: event time; both proctime: processing time).
 */
export interface IntervalBounds {
  readonly leftTime: number;
  readonly rightTime: number;
  readonly lower: number;
  readonly upper: number;
  readonly timeDomain: TimeDomain;
  /** The times are exclusive window ends (window joins): complete once the time reaches end - 1. */
  readonly exclusiveEnd?: boolean;
}

function domainOf(r: RexNode, fields: readonly PlanField[]): TimeDomain | undefined {
  if (r.kind !== 'input-ref') return undefined;
  const t = fields[r.index]!.type;
  return isRowtimeAttribute(t) ? 'EVENT_TIME' : isProctimeAttribute(t) ? 'PROCESSING_TIME' : undefined;
}

/** A time attribute column plus a constant: `t`, `t + c` or `t - c`. */
function timeTerm(r: RexNode, fields: readonly PlanField[]): { index: number; offset: number; domain: TimeDomain } | undefined {
  if (r.kind === 'input-ref') {
    const domain = domainOf(r, fields);
    return domain === undefined ? undefined : { index: r.index, offset: 0, domain };
  }
  if (r.kind === 'call' && (r.op === '+' || r.op === '-') && r.operands.length === 2) {
    const [a, b] = r.operands as [RexNode, RexNode];
    if (b.kind !== 'literal' || typeof b.value !== 'number') return undefined;
    const t = timeTerm(a, fields);
    return t === undefined ? undefined : { index: t.index, offset: t.offset + (r.op === '+' ? b.value : -b.value), domain: t.domain };
  }
  return undefined;
}

function conjuncts(r: RexNode): RexNode[] {
  return r.kind === 'call' && r.op === 'AND' ? r.operands.flatMap(conjuncts) : [r];
}

/**
 * The bounds of a join's condition over `fields` (left fields, then right fields) when it bounds the
 * difference of one left and one right time attribute (of the same kind) from both sides; else undefined
 * (a regular join).
 */
export function intervalBounds(condition: RexNode | null, fields: readonly PlanField[], leftArity: number): IntervalBounds | undefined {
  if (condition === null) return undefined;
  let leftTime = -1;
  let rightTime = -1;
  let lower = Number.NEGATIVE_INFINITY;
  let upper = Number.POSITIVE_INFINITY;
  let domain: TimeDomain | undefined;
  for (const c of conjuncts(condition)) {
    if (c.kind !== 'call' || c.operands.length !== 2 || !['<', '<=', '>', '>='].includes(c.op)) continue;
    const a = timeTerm(c.operands[0]!, fields);
    const b = timeTerm(c.operands[1]!, fields);
    if (a === undefined || b === undefined) continue;
    const aLeft = a.index < leftArity;
    if (aLeft === b.index < leftArity || a.domain !== b.domain) continue;
    if (domain !== undefined && domain !== a.domain) return undefined;
    domain = a.domain;
    const [l, r] = aLeft ? [a, b] : [b, a];
    if ((leftTime >= 0 && leftTime !== l.index) || (rightTime >= 0 && rightTime !== r.index)) return undefined;
    leftTime = l.index;
    rightTime = r.index;
    // l.t + lo OP r.t + ro  <=>  l.t - r.t OP ro - lo (with OP mirrored when the right side came first).
    const bound = r.offset - l.offset;
    const op = aLeft ? c.op : ({ '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as const)[c.op as '<' | '<=' | '>' | '>='];
    if (op === '<' || op === '<=') upper = Math.min(upper, bound);
    else lower = Math.max(lower, bound);
  }
  if (leftTime < 0 || domain === undefined || !Number.isFinite(lower) || !Number.isFinite(upper)) return undefined;
  return { leftTime, rightTime: rightTime - leftArity, lower, upper, timeDomain: domain };
}

/** Whether field `i` of `n` is the window_end of a window TVF or window aggregate (through plain projections). */
export function isWindowEnd(n: PlanNode, i: number): boolean {
  switch (n.kind) {
    case 'calc': {
      const p = n.projects[i];
      return p !== undefined && p.kind === 'input-ref' && isWindowEnd(n.input, p.index);
    }
    case 'aggregate':
      return n.window !== undefined && n.window.spec.kind !== 'SESSION' && i < n.groupKeys.length && n.groupKeys[i] === n.window.windowEndField;
    case 'window-tvf':
      return n.window.kind !== 'SESSION' && i === n.input.fields.length + 1;
    case 'global-window-aggregate':
      return n.keys[i]?.kind === 'end';
    default:
      return false;
  }
}

/**
 * A window join (Flink's WindowJoin): a join whose equi keys pair the window_end of both inputs. Rows of a
 * window are complete once the watermark reaches its end - 1 (as the window fires), so the join may forget
 * them then, and an outer join pads its unmatched rows: bounds `0 <= l.end - r.end <= 0` over the paired
 * fields, with exclusive ends.
 */
export function windowJoinBounds(left: PlanNode, right: PlanNode, leftKeys: readonly number[], rightKeys: readonly number[]): IntervalBounds | undefined {
  for (let k = 0; k < leftKeys.length; k++) {
    if (isWindowEnd(left, leftKeys[k]!) && isWindowEnd(right, rightKeys[k]!)) return { leftTime: leftKeys[k]!, rightTime: rightKeys[k]!, lower: 0, upper: 0, timeDomain: 'EVENT_TIME', exclusiveEnd: true };
  }
  return undefined;
}

/**
 * The time bounds that make a streaming join an interval join or a window join (its state is cleaned as time
 * passes, outer sides are padded once and the output is insert-only), or undefined for a regular join.
 * Semi / anti and temporal joins are never interval joins.
 */
export function timeBoundedJoinBounds(n: JoinNode): IntervalBounds | undefined {
  if (n.joinType === 'SEMI' || n.joinType === 'ANTI' || n.temporal !== undefined) return undefined;
  return intervalBounds(n.condition, [...n.left.fields, ...n.right.fields], n.left.fields.length) ?? windowJoinBounds(n.left, n.right, n.leftKeys, n.rightKeys);
}
