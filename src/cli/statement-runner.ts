import type { TableEnvironment } from '../api/table-environment.js';
import type { TableResult } from '../api/table-result.js';
import { resolveLocalTimeZone, TableOptions } from '../config/options/table-options.js';
import { ValidationError } from '../errors/sluice-error.js';
import type { JobClient, JobExecutionResult } from '../runtime/job-client.js';
import type { InsertStatement, Statement } from '../sql/ast/statements.js';
import type { OutputFormat } from './args.js';
import type { ConsoleIO } from './console-io.js';
import { printResult } from './result-printer.js';
import { showProgress } from './progress.js';

// Flink's SQL client (through the gateway) answers statements of a set with these messages.
const ONLY_INSERT_IN_SET = "Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' statement to submit Statement Set.";

/** What happened to one statement, so the REPL and the file runner can react. */
export type StatementOutcome = 'done' | 'quit' | 'help' | 'clear';

/**
 * Runs statements one at a time for a front end, with the client-side state Flink's SQL client keeps:
 * an open `BEGIN STATEMENT SET` collecting INSERTs, and the jobs started. Errors are thrown to the
 * caller, which prints them with the statement's location.
 */
export class StatementRunner {
  /** INSERT jobs started, for the file runner to wait for. */
  readonly jobs: JobClient[] = [];
  private statementSet: InsertStatement[] | undefined;
  /** The INSERTs' source texts, while every one has its text: a cluster then gets the statement set as written. */
  private statementSetTexts: string[] | undefined;
  /** The result being printed, so Ctrl-C can stop it. */
  current: TableResult | undefined;
  /** In the REPL, results follow `sql-client.execution.result-mode`; files always print tableau. */
  interactive = false;

  constructor(
    private readonly env: TableEnvironment,
    private readonly io: ConsoleIO,
    private readonly output: OutputFormat,
  ) {}

  private printer(result: TableResult): Promise<void> {
    const config = this.env.getConfig();
    // A zone the session set is checked now, so a bad SET fails at its own statement; the system zone (the
    // default) is resolved only when rows are printed.
    const zone = config.get(TableOptions.LOCAL_TIME_ZONE) === 'default' ? undefined : resolveLocalTimeZone(config);
    return printResult(result, this.io, {
      output: this.output,
      maxColumnWidth: this.env.maxColumnWidth,
      maxTableRows: this.env.getConfig().get(TableOptions.MAX_TABLE_RESULT_ROWS),
      resultMode: this.interactive ? this.env.getConfig().get(TableOptions.RESULT_MODE) : 'tableau',
      // Flink's SQL client prints TIMESTAMP_LTZ values in the session's zone.
      timeZone: () => zone ?? resolveLocalTimeZone(config),
    });
  }

  get inStatementSet(): boolean {
    return this.statementSet !== undefined;
  }

  private status(text: string): void {
    (this.output === 'tableau' ? this.io.out : this.io.err)(text);
  }

  /** `text`: the statement's source, for a cluster (see TableEnvironment.executeStatement). */
  async run(stmt: Statement, text?: string): Promise<StatementOutcome> {
    switch (stmt.kind) {
      case 'quit':
        return 'quit';
      case 'help':
        return 'help';
      case 'clear':
        return 'clear';
      case 'begin-statement-set':
        if (this.statementSet) throw new ValidationError(ONLY_INSERT_IN_SET);
        this.statementSet = [];
        this.statementSetTexts = [];
        this.status('[INFO] Execute statement succeeded.\n');
        return 'done';
      case 'end': {
        const inserts = this.statementSet;
        if (!inserts) throw new ValidationError("No Statement Set to submit. 'END' statement should be used after 'BEGIN STATEMENT SET'.");
        const texts = this.statementSetTexts;
        this.statementSet = undefined;
        this.statementSetTexts = undefined;
        if (inserts.length === 0) {
          this.status('[INFO] Execute statement succeeded.\n');
          return 'done';
        }
        const setText = texts?.length === inserts.length ? `EXECUTE STATEMENT SET\nBEGIN\n${texts.map((t) => `${t};\n`).join('')}END` : undefined;
        await this.execute({ kind: 'statement-set', inserts, pos: stmt.pos }, setText);
        return 'done';
      }
      default:
        if (this.statementSet) {
          if (stmt.kind !== 'insert') {
            throw new ValidationError(ONLY_INSERT_IN_SET);
          }
          this.statementSet.push(stmt);
          if (text !== undefined) this.statementSetTexts?.push(text);
          this.status('[INFO] Execute statement succeeded.\n');
          return 'done';
        }
        await this.execute(stmt, text);
        return 'done';
    }
  }

  /** Cancels the query being printed (Ctrl-C); the session stays. */
  async interrupt(): Promise<void> {
    const r = this.current;
    this.current = undefined;
    const job = r?.getJobClient();
    if (job && r?.origin === 'query') await job.cancel().catch(() => undefined);
    // On a cluster, a statement still waiting for its first result (a query starting, an INSERT in sync mode).
    if (!r) await this.env.interruptRemote();
  }

  private async execute(stmt: Statement, text?: string): Promise<void> {
    const result = await this.env.executeStatement(stmt, text);
    const isDml = result.origin === 'insert' || result.origin === 'statement-set';
    if (isDml && this.env.getConfig().get(TableOptions.TABLE_DML_SYNC)) {
      const job = result.getJobClient();
      const stopProgress = job ? showProgress([job], this.io) : () => {};
      let ended: JobExecutionResult | undefined;
      try {
        await result.await();
        ended = await job?.waitForCompletion();
      } finally {
        stopProgress([ended]);
      }
      this.status('[INFO] Complete execution of the SQL update statement.\n');
      return;
    }
    this.current = result;
    try {
      await this.printer(result);
      if (result.origin === 'query' && this.current === result) await result.await();
    } finally {
      this.current = undefined;
    }
    // A materialized table's refresh jobs (CREATE MATERIALIZED TABLE, RESUME, REFRESH) are waited for at the end of a
    // file too; a query's job ended with its printing.
    const job = result.getJobClient();
    if (job && result.origin !== 'query') this.jobs.push(job);
  }
}
