import type { ConfigOption } from '../config-option.js';
import { editDistance, MAX_SUGGEST_LENGTH } from '../../util/suggest.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { CheckpointingOptions } from './checkpointing-options.js';
import { ExecutionOptions } from './execution-options.js';
import { MaterializedTableOptions } from './materialized-table-options.js';
import { RestartStrategyOptions } from './restart-strategy-options.js';
import { StateBackendOptions } from './state-backend-options.js';
import { TableOptions } from './table-options.js';

/** Every option a session understands, for `SET` validation, `SET;` listings and REPL completion. */
export const SESSION_OPTIONS: readonly ConfigOption<unknown>[] = [
  ...Object.values(ExecutionOptions),
  ...Object.values(CheckpointingOptions),
  ...Object.values(RestartStrategyOptions),
  ...Object.values(StateBackendOptions),
  ...Object.values(TableOptions),
  ...Object.values(MaterializedTableOptions),
];

const BY_KEY: ReadonlyMap<string, ConfigOption<unknown>> = new Map(
  SESSION_OPTIONS.flatMap((o) => o.allKeys().map((k) => [k, o] as const)),
);

/** The session option read under `key` (its main, fallback or deprecated key), if any. */
export function findSessionOption(key: string): ConfigOption<unknown> | undefined {
  return BY_KEY.get(key);
}

/** Main keys of all session options, sorted, for completion and `SET;`. */
export function sessionOptionKeys(): string[] {
  return SESSION_OPTIONS.map((o) => o.key).sort();
}

/**
 * Check `SET 'key' = 'value'`. A known key's value must parse (ValidationError otherwise, secret values
 * masked). Unknown keys are allowed, as in Flink, since connector and format options are set this way
 * too; `known` tells the caller so it can warn, using `suggestSessionKeys` for a "did you mean".
 */
export function validateSessionOption(key: string, value: string): { readonly known: boolean } {
  const option = findSessionOption(key);
  if (option === undefined) return { known: false };
  option.parseValue(value, key);
  return { known: true };
}

/** Up to `limit` known keys close to a mistyped `key` (edit distance), best first. */
export function suggestSessionKeys(key: string, limit = 3): string[] {
  if (key.length > MAX_SUGGEST_LENGTH) return [];
  const scored = [...BY_KEY.keys()]
    .map((k) => [k, editDistance(key, k, Math.max(2, Math.floor(k.length / 4)))] as const)
    .filter(([k, d]) => d <= Math.max(2, Math.floor(k.length / 4)))
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  return scored.slice(0, limit).map(([k]) => k);
}

/** Throw unless every known key in `entries` has a parseable value; collects all problems in one error. */
export function validateSessionOptions(entries: Readonly<Record<string, string>>): void {
  const problems: string[] = [];
  for (const [k, v] of Object.entries(entries)) {
    try {
      validateSessionOption(k, v);
    } catch (e) {
      if (e instanceof ValidationError) problems.push(e.message);
      else throw e;
    }
  }
  if (problems.length > 0) throw new ValidationError(problems.join('\n'));
}
