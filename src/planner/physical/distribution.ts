/**
 * How a node's rows are spread over its subtasks (Flink's FlinkRelDistribution). `any`: no promise (a source, or
 * any operator but an exchange, see physical-planner.ts). `single`: one subtask holds every row. `hash`: rows with
 * equal `keys` (field indexes of the node's row) are in one subtask.
 */
export type Distribution = { readonly kind: 'any' } | RequiredDistribution;

/** What a node may require of an input; requiring `any` is requiring nothing, so it is not a requirement. */
export type RequiredDistribution = { readonly kind: 'single' } | { readonly kind: 'hash'; readonly keys: readonly number[] };

export const ANY: Distribution = { kind: 'any' };
export const SINGLE: RequiredDistribution = { kind: 'single' };

/** Hash by `keys`; by no key at all every row must meet, which is one subtask. */
export function hashOrSingle(keys: readonly number[]): RequiredDistribution {
  return keys.length === 0 ? SINGLE : { kind: 'hash', keys };
}

/**
 * Whether rows spread as `provided` already are where `required` needs them (Flink's FlinkRelDistribution.satisfies
 * with a strict hash requirement, as its streaming rules ask): one subtask satisfies one subtask; a hash satisfies a
 * hash on the same keys in the same order (a hash on fewer keys would co-locate them too, but Flink's strict
 * requirement does not accept it, and hashing the same keys in another order places rows elsewhere).
 */
export function satisfies(provided: Distribution, required: RequiredDistribution): boolean {
  switch (required.kind) {
    case 'single':
      return provided.kind === 'single';
    case 'hash':
      return provided.kind === 'hash' && provided.keys.length === required.keys.length && provided.keys.every((k, i) => k === required.keys[i]);
    default: {
      const never: never = required;
      return never;
    }
  }
}

/** EXPLAIN's text of an exchange to `d` over a row with these field names: `hash[a, b]` or `single`. */
export function distributionText(d: RequiredDistribution, names: readonly string[]): string {
  return d.kind === 'single' ? 'single' : `hash[${d.keys.map((k) => names[k]).join(', ')}]`;
}
