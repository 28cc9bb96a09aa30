import type { RegisteredJob } from '../api/job-registry.js';
import { Configuration } from '../config/configuration.js';
import { ExecutionOptions } from '../config/options/execution-options.js';
import { resolveRestartStrategy } from '../config/options/restart-strategy-options.js';
import { maskSecrets, maskSqlSecrets } from '../config/secrets.js';
import type { RestartStrategyConfig } from '../config/options/restart-strategy-options.js';
import { planView } from './job-views.js';

/**
 * What a job was started from: its configuration, plan and SQL, as JSON bodies. Nothing here shows a
 * secret option's value (the masking of `SET;` and SHOW CREATE TABLE).
 */

/** The job's configuration read back; deprecation warnings were given when the job was submitted. */
function configOf(j: RegisteredJob): Configuration {
  return new Configuration(j.info?.config ?? {}, { logger: { warn: () => undefined } });
}

/** A config read that must not fail a monitoring request: the job was already submitted with these values. */
function read<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}

/** The restart strategy as a sentence, as Flink's `RestartStrategy.getDescription` words it. */
export function describeRestartStrategy(r: RestartStrategyConfig): string {
  switch (r.kind) {
    case 'none':
      return 'Restart deactivated.';
    case 'fixed-delay':
      return `Restart with fixed delay (${r.delayMs} ms). #${r.attempts} restart attempts.`;
    case 'exponential-delay':
      return `Restart with exponential delay: initial backoff ${r.initialBackoffMs} ms, max backoff ${r.maxBackoffMs} ms, multiplier ${r.backoffMultiplier}, at most ${r.attemptsBeforeResetBackoff} attempts.`;
    case 'failure-rate':
      return `Failure rate restart with maximum of ${r.maxFailuresPerInterval} failures within interval ${r.failureRateIntervalMs} ms and fixed delay ${r.delayMs} ms.`;
    default: {
      const never: never = r;
      return String(never);
    }
  }
}

/**
 * `GET /jobs/<id>/config`, shaped as Flink's `JobConfigInfo`. `user-config` holds the session
 * configuration the job was submitted with (Flink: the job's global parameters), secrets masked.
 */
export function jobConfig(j: RegisteredJob): object {
  const conf = configOf(j);
  return {
    jid: j.client.jobId,
    name: j.client.jobName,
    'execution-config': {
      // Sluice's exchanges are pipelined in both runtime modes.
      'execution-mode': 'PIPELINED',
      'restart-strategy': read(() => describeRestartStrategy(resolveRestartStrategy(conf)), 'unknown'),
      // The session's setting, or what the planner chose for the job when it set none (the widest vertex).
      'job-parallelism': read(() => conf.get(ExecutionOptions.PARALLELISM) ?? Math.max(1, ...j.client.metrics().vertices.map((v) => v.parallelism)), 1),
      'object-reuse-mode': false,
      'user-config': sortedKeys(maskSecrets(j.info?.config ?? {})),
    },
  };
}

/** `GET /jobs/<id>/plan`, as Flink's: `{"plan": {jid, name, type, nodes}}`. */
export function jobPlan(j: RegisteredJob): object {
  const mode = read(() => configOf(j).get(ExecutionOptions.RUNTIME_MODE), 'streaming');
  return { plan: { ...planView(j), type: mode.toUpperCase() } };
}

/**
 * `GET /jobs/<id>/sql`, Sluice's own: the statement the job runs (canonical SQL, as the parser read it)
 * and its EXPLAIN text. Both null for a job started without SQL.
 */
export function jobSql(j: RegisteredJob): object {
  const info = j.info;
  if (info === undefined) return { sql: null, explain: null };
  return { sql: maskSqlSecrets(read(() => info.sql(), 'The statement could not be printed.')), explain: maskSqlSecrets(read(() => info.explain(), 'The plan could not be explained.')) };
}

function sortedKeys(o: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]!]));
}
