import { DEFAULT_MAX_PARALLELISM } from './key-groups.js';
import type { WorkerThreadsSetting } from './workers/placement.js';
import type { StateBackendSettings } from './state/keyed-state-backend.js';


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
 * The runtime's parsed settings. The typed `ConfigOption`s live in `src/config/`; the session reads them
 * and fills this (src/api/runtime-config-from-session.ts), so the runtime never parses option strings.
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
  /** `execution.checkpointing.unaligned.enabled`: no barrier alignment; in-flight input is checkpointed instead. */
  readonly unalignedCheckpoints: boolean;
  /**
   * `execution.checkpointing.aligned-checkpoint-timeout` in ms: with unaligned checkpoints, 0 starts every
   * checkpoint unaligned; more starts it aligned and switches a task to unaligned once the checkpoint has run
   * this long (from its barriers leaving the sources) without the task's alignment completing.
   */
  readonly alignedCheckpointTimeoutMs: number;
  /** `execution.checkpointing.dir`; without it checkpoints are kept in memory only (restarts still work). */
  readonly checkpointDir: string | undefined;
  /** `execution.checkpointing.num-retained` (default 1). */
  readonly checkpointsRetained: number;
  /** `execution.state-recovery.path`: a `chk-N` or savepoint directory to start from. */
  readonly restorePath: string | undefined;
  /**
   * `execution.state-recovery.ignore-unclaimed-state`: restore from a checkpoint holding state of
   * operators the job does not have by dropping that state (default: refuse the restore).
   */
  readonly ignoreUnclaimedState: boolean;
  readonly restartStrategy: RestartStrategyConfig;
  /**
   * `pipeline.max-parallelism`: the number of key groups keyed state and hash exchanges are split into,
   * and so the highest parallelism a checkpoint of the job can be restored at (default 128).
   */
  readonly maxParallelism: number;
  /** Capacity of each channel between tasks, in batches (backpressure bound). */
  readonly channelCapacity: number;
  /** `source.reader.element.queue.capacity`, in fetched batches (default 2). */
  readonly elementQueueCapacity: number;
  /**
   * `execution.worker-threads`: run subtasks on worker threads ('auto': one per core), or 'off' (all on
   * the main thread). Jobs whose tasks all have parallelism 1 never start workers.
   */
  readonly workerThreads: WorkerThreadsSetting;
  /** `state.backend.type` and its backend's settings. */
  readonly stateBackend: StateBackendSettings;
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
    unalignedCheckpoints: false,
    alignedCheckpointTimeoutMs: 0,
    checkpointDir: undefined,
    checkpointsRetained: 1,
    restorePath: undefined,
    ignoreUnclaimedState: false,
    restartStrategy: { kind: 'none' },
    maxParallelism: DEFAULT_MAX_PARALLELISM,
    channelCapacity: 4,
    elementQueueCapacity: 2,
    workerThreads: 'off',
    stateBackend: { type: 'hashmap' },
    raw: new Map(),
    ...overrides,
  };
}
