import { ConfigOptions } from '../config-options.js';

/** Checkpoint and recovery options (Flink's `CheckpointingOptions`, `StateRecoveryOptions`), 2.x keys. */
export const CheckpointingOptions = {
  CHECKPOINTING_INTERVAL: ConfigOptions.key('execution.checkpointing.interval')
    .durationType()
    .noDefaultValue()
    .withDescription('Interval between checkpoints; checkpointing is off when unset.'),

  CHECKPOINTING_MODE: ConfigOptions.key('execution.checkpointing.mode')
    .enumType(['EXACTLY_ONCE', 'AT_LEAST_ONCE'])
    .defaultValue('EXACTLY_ONCE')
    .withDescription('EXACTLY_ONCE aligns barriers; AT_LEAST_ONCE does not and may replay records after recovery.'),

  UNALIGNED_CHECKPOINTS: ConfigOptions.key('execution.checkpointing.unaligned.enabled')
    .booleanType()
    .defaultValue(false)
    .withDeprecatedKeys('execution.checkpointing.unaligned')
    .withDescription(
      'Unaligned checkpoints: a task with several input channels takes its snapshot at the first barrier instead of waiting, blocked, for the barrier on every channel, and the checkpoint keeps the rows that were still in flight on the others. Only in EXACTLY_ONCE mode; savepoints stay aligned. Sluice keeps in-flight input only (a barrier does not overtake the rows queued in front of it), and a resume at another parallelism shares the rows in flight out by key group.',
    ),

  ALIGNED_CHECKPOINT_TIMEOUT: ConfigOptions.key('execution.checkpointing.aligned-checkpoint-timeout')
    .durationType()
    .defaultValue(0)
    .withDeprecatedKeys('execution.checkpointing.alignment-timeout')
    .withDescription(
      'Only with unaligned checkpoints. 0: every checkpoint starts unaligned. More: a checkpoint starts aligned, and a task whose alignment has not completed this long after the checkpoint started (its barriers left the sources) switches to unaligned, keeping the rows still in flight on its other channels. Savepoints are never switched.',
    ),

  CHECKPOINTING_TIMEOUT: ConfigOptions.key('execution.checkpointing.timeout')
    .durationType()
    .defaultValue(600_000)
    .withDescription('A checkpoint not completed within this time is aborted.'),

  MIN_PAUSE_BETWEEN_CHECKPOINTS: ConfigOptions.key('execution.checkpointing.min-pause')
    .durationType()
    .defaultValue(0)
    .withDescription('Minimal pause between the end of one checkpoint and the start of the next.'),

  MAX_CONCURRENT_CHECKPOINTS: ConfigOptions.key('execution.checkpointing.max-concurrent-checkpoints')
    .intType()
    .defaultValue(1)
    .withDescription('How many checkpoints may be in progress at the same time.'),

  TOLERABLE_FAILED_CHECKPOINTS: ConfigOptions.key('execution.checkpointing.tolerable-failed-checkpoints')
    .intType()
    .defaultValue(0)
    .withDescription('Consecutive checkpoint failures tolerated before the job fails.'),

  CHECKPOINTS_DIRECTORY: ConfigOptions.key('execution.checkpointing.dir')
    .localPathType()
    .noDefaultValue()
    .withFallbackKeys('state.checkpoints.dir')
    .withDescription('Directory holding chk-<n>/ checkpoint folders.'),

  MAX_RETAINED_CHECKPOINTS: ConfigOptions.key('execution.checkpointing.num-retained')
    .intType()
    .defaultValue(1)
    .withFallbackKeys('state.checkpoints.num-retained')
    .withDescription('Number of completed checkpoints to keep.'),

  SAVEPOINT_DIRECTORY: ConfigOptions.key('execution.checkpointing.savepoint-dir')
    .localPathType()
    .noDefaultValue()
    .withFallbackKeys('state.savepoints.dir')
    .withDescription('Default directory for savepoints.'),

  EXTERNALIZED_CHECKPOINT_RETENTION: ConfigOptions.key('execution.checkpointing.externalized-checkpoint-retention')
    .enumType(['DELETE_ON_CANCELLATION', 'RETAIN_ON_CANCELLATION', 'NO_EXTERNALIZED_CHECKPOINTS'])
    .defaultValue('NO_EXTERNALIZED_CHECKPOINTS')
    .withDescription('Whether completed checkpoints are kept when the job is cancelled.'),

  SAVEPOINT_PATH: ConfigOptions.key('execution.state-recovery.path')
    .localPathType()
    .noDefaultValue()
    .withDeprecatedKeys('execution.savepoint.path')
    .withDescription('Checkpoint or savepoint path the next submitted job restores its state from.'),

  SAVEPOINT_IGNORE_UNCLAIMED_STATE: ConfigOptions.key('execution.state-recovery.ignore-unclaimed-state')
    .booleanType()
    .defaultValue(false)
    .withDeprecatedKeys('execution.savepoint.ignore-unclaimed-state')
    .withDescription('Allow restoring from a savepoint that holds state no operator of the new job claims.'),
} as const;
