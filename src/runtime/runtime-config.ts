import { ValidationError } from '../errors/sluice-error.js';

export type CheckpointingMode = 'EXACTLY_ONCE' | 'AT_LEAST_ONCE';

export type RestartStrategyConfig =
  | { readonly kind: 'none' }
  | { readonly kind: 'fixed-delay'; readonly attempts: number; readonly delayMs: number }
  | {
      readonly kind: 'exponential-delay';
      readonly initialBackoffMs: number;
      readonly maxBackoffMs: number;
      readonly multiplier: number;
      readonly jitterFactor: number;
      /** Give up after this many restarts (Flink: unlimited). */
      readonly maxAttempts: number;
    }
  | {
      readonly kind: 'failure-rate';
      readonly maxFailuresPerInterval: number;
      readonly intervalMs: number;
      readonly delayMs: number;
    };

/**
 * The runtime's parsed settings. The typed `ConfigOption`s live in `src/config/`; whoever holds them fills
 * this, or uses `runtimeConfigFromMap` on raw Flink keys.
 */
export interface RuntimeConfig {
  /** `execution.runtime-mode`. */
  readonly runtimeMode: 'streaming' | 'batch';
  /** `execution.checkpointing.interval`; undefined disables periodic checkpoints. */
  readonly checkpointIntervalMs: number | undefined;
  /** `execution.checkpointing.timeout` (default 10 min). */
  readonly checkpointTimeoutMs: number;
  /** `execution.checkpointing.min-pause` (default 0). */
  readonly checkpointMinPauseMs: number;
  /** `execution.checkpointing.mode`. */
  readonly checkpointingMode: CheckpointingMode;
  /** `execution.checkpointing.dir`; without it checkpoints are kept in memory only (restarts still work). */
  readonly checkpointDir: string | undefined;
  /** `execution.checkpointing.num-retained` (default 1). */
  readonly checkpointsRetained: number;
  /** `execution.state-recovery.path`: a `chk-N` or savepoint directory to start from. */
  readonly restorePath: string | undefined;
  readonly restartStrategy: RestartStrategyConfig;
  /** Capacity of each channel between tasks, in batches (backpressure bound). */
  readonly channelCapacity: number;
  /** `source.reader.element.queue.capacity`, in fetched batches (default 2). */
  readonly elementQueueCapacity: number;
  /** Raw keys, passed to readers and writers. */
  readonly raw: ReadonlyMap<string, string>;
}

export function defaultRuntimeConfig(overrides: Partial<RuntimeConfig> = {}): RuntimeConfig {
  return {
    runtimeMode: 'streaming',
    checkpointIntervalMs: undefined,
    checkpointTimeoutMs: 600_000,
    checkpointMinPauseMs: 0,
    checkpointingMode: 'EXACTLY_ONCE',
    checkpointDir: undefined,
    checkpointsRetained: 1,
    restorePath: undefined,
    restartStrategy: { kind: 'none' },
    channelCapacity: 4,
    elementQueueCapacity: 2,
    raw: new Map(),
    ...overrides,
  };
}

const UNITS: Record<string, number> = {
  ms: 1, milli: 1, millis: 1, millisecond: 1, milliseconds: 1,
  s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000,
  min: 60_000, m: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hour: 3_600_000, hours: 3_600_000,
  d: 86_400_000, day: 86_400_000, days: 86_400_000,
};

/** Parses a Flink duration ("10 s", "1 min", "500ms", bare number = ms). */
export function parseDurationMs(key: string, text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? UNITS[(m[2] ?? '').toLowerCase() || 'ms'] : undefined;
  if (!m || unit === undefined) {
    throw new ValidationError(`Could not parse value '${text}' for key '${key}': expected a duration such as '10 s', '1 min' or '500 ms'.`);
  }
  return Math.round(Number(m[1]) * unit);
}

function int(map: ReadonlyMap<string, string>, key: string, dflt: number): number {
  const v = map.get(key);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new ValidationError(`Could not parse value '${v}' for key '${key}': expected a non-negative integer.`);
  return n;
}

