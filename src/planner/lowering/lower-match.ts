import { builtinAggregate } from '../../table-runtime/aggregates/builtin-aggregates.js';
import type { MatchExpr, MatchRecognizeSpec, MatchRef } from '../../table-runtime/match-recognize/match-spec.js';
import { BUILTIN_AGGREGATES } from '../functions/aggregates/builtin-aggregate-types.js';
import type { FunctionLookup } from '../functions/function-registry.js';
import type { MatchNode, MatchRexExpr, MatchRexRef } from '../logical/match-node.js';
import { compileRex } from '../rex/compile-rex.js';

/** The runtime spec of a MatchNode: its expressions compiled, its aggregates resolved. */
export function matchSpec(n: MatchNode, mode: 'streaming' | 'batch', timeZone: string, functions: FunctionLookup | undefined): MatchRecognizeSpec {
  const opts = { timeZone };
  const ref = (r: MatchRexRef): MatchRef => {
    switch (r.kind) {
      case 'nav':
        return { kind: 'nav', variable: r.variable, from: r.from, offset: r.offset, value: compileRex(r.value, opts) };
      case 'agg': {
        const argTypes = r.args.map((a) => a.type);
        const def = functions?.lookup(r.name);
        const create = () =>
          def?.kind === 'aggregate' && !BUILTIN_AGGREGATES.has(r.name)
            ? def.create(argTypes, { distinct: false, star: r.args.length === 0 })
            : builtinAggregate(r.name, argTypes, r.type, { retracts: false });
        return { kind: 'agg', variable: r.variable, create, args: r.args.map((a) => compileRex(a, opts)) };
      }
      case 'match-rowtime':
        return { kind: 'match-rowtime' };
      case 'match-proctime':
        return { kind: 'match-proctime' };
      default: {
        const never: never = r;
        return never;
      }
    }
  };
  const expr = (e: MatchRexExpr): MatchExpr => {
    const evaluate = compileRex(e.rex, opts);
    return { refs: e.refs.map(ref), evaluate: (values) => evaluate(values as unknown[]) };
  };
  const time = mode === 'batch' || n.time === 'none' ? 'batch' : n.time === 'rowtime' ? 'event' : 'processing';
  return {
    partitionKeys: n.partitionKeys,
    timeIndex: n.orderKeys[0]!.index,
    time,
    // Batch sorts by every ORDER BY key; streaming orders rows of the same time by the keys after the first.
    order: time === 'batch' ? n.orderKeys : n.orderKeys.slice(1),
    pattern: n.pattern,
    skip: n.skip,
    withinMs: n.withinMs,
    defines: new Map(n.defines.map((d) => [d.variable, expr(d.expr)])),
    measures: n.measures.map((m) => expr(m.expr)),
  };
}
