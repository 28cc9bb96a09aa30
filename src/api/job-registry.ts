import type { JobClient } from '../runtime/job-client.js';

/** Why a job failed, kept for the REST API's exceptions endpoint. */
export interface JobFailure {
  readonly error: unknown;
  readonly timestamp: Date;
}

/**
 * What a job was started from, for the dashboard's SQL, plan and configuration views. Kept raw: the REST
 * layer masks secrets before anything leaves the process.
 */
export interface JobInfo {
  /** The statement(s) the job runs, as canonical SQL; computed on first use. */
  sql(): string;
  /** The EXPLAIN text of the job's plan; computed on first use. */
  explain(): string;
  /** The session configuration when the job was submitted, as raw strings. */
  readonly config: Readonly<Record<string, string>>;
}

export interface RegisteredJob {
  readonly client: JobClient;
  /** Undefined for jobs registered without it (e.g. by tests). */
  readonly info: JobInfo | undefined;
  readonly startTime: Date;
  /** When the job reached a terminal state; undefined while it runs. */
  readonly endTime: Date | undefined;
  /** Set when the job failed. */
  readonly failure: JobFailure | undefined;
}

interface MutableJob {
  client: JobClient;
  info: JobInfo | undefined;
  startTime: Date;
  endTime: Date | undefined;
  failure: JobFailure | undefined;
}

/** The jobs a session started, for SHOW JOBS, STOP JOB and the REST API. */
export class JobRegistry {
  private readonly jobs = new Map<string, MutableJob>();

  add(client: JobClient, info?: JobInfo): void {
    const entry: MutableJob = { client, info, startTime: new Date(), endTime: undefined, failure: undefined };
    this.jobs.set(client.jobId, entry);
    // The end is observed here, once, so the time and cause are exact even if nobody asks until later.
    client.waitForCompletion().then(
      () => {
        entry.endTime = new Date();
      },
      (error: unknown) => {
        entry.endTime = new Date();
        entry.failure = { error, timestamp: entry.endTime };
      },
    );
  }

  get(jobId: string): RegisteredJob | undefined {
    return this.jobs.get(jobId);
  }

  list(): RegisteredJob[] {
    return [...this.jobs.values()];
  }

  /** Jobs still running or about to. */
  active(): JobClient[] {
    return this.list()
      .map((j) => j.client)
      .filter((c) => c.status() === 'RUNNING' || c.status() === 'CREATED');
  }
}
