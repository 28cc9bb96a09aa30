import { deterministic } from '../rules/conjuncts.js';
import { collectInputRefs } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import type { CalcNode, WindowTvfNode } from './plan-node.js';

/**
 * The WHERE of a calc between a window TVF and a window aggregate, when it may be evaluated on the TVF's input
 * rows instead (before windows are assigned, as Flink moves it when it fuses the TVF into the aggregate): it is
 * deterministic and reads no window column, so one evaluation per input row decides for every window the row
 * falls into. Null when there is no condition; undefined when it cannot move (the aggregate then reads the TVF's
 * rows with their window columns). Refs below the TVF's window columns index its input's fields alike.
 */
export function conditionBelowWindowTvf(calc: CalcNode | null, tvf: WindowTvfNode): RexNode | null | undefined {
  if (calc === null || calc.condition === null) return null;
  const base = tvf.input.fields.length;
  const c = calc.condition;
  return deterministic(c) && [...collectInputRefs(c)].every((i) => i < base) ? c : undefined;
}
