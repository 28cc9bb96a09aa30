import { ValidationError } from '../errors/sluice-error.js';
import { parseStatement } from '../sql/parse.js';
import type { InsertStatement } from '../sql/ast/statements.js';
import { Table } from './table.js';
import { instanceArgument, stringArgument } from './api-arguments.js';
import type { TableEnvironment } from './table-environment.js';
import type { TableResult } from './table-result.js';
import { executeInserts } from './statements/execute-dml.js';

/**
 * Several INSERTs planned and run as one job (Flink's `StatementSet`), so they share sources and
 * commit together.
 *
 * @example
 * ```ts
 * const set = env.createStatementSet();
 * set.addInsertSql('INSERT INTO a SELECT * FROM src WHERE x > 0');
 * set.addInsertSql('INSERT INTO b SELECT * FROM src WHERE x <= 0');
 * await (await set.execute()).await();
 * ```
 */
export class StatementSet {
  private readonly inserts: InsertStatement[] = [];

  /** @internal */
  constructor(private readonly env: TableEnvironment) {}

  addInsertSql(sql: string): this {
    const stmt = parseStatement(stringArgument('addInsertSql()', 'the INSERT statement', sql));
    if (stmt.kind !== 'insert') throw new ValidationError(`Only INSERT statements can be added to a statement set, not ${stmt.kind}.`);
    this.inserts.push(stmt);
    return this;
  }

  addInsert(path: string, table: Table, overwrite = false): this {
    const target = stringArgument('addInsert()', 'the table path', path);
    const query = instanceArgument('addInsert()', 'a Table', Table, 'env.sqlQuery(...) or env.fromValues(...) makes one', table);
    return this.addInsertSql(`INSERT ${overwrite ? 'OVERWRITE' : 'INTO'} ${target} ${query.sql}`);
  }

  async explain(): Promise<string> {
    const planned = await this.env.planner.planInserts(this.inserts);
    return planned.explain();
  }

  /** Starts one job for all inserts added so far. */
  execute(): Promise<TableResult> {
    return executeInserts(this.env.session, this.env.planner, this.inserts, 'statement-set');
  }
}
