import { ConnectorError } from '../../errors/sluice-error.js';

/**
 * How a sink wants a lost committable handled (one its committer reported with `signalFailedWithKnownReason`):
 * `fail` fails the job, `warn` logs and drops it (accepting the loss). `option` names the table option that chose
 * the action, so the messages can tell the user how to change it.
 */
export interface LostCommittablePolicy {
  readonly action: 'fail' | 'warn';
  readonly option?: string;
}

/**
 * A committable can never be committed: its data is lost. Restarting cannot help, since every restore hands the
 * committer the same committable again, so the job master fails the job at once instead of applying the restart
 * strategy (Flink's `SuppressRestartsException` role).
 */
export class LostCommittableError extends ConnectorError {
  readonly suppressRestarts = true;
}

/** True for a failure that a restart cannot fix (see `LostCommittableError`). */
export function suppressesRestarts(e: unknown): boolean {
  return e instanceof Error && (e as { suppressRestarts?: unknown }).suppressRestarts === true;
}
