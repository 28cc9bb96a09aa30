import type { JobClient } from '../runtime/job-client.js';
import { Columns } from '../types/column.js';
import { DataTypes } from '../types/data-types.js';
import { Row } from '../types/row.js';
import { ResolvedSchema } from '../types/schema.js';
import type { ResultQueue } from './result-queue.js';
import type { ResultOrigin, TableResult } from './table-result.js';

const OK_SCHEMA = ResolvedSchema.of([Columns.physical('result', DataTypes.STRING())]);

/** `[INFO] Execute statement succeeded.`: no rows, nothing running. */
export function okResult(origin: ResultOrigin): TableResult {
  return staticResult(origin, OK_SCHEMA, [], 'SUCCESS');
}

/** Rows known up front (SHOW, DESCRIBE, EXPLAIN, SET;). */
export function staticResult(origin: ResultOrigin, schema: ResolvedSchema, rows: Row[], kind: TableResult['resultKind'] = 'SUCCESS_WITH_CONTENT'): TableResult {
  let used = false;
  return {
    resultKind: kind,
    origin,
    isChangelog: false,
    isStreaming: false,
    getResolvedSchema: () => schema,
    getJobClient: () => undefined,
    collect() {
      if (used) throw new Error('collect() can be called once per TableResult.');
      used = true;
      const it = (async function* () {
        yield* rows;
      })();
      return Object.assign(it, { close: async () => void (await it.return(undefined)) });
    },
    await: async () => {},
  };
}

/** A running SELECT: rows come from the job through `queue`; closing the iteration cancels the job. */
export function queryResult(schema: ResolvedSchema, job: JobClient, queue: ResultQueue, isChangelog: boolean, isStreaming: boolean): TableResult {
  let used = false;
  return {
    resultKind: 'SUCCESS_WITH_CONTENT',
    origin: 'query',
    isChangelog,
    isStreaming,
    getResolvedSchema: () => schema,
    getJobClient: () => job,
    collect() {
      if (used) throw new Error('collect() can be called once per TableResult.');
      used = true;
      const inner = queue[Symbol.asyncIterator]();
      const close = async (): Promise<void> => {
        if (job.status() === 'RUNNING' || job.status() === 'CREATED') await job.cancel();
      };
      const it: AsyncIterableIterator<Row> = {
        next: () => inner.next(),
        return: async () => {
          await close();
          return { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      };
      return Object.assign(it, { close });
    },
    await: async () => {
      await job.waitForCompletion();
    },
  };
}

/**
 * A submitted INSERT (or statement set): Flink shows one BIGINT column per sink named after it, with
 * -1 as the "affected rows" placeholder, and the job id. `sinkNames` are distinct (`distinctSinkColumnNames`).
 */
export function insertResult(sinkNames: readonly string[], job: JobClient, origin: ResultOrigin): TableResult {
  const schema = ResolvedSchema.of(sinkNames.map((n) => Columns.physical(n, DataTypes.BIGINT())));
  const row = [Row.insert(...sinkNames.map(() => -1n))];
  const base = staticResult(origin, schema, row);
  return {
    ...base,
    getJobClient: () => job,
    await: async () => {
      await job.waitForCompletion();
    },
  };
}

/**
 * The result columns of a statement set: a sink written by several INSERTs appears once per INSERT, as
 * `name_1`, `name_2`, ... (Flink's naming), so the result schema has distinct column names.
 */
export function distinctSinkColumnNames(sinkNames: readonly string[]): string[] {
  const count = new Map<string, number>();
  for (const n of sinkNames) count.set(n, (count.get(n) ?? 0) + 1);
  const seen = new Map<string, number>();
  return sinkNames.map((n) => {
    if (count.get(n) === 1) return n;
    const i = (seen.get(n) ?? 0) + 1;
    seen.set(n, i);
    return `${n}_${i}`;
  });
}
