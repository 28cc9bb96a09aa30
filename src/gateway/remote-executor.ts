import type { Session } from '../api/session.js';
import type { SessionPlanner } from '../api/session-planner.js';
import type { ResultOrigin, TableResult } from '../api/table-result.js';
import { okResult, staticResult } from '../api/table-results.js';
import { ExecutionOptions } from '../config/options/execution-options.js';
import { TableOptions } from '../config/options/table-options.js';
import { ExecutionError } from '../errors/sluice-error.js';
import type { Statement } from '../sql/ast/statements.js';
import { unparseStatement } from '../sql/unparse.js';
import type { Row } from '../types/row.js';
import { ClusterOnlyObjects } from './cluster-only-objects.js';
import { GatewayClient } from './gateway-client.js';
import type { GatewayOperation } from './gateway-operation.js';
import { GatewaySession } from './gateway-session.js';
import { RemoteJobClient } from './remote-job-client.js';
import { ResultDecoder, type ResultPageJson } from './result-page.js';
import { validateForCluster } from './shadow-validation.js';

/** Where a TableEnvironment sends statements when it was created with an `endpoint`. */
export interface RemoteOptions {
  /** The SQL Gateway's REST endpoint, e.g. `http://127.0.0.1:8083`. */
  readonly endpoint: string;
  /** The session's starting configuration on the cluster (`-D` options). */
  readonly properties: Readonly<Record<string, string>>;
}

function originOf(stmt: Statement): ResultOrigin {
  switch (stmt.kind) {
    case 'query':
      return 'query';
    case 'insert':
      return 'insert';
    case 'statement-set':
      return 'statement-set';
    case 'execute':
      return stmt.statement.kind === 'query' ? 'query' : 'insert';
    case 'explain':
      return 'explain';
    case 'set':
      return 'set';
    case 'reset':
      return 'reset';
    case 'use-catalog':
    case 'use-database':
    case 'use-modules':
      return 'use';
    case 'show':
    case 'show-create':
      return 'show';
    case 'describe':
    case 'describe-catalog':
      return 'describe';
    case 'stop-job':
      return 'stop-job';
    default:
      return 'ddl';
  }
}

/**
 * Runs statements on a Flink cluster through its SQL Gateway, after Sluice's own checks in a local shadow
 * session (see validateForCluster). Results come back as ordinary TableResults, so every front end prints
 * them as it prints local ones. The gateway session is opened at the first statement.
 */
export class RemoteExecutor {
  private readonly client: GatewayClient;
  private gateway: Promise<GatewaySession> | undefined;
  private current: GatewayOperation | undefined;
  /** Java functions and what is built on them: known to the cluster session only. */
  private readonly clusterOnly = new ClusterOnlyObjects();

  constructor(
    private readonly options: RemoteOptions,
    private readonly shadow: Session,
    private readonly planner: SessionPlanner,
    private readonly warn: (message: string) => void,
  ) {
    this.client = new GatewayClient(options.endpoint);
  }

  /** Sluice's checks only: refusals, and validation against the shadow session (which DDL and SET change). */
  validate(stmt: Statement): Promise<void> {
    return validateForCluster(this.shadow, this.planner, stmt, this.warn, this.clusterOnly);
  }

  async execute(stmt: Statement, text?: string): Promise<TableResult> {
    await this.validate(stmt);
    return this.submit(stmt, text);
  }

  /**
   * Sends the statement (its source text, or Sluice's canonical SQL when there is none) and waits for the
   * first page of its result: a query's job has started, an INSERT's job was submitted (in sync mode: has
   * finished), a DDL statement is done. Throws the cluster's error as a GatewayError.
   */
  async submit(stmt: Statement, text?: string): Promise<TableResult> {
    const session = await this.session();
    const op = await session.submit(text ?? unparseStatement(stmt));
    this.current = op;
    let first: ResultPageJson | undefined;
    try {
      first = await op.nextPage();
    } catch (e) {
      await op.close();
      throw e;
    } finally {
      if (this.current === op && op.isCancelled) this.current = undefined;
    }
    const origin = originOf(stmt);
    if (first === undefined) {
      await op.close();
      throw new ExecutionError('The statement was cancelled before the cluster answered.');
    }
    const decoder = new ResultDecoder(first.results?.columns ?? []);
    if (first.isQueryResult === true) return this.queryResult(session, op, decoder, first);
    const rows = decoder.rows(first);
    for (let page = await op.nextPage(); page !== undefined; page = await op.nextPage()) rows.push(...decoder.rows(page));
    await op.close();
    this.current = undefined;
    if (first.resultKind === 'SUCCESS') return okResult(origin);
    if (first.jobID !== undefined && (origin === 'insert' || origin === 'statement-set')) {
      const job = new RemoteJobClient(session, first.jobID, origin === 'insert' ? 'insert' : 'statement set');
      const synced = this.shadow.config.get(TableOptions.TABLE_DML_SYNC);
      const result = staticResult(origin, decoder.schema, rows);
      // In sync mode the gateway answered only once the job had finished.
      return { ...result, getJobClient: () => job, await: async () => void (synced ? undefined : await job.waitForCompletion()) };
    }
    return staticResult(origin, decoder.schema, rows);
  }

  /** Cancels the statement being read (Ctrl-C): a query's operation and with it its job. */
  async interrupt(): Promise<void> {
    const op = this.current;
    this.current = undefined;
    await op?.cancel();
  }

  /** Closes the gateway session; INSERT jobs already submitted keep running on the cluster. */
  async close(): Promise<void> {
    const s = await this.gateway?.catch(() => undefined);
    await s?.close();
  }

  private session(): Promise<GatewaySession> {
    if (!this.gateway) {
      this.gateway = GatewaySession.open(this.client, this.options.properties);
      // A failed open is retried by the next statement rather than remembered.
      this.gateway.catch(() => (this.gateway = undefined));
    }
    return this.gateway;
  }

  private queryResult(session: GatewaySession, op: GatewayOperation, decoder: ResultDecoder, first: ResultPageJson): TableResult {
    const streaming = this.shadow.config.get(ExecutionOptions.RUNTIME_MODE) !== 'batch';
    const job = new RemoteJobClient(session, first.jobID ?? '', 'collect', () => op.cancel());
    let used = false;
    let ended = false;
    const finish = async (): Promise<void> => {
      if (ended) return;
      ended = true;
      if (this.current === op) this.current = undefined;
      await op.close();
    };
    return {
      resultKind: 'SUCCESS_WITH_CONTENT',
      origin: 'query',
      isChangelog: streaming,
      isStreaming: streaming,
      getResolvedSchema: () => decoder.schema,
      getJobClient: () => job,
      collect() {
        if (used) throw new Error('collect() can be called once per TableResult.');
        used = true;
        const it = (async function* (): AsyncGenerator<Row> {
          try {
            yield* decoder.rows(first);
            for (let page = await op.nextPage(); page !== undefined; page = await op.nextPage()) yield* decoder.rows(page);
          } finally {
            if (!op.isDone) await op.cancel();
            await finish();
          }
        })();
        return Object.assign(it, { close: async () => void (await it.return(undefined)) });
      },
      await: async () => {
        // The rows are the job's output: it has ended when they have been read (or the operation was cancelled).
        while (!op.isDone && !op.isCancelled && !ended) await new Promise((r) => setTimeout(r, 100));
      },
    };
  }
}
