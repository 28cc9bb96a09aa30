import { isRowtimeAttribute } from '../../types/logical-type.js';
import { inputsOf, type PlanNode, withInputs } from '../logical/plan-node.js';

/**
 * A streaming `ORDER BY` that does not start with an ascending time attribute, with a LIMIT, becomes a
 * Top-N over the whole input, as Flink plans it (its StreamExecSortLimit is a rank without partition keys):
 * an updating result that holds rows `offset + 1` to `offset + fetch` of the input so far. Any other streaming
 * sort is left for the time-sort check.
 */
export function streamingSortLimitAsTopN(n: PlanNode): PlanNode {
  const inputs = inputsOf(n);
  const rewritten = inputs.map(streamingSortLimitAsTopN);
  const node = rewritten.some((r, i) => r !== inputs[i]) ? withInputs(n, rewritten) : n;
  if (node.kind !== 'sort' || node.keys.length === 0 || node.fetch === null) return node;
  const first = node.keys[0]!;
  if (isRowtimeAttribute(node.input.fields[first.index]!.type) && !first.descending) return node;
  const input = node.input;
  return {
    kind: 'rank',
    input,
    partitionKeys: [],
    orderKeys: node.keys,
    limit: node.offset + node.fetch,
    outputRankNumber: false,
    fields: input.fields,
    sortLimit: { offset: node.offset, fetch: node.fetch },
  };
}
