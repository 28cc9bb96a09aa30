import type { ReadableConfig } from '../configuration.js';
import { ConfigOptions } from '../config-options.js';
import { CheckpointingOptions } from './checkpointing-options.js';

/** Restart strategy options with Flink's keys and defaults (`RestartStrategyOptions`). */
export const RestartStrategyOptions = {
  RESTART_STRATEGY: ConfigOptions.key('restart-strategy.type')
    .enumType(['none', 'fixed-delay', 'failure-rate', 'exponential-delay'])
    .noDefaultValue()
    .withDescription('none, fixed-delay, failure-rate or exponential-delay; when unset: none without checkpointing, exponential-delay with it.'),

  FIXED_DELAY_ATTEMPTS: ConfigOptions.key('restart-strategy.fixed-delay.attempts')
    .intType()
    .defaultValue(1)
    .withDescription('Restarts before the job is declared failed.'),
  FIXED_DELAY_DELAY: ConfigOptions.key('restart-strategy.fixed-delay.delay')
    .durationType()
    .defaultValue(1000)
    .withDescription('Delay between two restart attempts.'),

  FAILURE_RATE_MAX_FAILURES_PER_INTERVAL: ConfigOptions.key('restart-strategy.failure-rate.max-failures-per-interval')
    .intType()
    .defaultValue(1)
    .withDescription('Failures within the interval before the job is declared failed.'),
  FAILURE_RATE_INTERVAL: ConfigOptions.key('restart-strategy.failure-rate.failure-rate-interval')
    .durationType()
    .defaultValue(60_000)
    .withDescription('Time window in which failures are counted.'),
  FAILURE_RATE_DELAY: ConfigOptions.key('restart-strategy.failure-rate.delay')
    .durationType()
    .defaultValue(1000)
    .withDescription('Delay between two restart attempts.'),

  EXPONENTIAL_DELAY_INITIAL_BACKOFF: ConfigOptions.key('restart-strategy.exponential-delay.initial-backoff')
    .durationType()
    .defaultValue(1000)
    .withDescription('Delay before the first restart.'),
  EXPONENTIAL_DELAY_MAX_BACKOFF: ConfigOptions.key('restart-strategy.exponential-delay.max-backoff')
    .durationType()
    .defaultValue(60_000)
    .withDescription('Upper bound of the delay.'),
  EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER: ConfigOptions.key('restart-strategy.exponential-delay.backoff-multiplier')
    .doubleType()
    .defaultValue(1.5)
    .withDescription('Factor the delay grows by after each failure.'),
  EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD: ConfigOptions.key('restart-strategy.exponential-delay.reset-backoff-threshold')
    .durationType()
    .defaultValue(3_600_000)
    .withDescription('After running this long without failure the delay resets to the initial backoff.'),
  EXPONENTIAL_DELAY_JITTER_FACTOR: ConfigOptions.key('restart-strategy.exponential-delay.jitter-factor')
    .doubleType()
    .defaultValue(0.1)
    .withDescription('Random jitter as a fraction of the delay, so restarts of many jobs spread out.'),
  EXPONENTIAL_DELAY_ATTEMPTS: ConfigOptions.key('restart-strategy.exponential-delay.attempts-before-reset-backoff')
    .intType()
    .defaultValue(2147483647)
    .withDescription('Restarts allowed before the backoff resets; then the job fails.'),
} as const;

/** The restart strategy in effect, all durations in ms; the runtime's restart logic consumes this. */
export type RestartStrategyConfig =
  | { readonly kind: 'none' }
  | { readonly kind: 'fixed-delay'; readonly attempts: number; readonly delayMs: number }
  | {
      readonly kind: 'failure-rate';
      readonly maxFailuresPerInterval: number;
      readonly failureRateIntervalMs: number;
      readonly delayMs: number;
    }
  | {
      readonly kind: 'exponential-delay';
      readonly initialBackoffMs: number;
      readonly maxBackoffMs: number;
      readonly backoffMultiplier: number;
      readonly resetBackoffThresholdMs: number;
      readonly jitterFactor: number;
      readonly attemptsBeforeResetBackoff: number;
    };

/**
 * Read the effective restart strategy: `restart-strategy.type` if set, else exponential-delay when
 * checkpointing is enabled and none otherwise (Flink 1.19+). Call once per job submission.
 * @throws ValidationError for malformed values.
 */
export function resolveRestartStrategy(conf: ReadableConfig): RestartStrategyConfig {
  const o = RestartStrategyOptions;
  const kind = conf.get(o.RESTART_STRATEGY) ?? (conf.get(CheckpointingOptions.CHECKPOINTING_INTERVAL) !== undefined ? 'exponential-delay' : 'none');
  switch (kind) {
    case 'none':
      return { kind };
    case 'fixed-delay':
      return { kind, attempts: conf.get(o.FIXED_DELAY_ATTEMPTS), delayMs: conf.get(o.FIXED_DELAY_DELAY) };
    case 'failure-rate':
      return {
        kind,
        maxFailuresPerInterval: conf.get(o.FAILURE_RATE_MAX_FAILURES_PER_INTERVAL),
        failureRateIntervalMs: conf.get(o.FAILURE_RATE_INTERVAL),
        delayMs: conf.get(o.FAILURE_RATE_DELAY),
      };
    case 'exponential-delay':
      return {
        kind,
        initialBackoffMs: conf.get(o.EXPONENTIAL_DELAY_INITIAL_BACKOFF),
        maxBackoffMs: conf.get(o.EXPONENTIAL_DELAY_MAX_BACKOFF),
        backoffMultiplier: conf.get(o.EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER),
        resetBackoffThresholdMs: conf.get(o.EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD),
        jitterFactor: conf.get(o.EXPONENTIAL_DELAY_JITTER_FACTOR),
        attemptsBeforeResetBackoff: conf.get(o.EXPONENTIAL_DELAY_ATTEMPTS),
      };
    default: {
      const never: never = kind;
      return never;
    }
  }
}
