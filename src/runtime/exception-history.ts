import type { TaskGraph } from './chaining.js';
import { EXCEPTION_HISTORY_SIZE, type JobExceptionStats } from './job-client.js';

/**
 * The failures of a job's attempts, newest first, for the REST API's exception history: what failed, when,
 * and in which subtask. Kept by the job master across attempts; bounded, so a job that restarts forever
 * keeps only its newest EXCEPTION_HISTORY_SIZE failures.
 */
export class ExceptionHistory {
  private readonly entries: JobExceptionStats[] = [];
  private dropped = false;

  constructor(private readonly graph: TaskGraph) {}

  /** `taskKey` is the failed subtask's `<task id>#<index>`, when a subtask failed. */
  record(error: unknown, taskKey: string | undefined, now = Date.now()): void {
    this.entries.unshift({ error, timestamp: now, taskName: this.taskName(taskKey) });
    if (this.entries.length > EXCEPTION_HISTORY_SIZE) {
      this.entries.length = EXCEPTION_HISTORY_SIZE;
      this.dropped = true;
    }
  }

  get history(): readonly JobExceptionStats[] {
    return [...this.entries];
  }

  get truncated(): boolean {
    return this.dropped;
  }

  /** As Flink names a subtask: `<name> (<index + 1>/<parallelism>)`. */
  private taskName(key: string | undefined): string | undefined {
    if (key === undefined) return undefined;
    const hash = key.lastIndexOf('#');
    const task = this.graph.tasks.find((t) => t.id === key.slice(0, hash));
    return task === undefined ? key : `${task.name} (${Number(key.slice(hash + 1)) + 1}/${task.parallelism})`;
  }
}
