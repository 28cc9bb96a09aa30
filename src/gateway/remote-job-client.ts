import { ExecutionError, ValidationError } from '../errors/sluice-error.js';
import type { JobClient, JobExecutionResult, JobMetrics, JobStatus } from '../runtime/job-client.js';
import type { GatewaySession } from './gateway-session.js';

const POLL_MS = 1_000;

const NO_METRICS: JobMetrics = {
  vertices: [],
  completedCheckpoints: 0,
  lastCheckpointId: undefined,
  restarts: 0,
  failedCheckpoints: 0,
  lastCheckpointDurationMs: undefined,
  lastCheckpointSizeBytes: undefined,
  checkpointHistory: [],
};

/** Flink's JobStatus names, reduced to Sluice's. */
function toStatus(flink: string): JobStatus | undefined {
  switch (flink) {
    case 'INITIALIZING':
    case 'CREATED':
      return 'CREATED';
    case 'RUNNING':
    case 'RESTARTING':
    case 'FAILING':
    case 'CANCELLING':
    case 'RECONCILING':
    case 'SUSPENDED':
      return 'RUNNING';
    case 'FINISHED':
      return 'FINISHED';
    case 'FAILED':
      return 'FAILED';
    case 'CANCELED':
      return 'CANCELED';
    default:
      return undefined;
  }
}

/**
 * A job running on the Flink cluster, seen through the gateway session that submitted it: its status comes
 * from SHOW JOBS, cancelling is STOP JOB (a query's job is cancelled with its operation instead, by the
 * caller's `cancelQuery`). Per-task metrics are the cluster's web UI's business; `metrics()` has none.
 */
export class RemoteJobClient implements JobClient {
  private last: JobStatus = 'RUNNING';
  private readonly started = Date.now();

  constructor(
    private readonly session: GatewaySession,
    readonly jobId: string,
    readonly jobName: string,
    private readonly cancelQuery?: () => Promise<void>,
  ) {}

  status(): JobStatus {
    return this.last;
  }

  async cancel(): Promise<void> {
    if (this.cancelQuery) {
      await this.cancelQuery();
      this.last = 'CANCELED';
      return;
    }
    if (this.last !== 'RUNNING' && this.last !== 'CREATED') return;
    await this.session.rows(`STOP JOB '${this.jobId}'`);
    this.last = 'CANCELED';
  }

  async triggerSavepoint(): Promise<string> {
    throw new ValidationError(`A savepoint of cluster job ${this.jobId} is taken with STOP JOB '${this.jobId}' WITH SAVEPOINT, into the cluster's execution.checkpointing.savepoint-dir.`);
  }

  async stopWithSavepoint(): Promise<string> {
    const { rows } = await this.session.rows(`STOP JOB '${this.jobId}' WITH SAVEPOINT`);
    this.last = 'FINISHED';
    return String(rows[0]?.fields[0] ?? '');
  }

  /** Polls SHOW JOBS until the job ended; a failed job rejects (its exception is in the cluster's web UI). */
  async waitForCompletion(): Promise<JobExecutionResult> {
    for (;;) {
      const status = await this.poll();
      if (status === 'FAILED') throw new ExecutionError(`Job ${this.jobId} (${this.jobName}) failed on the Flink cluster; its exceptions are on the JobManager's web UI (/jobs/${this.jobId}/exceptions).`);
      if (status === 'FINISHED' || status === 'CANCELED') {
        return { jobId: this.jobId, status, netRuntimeMs: Date.now() - this.started, restarts: 0, savepointPath: undefined };
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  metrics(): JobMetrics {
    return NO_METRICS;
  }

  private async poll(): Promise<JobStatus> {
    const { decoder, rows } = await this.session.rows('SHOW JOBS');
    const names = decoder.schema.columnNames();
    const idCol = names.indexOf('job id');
    const statusCol = names.indexOf('status');
    const row = rows.find((r) => r.fields[idCol] === this.jobId);
    const status = row === undefined ? undefined : toStatus(String(row.fields[statusCol]));
    if (status !== undefined) this.last = status;
    return this.last;
  }
}
