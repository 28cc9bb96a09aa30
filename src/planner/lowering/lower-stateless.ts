// Lowering of the nodes chained onto their input (no state, no exchange), and UNION ALL.
import { calcOperatorFactory } from '../../table-runtime/calc-operator.js';
import { lookupJoinFactory } from '../../table-runtime/lookup-join-operator.js';
import { unnestOperatorFactory } from '../../table-runtime/unnest-operator.js';
import { unionOperatorFactory } from '../../table-runtime/union-operator.js';
import { windowAssignerFactory } from '../../table-runtime/window-assigner-operator.js';
import { compileRex, compileRexCalc } from '../rex/compile-rex.js';
import { physicalNodeText } from '../logical/explain-plan.js';
import type { CalcNode, LookupJoinNode, UnionNode, UnnestNode, WindowTvfNode } from '../logical/plan-node.js';
import { lowerAggregate, lowerGlobalWindow } from './lower-aggregate.js';
import type { Lowering, Stream } from './lowering-context.js';

/** A projection and filter, chained onto its input (or done by the window aggregate below it as it emits). */
export function lowerCalc(b: Lowering, n: CalcNode, name: string): Stream {
  const o = b.options;
  const agg = n.input;
  if (n.condition === null && agg.kind === 'aggregate' && agg.window !== undefined && agg.window.spec.kind !== 'SESSION' && !b.isLowered(agg)) {
    // A projection of a window aggregate's columns is done by the aggregate as it emits.
    const refs = n.projects.map((p) => (p.kind === 'input-ref' ? p.index : -1));
    if (refs.every((r) => r >= 0)) return lowerAggregate(b, agg, refs, physicalNodeText(agg, o.mode));
  }
  if (n.condition === null && agg.kind === 'global-window-aggregate' && !b.isLowered(agg)) {
    const refs = n.projects.map((p) => (p.kind === 'input-ref' ? p.index : -1));
    if (refs.every((r) => r >= 0)) return lowerGlobalWindow(b, agg, refs, physicalNodeText(agg, o.mode));
  }
  const input = b.chainTarget(b.lower(n.input), name);
  const draft = b.draft(input.id);
  const picked = n.condition === null && n.projects.every((p) => p.kind === 'input-ref') ? n.projects.map((p) => (p.kind === 'input-ref' ? p.index : -1)) : undefined;
  draft.operators.push(calcOperatorFactory(name, compileRexCalc(n.projects, n.condition, { timeZone: o.timeZone }), picked));
  return input;
}

/** UNION ALL: one vertex reading every input forward. */
export function lowerUnion(b: Lowering, n: UnionNode, name: string): Stream {
  const o = b.options;
  const v = b.vertex('operator', name, o.parallelism);
  v.operators.push(unionOperatorFactory(name));
  n.inputs.forEach((i, idx) => b.connect(b.lower(i), v, { kind: 'forward' }, idx));
  return { id: v.id, parallelism: v.parallelism };
}

/** A lookup join, chained onto its input: each row asks the lookup source. */
export function lowerLookupJoin(b: Lowering, n: LookupJoinNode, name: string): Stream {
  const o = b.options;
  const input = b.chainTarget(b.lower(n.input), name);
  const source = n.source;
  const rightKeys = n.rightKeys;
  b.draft(input.id).operators.push(
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

/** UNNEST / CROSS JOIN UNNEST, chained onto its input. */
export function lowerUnnest(b: Lowering, n: UnnestNode, name: string): Stream {
  const o = b.options;
  const input = b.chainTarget(b.lower(n.input), name);
  const t = n.collection.type;
  const kind = t.kind === 'MAP' ? 'MAP' : t.kind === 'MULTISET' ? 'MULTISET' : 'ARRAY';
  const expandRow = t.kind === 'ARRAY' && t.element.kind === 'ROW';
  const width = n.fields.length - n.input.fields.length - (n.withOrdinality ? 1 : 0);
  b.draft(input.id).operators.push(
    unnestOperatorFactory(name, { collection: compileRex(n.collection, { timeZone: o.timeZone }), kind, expandRow, width, withOrdinality: n.withOrdinality, keepEmpty: n.keepEmpty }),
  );
  return input;
}

/** A window TVF, chained onto its input: it assigns each row its windows. */
export function lowerWindowTvf(b: Lowering, n: WindowTvfNode, name: string): Stream {
  const input = b.chainTarget(b.lower(n.input), name);
  b.draft(input.id).operators.push(windowAssignerFactory(name, n.timeIndex, n.window));
  return input;
}
