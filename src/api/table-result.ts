import type { JobClient } from '../runtime/job-client.js';
import type { Row } from '../types/row.js';
import type { ResolvedSchema } from '../types/schema.js';

/**
 * `SUCCESS`: a statement that only changed the session or catalog (`[INFO] Execute statement succeeded.`);
 * `SUCCESS_WITH_CONTENT`: a statement with rows to show (SHOW, DESCRIBE, SELECT, and INSERT's job id row).
 */
export type ResultKind = 'SUCCESS' | 'SUCCESS_WITH_CONTENT';

/** What kind of statement produced a result, so a front end can word its messages as Flink's client does. */
export type ResultOrigin =
  | 'ddl'
  | 'set'
  | 'reset'
  | 'use'
  | 'show'
  | 'describe'
  | 'explain'
  | 'query'
  | 'insert'
  | 'statement-set'
  | 'stop-job'
  | 'begin-statement-set'
  | 'end-statement-set'
  | 'add-to-statement-set'
  | 'other';

/**
 * The outcome of `executeSql` (Flink's `TableResult`). For SELECT the rows are produced by a running
 * job and read through `collect()`; for INSERT the job is running when this is returned.
 *
 * @example
 * ```ts
 * const result = await env.executeSql('SELECT name, COUNT(*) FROM users GROUP BY name');
 * for await (const row of result.collect()) console.log(row.kind, row.fields);
 * ```
 */
export interface TableResult {
  readonly resultKind: ResultKind;
  readonly origin: ResultOrigin;
  /** True if rows may carry -U/+U/-D (a streaming aggregate); front ends then show the `op` column. */
  readonly isChangelog: boolean;
  /** True if the statement ran in streaming mode (tableau prints `Received a total of N rows`). */
  readonly isStreaming: boolean;
  getResolvedSchema(): ResolvedSchema;
  /** The job behind a SELECT or INSERT. */
  getJobClient(): JobClient | undefined;
  /**
   * The rows. For a SELECT this consumes the running job's output with backpressure; leaving the loop
   * early (break, return) cancels the job. Can be iterated once.
   */
  collect(): AsyncIterable<Row> & { close(): Promise<void> };
  /** Waits until the job (if any) finished; rejects if it failed. */
  await(): Promise<void>;
}
