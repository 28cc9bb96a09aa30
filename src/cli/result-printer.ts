import type { TableResult } from '../api/table-result.js';
import type { OutputFormat } from './args.js';
import type { ConsoleIO } from './console-io.js';
import { TableauPrinter } from './render/tableau.js';
import { printLiveTable } from './render/live-table.js';
import { csvHeader, rowToCsvLine, rowToJsonLine } from './render/row-formats.js';

export interface PrintOptions {
  readonly output: OutputFormat;
  /**
   * The REPL's `sql-client.execution.result-mode`: `tableau` prints rows as they come, `changelog` always
   * shows the `op` column, `table` keeps a live view of the materialized result. Files use tableau.
   */
  readonly resultMode?: 'table' | 'changelog' | 'tableau';
  readonly maxColumnWidth: number;
  /** `sql-client.execution.max-table-result.rows`: rows the table result mode keeps, the oldest going first. */
  readonly maxTableRows?: number;
  /**
   * The zone TIMESTAMP_LTZ values print in, asked for only when rows are printed: resolving the system zone
   * (the first `Intl.DateTimeFormat`) costs 30-50 ms, which a script of DDL and INSERTs need not pay.
   */
  readonly timeZone?: () => string;
}

/**
 * Prints a statement's result as Flink's SQL client does: `[INFO]` lines for statements without
 * content, tableau for rows (or jsonl / csv, with status lines then on stderr so stdout stays data).
 * Resolves when every row has been printed.
 */
export async function printResult(result: TableResult, io: ConsoleIO, options: PrintOptions): Promise<void> {
  const status = options.output === 'tableau' ? io.out : io.err;
  if (result.resultKind === 'SUCCESS') {
    status('[INFO] Execute statement succeeded.\n');
    return;
  }
  if (result.origin === 'insert' || result.origin === 'statement-set') {
    status('[INFO] Submitting SQL update statement to the cluster...\n');
    status('[INFO] SQL update statement has been successfully submitted to the cluster:\n');
    status(`Job ID: ${result.getJobClient()?.jobId ?? ''}\n\n`);
    return;
  }
  const schema = result.getResolvedSchema();
  const columns = schema.columns.map((c) => ({ name: c.name, type: c.type }));
  const rowType = schema.toRowType();
  const fmt = options.timeZone === undefined ? {} : { timeZone: options.timeZone() };
  const streaming = (result.isStreaming || options.resultMode === 'changelog') && result.origin === 'query';
  switch (options.output) {
    case 'jsonl':
      for await (const row of result.collect()) io.out(rowToJsonLine(row, rowType, fmt) + '\n');
      return;
    case 'csv': {
      io.out(csvHeader(rowType, streaming) + '\n');
      for await (const row of result.collect()) io.out(rowToCsvLine(row, rowType, streaming, fmt) + '\n');
      return;
    }
    case 'tableau': {
      if ((options.resultMode === 'table' || options.resultMode === 'changelog') && result.origin === 'query' && io.isTTY) {
        await printLiveTable(result, columns, io, { maxColumnWidth: options.maxColumnWidth, streaming: false, ...fmt }, options.resultMode, options.maxTableRows);
        return;
      }
      // Statement results (SHOW JOBS, SET;, DESCRIBE) are never cut: their ids and keys must be copyable. EXPLAIN and
      // SHOW CREATE TABLE / VIEW print through here too, as Flink 2.x's client does: a one-row table whose `result`
      // column is as wide as the whole text, its newlines counted as one column each (scripts/flink-sql-client.sh).
      const maxColumnWidth = result.origin === 'query' ? options.maxColumnWidth : Number.POSITIVE_INFINITY;
      const tableauOptions = { maxColumnWidth, streaming, nullAsEmpty: result.origin !== 'query', ...fmt };
      if (!streaming) {
        const rows = [];
        for await (const row of result.collect()) rows.push(row);
        io.out(TableauPrinter.render(columns, rows, tableauOptions));
        return;
      }
      const printer = TableauPrinter.forStreaming(columns, tableauOptions);
      let headerShown = false;
      for await (const row of result.collect()) {
        if (!headerShown) {
          io.out(printer.header());
          headerShown = true;
        }
        io.out(printer.row(row));
      }
      io.out(printer.footer());
      return;
    }
  }
}
