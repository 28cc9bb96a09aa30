/**
 * One committable to commit, with the outcome the committer reports (Flink's `CommitRequest`).
 * If the committer calls none of the `signal*` / `retryLater` methods the commit counts as successful.
 */
export interface CommitRequest<C> {
  readonly committable: C;
  /** How often this committable was retried already. */
  readonly numberOfRetries: number;
  /**
   * It can never be committed (e.g. the external system aborted the transaction): its data is lost. The error
   * should say which transaction and why. The sink's `lostCommittables` policy decides: by default the job fails
   * (without restarts, which could not help); with `warn` the runner logs the error and drops the committable.
   */
  signalFailedWithKnownReason(error: unknown): void;
  /** Failed for an unknown reason: fails the job (and restarts it, if a restart strategy allows). */
  signalFailedWithUnknownReason(error: unknown): void;
  /** Transient failure: commit again on the next checkpoint completion or retry tick. */
  retryLater(): void;
  /** As `retryLater` with a replaced committable. */
  updateAndRetryLater(committable: C): void;
  /** It was committed before (e.g. replay after restore); not an error. */
  signalAlreadyCommitted(): void;
}

/**
 * Commits what writers prepared (Flink's `Committer`). Runs once per sink per job, on the coordinator's turn,
 * after checkpoint N completed (for committables of checkpoints <= N), after a restore (re-committing the
 * restored checkpoint's committables) and at the end of a bounded job. `commit` MUST be idempotent: the same
 * committable may be committed again after a failure.
 */
export interface Committer<C> {
  /** Awaited; the next commit round starts after this one settles. */
  commit(requests: readonly CommitRequest<C>[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * An optional single committer that sees the committables of every subtask for one checkpoint at once
 * (the role of Flink's GlobalCommitter / `addGlobalCommitter` post-commit topology). Called after the
 * per-subtask `Committer` succeeded for that checkpoint. Must be idempotent.
 */
export interface GlobalCommitter<C> {
  commitGlobal(checkpointId: number, committables: readonly C[]): Promise<void>;
  close(): Promise<void>;
}