function dur(map: ReadonlyMap<string, string>, key: string, dflt: number): number {
  const v = map.get(key);
  return v === undefined ? dflt : parseDurationMs(key, v);
}

/** Reads the runtime's keys from raw Flink-style configuration (deprecated keys as fallbacks). */
export function runtimeConfigFromMap(map: ReadonlyMap<string, string>): RuntimeConfig {
  const mode = (map.get('execution.runtime-mode') ?? 'streaming').toLowerCase();
  if (mode !== 'streaming' && mode !== 'batch') {
    throw new ValidationError(`Unsupported value '${mode}' for 'execution.runtime-mode'. Supported values are ['streaming', 'batch'].`);
  }
  const cpMode = (map.get('execution.checkpointing.mode') ?? 'EXACTLY_ONCE').toUpperCase();
  if (cpMode !== 'EXACTLY_ONCE' && cpMode !== 'AT_LEAST_ONCE') {
    throw new ValidationError(`Unsupported value '${cpMode}' for 'execution.checkpointing.mode'. Supported values are ['EXACTLY_ONCE', 'AT_LEAST_ONCE'].`);
  }
  const intervalText = map.get('execution.checkpointing.interval');
  const interval = intervalText === undefined ? undefined : parseDurationMs('execution.checkpointing.interval', intervalText);
  const restartType = map.get('restart-strategy.type') ?? map.get('restart-strategy') ?? (interval ? 'exponential-delay' : 'none');
  let restartStrategy: RestartStrategyConfig;
  switch (restartType) {
    case 'none': case 'off': case 'disable':
      restartStrategy = { kind: 'none' };
      break;
    case 'fixed-delay': case 'fixeddelay':
      restartStrategy = {
        kind: 'fixed-delay',
        attempts: int(map, 'restart-strategy.fixed-delay.attempts', 1),
        delayMs: dur(map, 'restart-strategy.fixed-delay.delay', 1000),
      };
      break;
    case 'exponential-delay':
      restartStrategy = {
        kind: 'exponential-delay',
        initialBackoffMs: dur(map, 'restart-strategy.exponential-delay.initial-backoff', 1000),
        maxBackoffMs: dur(map, 'restart-strategy.exponential-delay.max-backoff', 60_000),
        multiplier: Number(map.get('restart-strategy.exponential-delay.backoff-multiplier') ?? 1.5),
        jitterFactor: Number(map.get('restart-strategy.exponential-delay.jitter-factor') ?? 0.1),
        maxAttempts: int(map, 'restart-strategy.exponential-delay.attempts-before-reset-backoff', Number.MAX_SAFE_INTEGER),
      };
      break;
    case 'failure-rate': case 'failurerate':
      restartStrategy = {
        kind: 'failure-rate',
        maxFailuresPerInterval: int(map, 'restart-strategy.failure-rate.max-failures-per-interval', 1),
        intervalMs: dur(map, 'restart-strategy.failure-rate.failure-rate-interval', 60_000),
        delayMs: dur(map, 'restart-strategy.failure-rate.delay', 1000),
      };
      break;
    default:
      throw new ValidationError(`Unsupported value '${restartType}' for 'restart-strategy.type'. Supported values are ['none', 'fixed-delay', 'exponential-delay', 'failure-rate'].`);
  }
  return defaultRuntimeConfig({
    runtimeMode: mode,
    checkpointIntervalMs: interval,
    checkpointTimeoutMs: dur(map, 'execution.checkpointing.timeout', 600_000),
    checkpointMinPauseMs: dur(map, 'execution.checkpointing.min-pause', 0),
    checkpointingMode: cpMode,
    checkpointDir: map.get('execution.checkpointing.dir') ?? map.get('state.checkpoints.dir'),
    checkpointsRetained: Math.max(1, int(map, 'execution.checkpointing.num-retained', 1)),
    restorePath: map.get('execution.state-recovery.path') ?? map.get('execution.savepoint.path'),
    restartStrategy,
    elementQueueCapacity: Math.max(1, int(map, 'source.reader.element.queue.capacity', 2)),
    raw: map,
  });
}
