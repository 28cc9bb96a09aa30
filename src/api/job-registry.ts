import type { JobClient } from '../runtime/job-client.js';

export interface RegisteredJob {
  readonly client: JobClient;
  readonly startTime: Date;
}

/** The jobs a session started, for SHOW JOBS and STOP JOB. */
export class JobRegistry {
  private readonly jobs = new Map<string, RegisteredJob>();

  add(client: JobClient): void {
    this.jobs.set(client.jobId, { client, startTime: new Date() });
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
