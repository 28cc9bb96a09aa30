import { ConfigOptions } from '../config-options.js';

/** Session options of job execution (Flink's `ExecutionOptions`, `CoreOptions`, `PipelineOptions`). */
export const ExecutionOptions = {
  RUNTIME_MODE: ConfigOptions.key('execution.runtime-mode')
    .enumType(['streaming', 'batch'])
    .defaultValue('streaming')
    .withDescription('Runtime execution mode: streaming (unbounded, continuous results) or batch (bounded inputs, final results).'),

  PARALLELISM: ConfigOptions.key('parallelism.default')
    .intType()
    .noDefaultValue()
    .withDescription(
      'Default number of parallel subtasks of each operator. When not set, Sluice chooses per job: one subtask per core (os.availableParallelism()) for a job reading about a million rows or more or an endless datagen / nexmark generator at full speed, and 1 for a small job, a paced one (below 100,000 rows per second) or one reading kafka, pravega or a monitored directory. Flink defaults to 1.',
    ),

  MAX_PARALLELISM: ConfigOptions.key('pipeline.max-parallelism')
    .intType()
    .defaultValue(128)
    .withDescription('Number of key groups keyed state is split into: the highest parallelism a keyed operator may run at, and a checkpoint restored at. Fixed for the life of a job\'s state; a checkpoint keeps its own.'),

  SOURCE_QUEUE_CAPACITY: ConfigOptions.key('source.reader.element.queue.capacity')
    .intType()
    .defaultValue(2)
    .withDescription('Fetched batches a source reader buffers between its fetchers and its task; fetchers wait when it is full.'),

  WORKER_THREADS: ConfigOptions.key('execution.worker-threads')
    .stringType()
    .defaultValue('auto')
    .withDescription(
      "Run the subtasks of jobs with parallelism above 1 on worker threads (node:worker_threads) besides the main thread, so a job uses more than one core: 'off' (all on the main thread), 'auto' (one thread per core: the main thread and cores - 1 workers) or a number of workers. The main thread is slot 0 and worker k slot k: subtask i of every operator runs in slot i mod (workers + 1), and a job at parallelism P starts at most P - 1 workers. A Sluice option (Flink runs subtasks in task slots of its TaskManagers).",
    ),

  PIPELINE_NAME: ConfigOptions.key('pipeline.name')
    .stringType()
    .noDefaultValue()
    .withDescription('The job name used for the next submitted job; by default insert-into_<sink> or collect.'),
} as const;
