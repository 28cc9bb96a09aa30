import type { ReadableConfig } from '../config/configuration.js';
import { CheckpointingOptions } from '../config/options/checkpointing-options.js';
import { ExecutionOptions } from '../config/options/execution-options.js';
import { resolveRestartStrategy } from '../config/options/restart-strategy-options.js';
import { StateBackendOptions } from '../config/options/state-backend-options.js';
import type { StateBackendSettings } from '../runtime/state/keyed-state-backend.js';
import type { RestartStrategyConfig, RuntimeConfig } from '../runtime/runtime-config.js';
import { defaultRuntimeConfig } from '../runtime/runtime-config.js';
import type { WorkerThreadsSetting } from '../runtime/workers/placement.js';
import { ValidationError } from '../errors/sluice-error.js';

/**
 * The runtime's settings read through the typed session options, so `SET` values are validated and
 * deprecated keys (`execution.savepoint.path`, `state.checkpoints.dir`) work in one place.
 */
export function runtimeConfigFromSession(conf: ReadableConfig): RuntimeConfig {
  const c = CheckpointingOptions;
  const restart = resolveRestartStrategy(conf);
  let restartStrategy: RestartStrategyConfig;
  switch (restart.kind) {
    case 'none':
    case 'fixed-delay':
      restartStrategy = restart;
      break;
    case 'failure-rate':
      restartStrategy = { kind: 'failure-rate', maxFailuresPerInterval: restart.maxFailuresPerInterval, intervalMs: restart.failureRateIntervalMs, delayMs: restart.delayMs };
      break;
    case 'exponential-delay':
      restartStrategy = {
        kind: 'exponential-delay',
        initialBackoffMs: restart.initialBackoffMs,
        maxBackoffMs: restart.maxBackoffMs,
        multiplier: restart.backoffMultiplier,
        jitterFactor: restart.jitterFactor,
        maxAttempts: restart.attemptsBeforeResetBackoff,
      };
      break;
  }
  return defaultRuntimeConfig({
    runtimeMode: conf.get(ExecutionOptions.RUNTIME_MODE),
    checkpointIntervalMs: conf.get(c.CHECKPOINTING_INTERVAL),
    checkpointTimeoutMs: conf.get(c.CHECKPOINTING_TIMEOUT),
    checkpointMinPauseMs: conf.get(c.MIN_PAUSE_BETWEEN_CHECKPOINTS),
    checkpointingMode: conf.get(c.CHECKPOINTING_MODE),
    unalignedCheckpoints: conf.get(c.UNALIGNED_CHECKPOINTS),
    alignedCheckpointTimeoutMs: conf.get(c.ALIGNED_CHECKPOINT_TIMEOUT),
    checkpointDir: conf.get(c.CHECKPOINTS_DIRECTORY),
    checkpointsRetained: conf.get(c.MAX_RETAINED_CHECKPOINTS),
    restorePath: conf.get(c.SAVEPOINT_PATH),
    ignoreUnclaimedState: conf.get(c.SAVEPOINT_IGNORE_UNCLAIMED_STATE),
    restartStrategy,
    maxParallelism: conf.get(ExecutionOptions.MAX_PARALLELISM),
    elementQueueCapacity: conf.get(ExecutionOptions.SOURCE_QUEUE_CAPACITY),
    workerThreads: parseWorkerThreads(conf.get(ExecutionOptions.WORKER_THREADS)),
    stateBackend: stateBackendSettings(conf),
    raw: new Map(Object.entries(conf.toMap())),
  });
}

/** `state.backend.type` and the on-disk backend's options ('lmdb' and 'rocksdb' differ in the store only). */
function stateBackendSettings(conf: ReadableConfig): StateBackendSettings {
  const o = StateBackendOptions;
  const type = conf.get(o.STATE_BACKEND);
  if (type === 'hashmap') return { type: 'hashmap' };
  // Deltas build on checkpoint files: without a checkpoint directory (or in batch mode, which writes none)
  // a checkpoint is kept in memory alone, and a delta's base would be gone.
  const incremental =
    conf.get(o.INCREMENTAL) && conf.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY) !== undefined && conf.get(ExecutionOptions.RUNTIME_MODE) === 'streaming';
  return { type: 'lmdb', engine: type === 'rocksdb' ? 'rocksdb' : 'lmdb', cacheBytes: conf.get(o.LMDB_CACHE_SIZE), localDir: conf.get(o.LMDB_LOCAL_DIR), incremental };
}

/** `execution.worker-threads`: 'off', 'auto' or a positive number of workers. */
export function parseWorkerThreads(value: string): WorkerThreadsSetting {
  const v = value.trim().toLowerCase();
  if (v === 'off' || v === 'auto') return v;
  if (/^[0-9]+$/.test(v) && Number(v) >= 1 && Number(v) <= 1024) return Number(v);
  throw new ValidationError(`Invalid value '${value}' for option 'execution.worker-threads': expected 'off', 'auto' or a number of worker threads from 1 to 1024.`);
}
