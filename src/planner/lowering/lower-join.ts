// Lowering of joins.
import { PlanningError } from '../../errors/sluice-error.js';
import { hashFields } from '../../types/values/equality.js';
import { semiJoinFactory } from '../../table-runtime/semi-join-operator.js';
import { setOpAllFactory } from '../../table-runtime/set-op-all-operator.js';
import { temporalJoinFactory } from '../../table-runtime/temporal-join-operator.js';
import { joinOperatorFactory } from '../../table-runtime/join-operator.js';
import { joinKeyAt } from '../../table-runtime/join-flat-rows.js';
import type { StateKey } from '../../runtime/state/state.js';
import type { JoinSpec } from '../../table-runtime/join-operator.js';
import { intervalJoinFactory } from '../../table-runtime/interval-join-operator.js';
import { compileRex } from '../rex/compile-rex.js';
import type { JoinNode } from '../logical/plan-node.js';
import { timeBoundedJoinBounds } from '../logical/interval-bounds.js';

/** `hashFields` in `joinKeyAt`'s shape: the state key of the keyed operators that key by a hash of fields. */
const hashFieldsAt = (fields: readonly unknown[], _offset: number, keys: readonly number[]): StateKey => hashFields(fields, keys);
import type { Lowering, Stream } from './lowering-context.js';

/** A regular, interval, window, temporal, semi or anti join (or INTERSECT / EXCEPT ALL), keyed by its equi keys. */
export function lowerJoin(b: Lowering, n: JoinNode, name: string): Stream {
  const o = b.options;
  const left = b.lower(n.left);
  const right = b.lower(n.right);
  const v = b.keyedVertex(n, name);
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
      leftBigints: n.left.fields.map((f) => f.type.kind === 'BIGINT'),
      rightBigints: n.right.fields.map((f) => f.type.kind === 'BIGINT'),
    };
    // A join bounding both sides' time attributes against each other is an interval join: its state
    // is cleaned as time passes, and outer sides are padded then (a regular join keeps rows forever).
    // Likewise a window join (window_end = window_end): a window's rows are complete once the watermark passes it.
    const bounds = o.mode === 'streaming' ? timeBoundedJoinBounds(n) : undefined;
    v.operators.push(bounds === undefined ? joinOperatorFactory(name, spec) : intervalJoinFactory(name, spec, bounds));
    if (bounds === undefined) stateKey = joinKeyAt;
  }
  // Each side's exchange (the physical plan's) computes the state key the join operator sets, so rows meet their
  // state in the subtask owning its key group at any parallelism. A single exchange (no equi keys, or NOT IN) feeds
  // one subtask, which any hash reaches: it hashes the join keys as well, one kind of edge for every join.
  const key = stateKey;
  const connectSide = (from: Stream, side: 0 | 1, joinKeys: readonly number[]): void => {
    const d = b.physical.exchangeInto(n, side)?.distribution;
    if (d === undefined) throw new PlanningError('internal: both inputs of a join are exchanged');
    const keys = d.kind === 'hash' ? d.keys : joinKeys;
    b.connect(from, v, { kind: 'hash', key: (r) => key(r.fields, 0, keys) }, side);
  };
  connectSide(left, 0, n.leftKeys);
  connectSide(right, 1, n.rightKeys);
  return { id: v.id, parallelism: v.parallelism };
}
