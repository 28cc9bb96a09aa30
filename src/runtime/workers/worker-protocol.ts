import type { MessagePort } from 'node:worker_threads';
import type { SerializedValue, TaskSnapshot } from '../checkpoint/completed-checkpoint.js';
import type { TaskRestore } from '../checkpoint/task-restore.js';
import type { RuntimeConfig } from '../runtime-config.js';
import type { SourceEvent } from '../source/source-split.js';
import type { SubtaskReport } from './worker-metrics.js';

/**
 * Messages between the job master (main thread) and a worker, on the worker's own port. Exchanges
 * between subtasks do not use it: they have a port pair each (remote-channel.ts).
 */

/** One channel of an edge, between producer subtask `from` and consumer subtask `to`, as one worker sees it. */
export interface ChannelPlan {
  /** Index into the task graph's edges. */
  readonly edge: number;
  readonly from: number;
  readonly to: number;
  /** Set when the producer runs here and the consumer on another thread. */
  readonly out?: MessagePort;
  /** Set when the consumer runs here and the producer on another thread. Both unset: both run here. */
  readonly in?: MessagePort;
}

export interface SubtaskPlan {
  readonly taskId: string;
  readonly index: number;
  readonly restore: TaskRestore | undefined;
}

/** A reader event with splits in their serialized form (the worker's source deserializes them). */
export type WireReaderEvent =
  | { readonly kind: 'splits'; readonly splits: SerializedValue[] }
  | { readonly kind: 'no-more-splits' }
  | { readonly kind: 'event'; readonly event: SourceEvent };

/** An error as it crosses threads; the main thread rebuilds an Error of the same kind and message. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly stack: string | undefined;
  readonly suppressRestarts: boolean;
}

export type ToWorker =
  /** `id` tells this job's answer from a late answer to an earlier job's prepare (workers are reused). */
  | { readonly kind: 'prepare'; readonly id: number; readonly payload: unknown }
  | {
      readonly kind: 'deploy';
      readonly attempt: number;
      readonly jobId: string;
      readonly config: RuntimeConfig;
      readonly restoredCheckpointId: number | undefined;
      readonly maxParallelism: number;
      readonly subtasks: readonly SubtaskPlan[];
      readonly channels: readonly ChannelPlan[];
    }
  | { readonly kind: 'trigger'; readonly attempt: number; readonly key: string; readonly checkpointId: number; readonly suspend: boolean; readonly savepoint: boolean }
  | { readonly kind: 'checkpoint-complete'; readonly attempt: number; readonly key: string; readonly checkpointId: number }
  | { readonly kind: 'reader-event'; readonly attempt: number; readonly key: string; readonly event: WireReaderEvent }
  | { readonly kind: 'cancel'; readonly attempt: number; readonly key: string }
  | { readonly kind: 'end-attempt'; readonly attempt: number };

export type FromWorker =
  | { readonly kind: 'prepared'; readonly id: number; readonly signature: string }
  | { readonly kind: 'prepare-failed'; readonly id: number; readonly error: WireError }
  | {
      readonly kind: 'ack';
      readonly attempt: number;
      readonly key: string;
      readonly checkpointId: number;
      readonly snapshot: TaskSnapshot;
      readonly committables: SerializedValue[];
      /** How long the subtask's barrier alignment took (ms), as a main-thread subtask reports it. */
      readonly alignmentMs: number;
    }
  | { readonly kind: 'finished'; readonly attempt: number; readonly key: string; readonly snapshot: TaskSnapshot; readonly committables: SerializedValue[] }
  | { readonly kind: 'task-done'; readonly attempt: number; readonly key: string; readonly error: WireError | undefined }
  | { readonly kind: 'register-reader' | 'unregister-reader' | 'request-split'; readonly attempt: number; readonly taskId: string; readonly subtask: number }
  | { readonly kind: 'source-event'; readonly attempt: number; readonly taskId: string; readonly subtask: number; readonly event: SourceEvent }
  | { readonly kind: 'metrics'; readonly subtasks: readonly SubtaskReport[] }
  | { readonly kind: 'attempt-ended'; readonly attempt: number }
  /**
   * The worker started the subtasks of `attempt`; sent after the messages their start posted (reader
   * registrations, split requests), so the job master has those in hand when it starts its own subtasks.
   */
  | { readonly kind: 'started'; readonly attempt: number }
  /** A failure outside any task (e.g. a deploy that could not be applied): fails the attempt. */
  | { readonly kind: 'failed'; readonly attempt: number; readonly error: WireError };

export function toWireError(e: unknown): WireError {
  if (e instanceof Error) {
    return { name: e.name, message: e.message, stack: e.stack, suppressRestarts: (e as { suppressRestarts?: unknown }).suppressRestarts === true };
  }
  return { name: 'Error', message: String(e), stack: undefined, suppressRestarts: false };
}
