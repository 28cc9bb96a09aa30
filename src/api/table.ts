import type { ResolvedSchema } from '../types/schema.js';
import type { TableEnvironment } from './table-environment.js';
import type { TableResult } from './table-result.js';
import { stringArgument } from './api-arguments.js';

/**
 * A query that has been checked but not run (Flink's `Table`). It keeps its SQL text, so it can be
 * run, explained, inserted somewhere or registered as a view any number of times.
 *
 * @example
 * ```ts
 * const big = await env.sqlQuery('SELECT * FROM orders WHERE amount > 100');
 * await (await big.executeInsert('big_orders')).await();
 * ```
 */
export class Table {
  /** @internal */
  constructor(
    private readonly env: TableEnvironment,
    /** The query's SQL text. */
    readonly sql: string,
    private readonly schema: ResolvedSchema,
  ) {}

  getResolvedSchema(): ResolvedSchema {
    return this.schema;
  }

  /** Runs the query; read the rows with `collect()`. */
  execute(): Promise<TableResult> {
    return this.env.executeSql(this.sql);
  }

  /** Flink's three-section plan text. */
  async explain(): Promise<string> {
    const result = await this.env.executeSql(`EXPLAIN PLAN FOR ${this.sql}`);
    for await (const row of result.collect()) return String(row.fields[0]);
    return '';
  }

  /** `INSERT INTO path <this query>`; the job is running when this resolves. */
  executeInsert(path: string, overwrite = false): Promise<TableResult> {
    const target = stringArgument('executeInsert()', 'the table path', path);
    return this.env.executeSql(`INSERT ${overwrite ? 'OVERWRITE' : 'INTO'} ${target} ${this.sql}`);
  }
}
