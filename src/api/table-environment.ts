import { listMaterializedTables } from '../catalog/materialized-table.js';
import { Configuration } from '../config/configuration.js';
import { TableOptions } from '../config/options/table-options.js';
import { ValidationError } from '../errors/sluice-error.js';
import type { Factory } from '../factories/factory.js';
import { parseStatement } from '../sql/parse.js';
import { isStackOverflow, tooDeeplyNested } from './stack-overflow.js';
import type { Statement } from '../sql/ast/statements.js';
import { builtinFactories } from './builtin-factories.js';
import { discoverPackageFactories } from '../factories/package-discovery.js';
import { Session, type SessionOptions } from './session.js';
import type { SessionPlanner } from './session-planner.js';
import { createSessionPlanner } from './session-planner-impl.js';
import { sqlLiteral } from './sql-literal.js';
import { executeStatement } from './statement-executor.js';
import { TableDescriptor } from './table-descriptor.js';
import { factoryArgument, instanceArgument, stringArgument } from './api-arguments.js';
import type { TableResult } from './table-result.js';
import { Table } from './table.js';
import { StatementSet } from './statement-set.js';
import { createTemporarySystemFunction, type UdfInput } from '../planner/functions/udf.js';
import { RestOptions } from '../web/rest-options.js';
import type { WebServer } from '../web/web-server.js';
import { RemoteExecutor } from '../gateway/remote-executor.js';
import { ExecutionOptions } from '../config/options/execution-options.js';
import { codeFunctionPin, type CodeModuleOptions } from './code-function.js';

/** Serve the REST API and Prometheus `/metrics` of this environment's jobs (see docs/rest-api.md). */
export interface WebOptions {
  /** Default: `rest.port` of the configuration (8081); 0 picks a free port. */
  readonly port?: number;
  /** Default: `rest.bind-address` of the configuration (127.0.0.1). */
  readonly bindAddress?: string;
}

export interface TableEnvironmentOptions extends SessionOptions {
  /** Start the REST API with the environment; `getWebUrl()` tells where, `close()` stops it. */
  readonly web?: WebOptions;
  /**
   * Run statements on an Apache Flink cluster through its SQL Gateway (`http://host:8083`) instead of in
   * this process. Sluice still parses and validates each statement first, in a local session that mirrors
   * the cluster's; what a cluster cannot run (JavaScript functions, Sluice-only connectors) is refused.
   * See README "From a laptop to a Flink cluster".
   */
  readonly endpoint?: string;
}

/**
 * The entry point of the programmatic API (Flink's `TableEnvironment`): one session with its own
 * configuration, catalogs, functions and jobs.
 *
 * @example
 * ```ts
 * import { TableEnvironment } from 'sluice';
 *
 * const env = TableEnvironment.create({ mode: 'batch' });
 * await env.executeSql(`CREATE TABLE nums (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '5',
 *   'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '5')`);
 * const result = await env.executeSql('SELECT SUM(n) AS total FROM nums');
 * for await (const row of result.collect()) console.log(row.fields); // [ 15n ]
 * await env.close();
 * ```
 */
export class TableEnvironment {
  /** @internal */
  readonly session: Session;
  /** @internal */
  readonly planner: SessionPlanner;
  private readonly ready: Promise<void>;
  private readonly warnings: ((message: string) => void)[] = [];
  private readonly web: Promise<WebServer> | undefined;
  /** Set when the environment runs its statements on a Flink cluster; the local session is then its shadow. */
  private readonly remote: RemoteExecutor | undefined;

  private constructor(options: TableEnvironmentOptions) {
    this.session = new Session(options, builtinFactories());
    this.session.warn = (m) => this.warn(m);
    this.planner = createSessionPlanner(this.session);
    if (options.endpoint !== undefined) {
      if (options.web !== undefined) throw new ValidationError('`web` and `endpoint` cannot be combined: the Flink cluster serves its own REST API and web UI.');
      const properties: Record<string, string> = { ...options.config };
      if (options.mode !== undefined) properties[ExecutionOptions.RUNTIME_MODE.key] = options.mode;
      this.remote = new RemoteExecutor({ endpoint: options.endpoint, properties }, this.session, this.planner, (m) => this.warn(m));
    }
    this.ready = Promise.all([
      this.session.catalogs.getCurrentCatalog().open(),
      options.discoverPackages === false
        ? undefined
        : discoverPackageFactories(this.session.baseDir).then((fs) => fs.forEach((f) => this.session.factories.register(f))),
    ]).then(() => undefined);
    if (options.web !== undefined) {
      const web = options.web;
      // Loaded only when asked for, so sessions without a server never load node:http. Bad options
      // reject here and surface from getWebUrl().
      this.web = import('../web/web-server.js').then((m) =>
        m.WebServer.start(this.session.jobs, () => this.session.config.toMap(), web.port ?? this.session.config.get(RestOptions.PORT), web.bindAddress ?? this.session.config.get(RestOptions.BIND_ADDRESS)),
      );
      this.web.catch(() => undefined);
    }
  }

  /**
   * A new session. `mode` sets `execution.runtime-mode`; `config` is the initial session configuration;
   * `web` starts the REST API and `/metrics`.
   */
  static create(options: TableEnvironmentOptions = {}): TableEnvironment {
    return new TableEnvironment(options);
  }

  /** The session configuration; `SET` statements change it too. */
  getConfig(): Configuration {
    return this.session.config;
  }

  /** Receives warnings (deprecated keys, unknown SET keys); default: stderr. */
  onWarning(listener: (message: string) => void): void {
    if (typeof listener !== 'function') throw new ValidationError(`onWarning() takes a function called with each warning's text; it was given ${typeof listener}.`);
    this.warnings.push(listener);
  }

  /**
   * Runs one SQL statement. DDL, SET, SHOW, DESCRIBE and EXPLAIN complete before this resolves; a
   * SELECT or INSERT has started its job, which `result.await()` waits for.
   * @example
   * const env = TableEnvironment.create();
   * await env.executeSql("CREATE CATALOG c COMMENT 'scratch' WITH ('type' = 'generic_in_memory')");
   * for await (const row of (await env.executeSql('DESCRIBE CATALOG c')).collect()) console.log(row.fields);
   * // ['name', 'c'], ['type', 'generic_in_memory'], ['comment', 'scratch']
   * @throws SqlParseError with line and column, ValidationError, ObjectNotFoundError, PlanningError.
   */
  async executeSql(sql: string): Promise<TableResult> {
    return this.executeStatement(parseStatement(stringArgument('executeSql()', 'the statement', sql)), sql);
  }

  /**
   * Runs an already parsed statement (the CLI parses whole files first). `text` is its source, sent as is
   * to a cluster (so the cluster's error positions match it); without it Sluice's canonical SQL is sent.
   */
  async executeStatement(stmt: Statement, text?: string): Promise<TableResult> {
    await this.ready;
    if (this.remote) return this.remote.execute(stmt, text);
    return executeStatement(this.session, this.planner, stmt, (m) => this.warn(m));
  }

  /** True when statements run on a Flink cluster (`endpoint`). */
  get isRemote(): boolean {
    return this.remote !== undefined;
  }

  /**
   * Only Sluice's checks of a statement bound for the cluster, without sending it: the CLI runs them over a
   * whole file first, so a typo on line 40 is reported before line 1 reaches the cluster.
   * @throws ValidationError when the environment has no `endpoint`.
   */
  async validateForCluster(stmt: Statement): Promise<void> {
    await this.ready;
    if (!this.remote) throw new ValidationError('validateForCluster() needs an environment created with an `endpoint`.');
    await this.remote.validate(stmt);
  }

  /** Cancels the statement whose result is being read on the cluster (the CLI's Ctrl-C). */
  async interruptRemote(): Promise<void> {
    await this.remote?.interrupt();
  }

  /** A query as a `Table`, checked now, run by `execute()` or `executeInsert()`. */
  async sqlQuery(sql: string): Promise<Table> {
    const stmt = parseStatement(stringArgument('sqlQuery()', 'the query', sql));
    if (stmt.kind !== 'query') throw new ValidationError(`sqlQuery() takes a query (SELECT, VALUES, WITH ...), not a ${stmt.kind} statement.`);
    await this.ready;
    const planned = await this.planner.planQuery(stmt.query).catch((e: unknown) => {
      throw isStackOverflow(e) ? tooDeeplyNested('SELECT', stmt.pos, e) : e;
    });
    return new Table(this, sql, planned.schema);
  }

  /**
   * A table of literal rows. Values follow docs/values.md (a `bigint` is a BIGINT, a `Decimal` a DECIMAL).
   *
   * @example
   * ```ts
   * const t = await env.fromValues([[1, 'a'], [2, 'b']], ['id', 'name']);
   * ```
   */
  async fromValues(rows: readonly (readonly unknown[])[], columnNames?: readonly string[]): Promise<Table> {
    if (!Array.isArray(rows) || !rows.every((r) => Array.isArray(r))) {
      throw new ValidationError(`fromValues() takes the rows as an array of arrays, one array of values per row, e.g. [[1, 'a'], [2, 'b']].`);
    }
    if (rows.length === 0) throw new ValidationError('fromValues needs at least one row.');
    const values = rows.map((r) => `(${r.map(sqlLiteral).join(', ')})`).join(',\n  ');
    const alias = columnNames ? `t(${columnNames.map((n) => '`' + n.replaceAll('`', '``') + '`').join(', ')})` : 't';
    return this.sqlQuery(`SELECT * FROM (VALUES\n  ${values}\n) AS ${alias}`);
  }

  /** Registers `table` as a temporary view under `name` (one to three parts, dot separated). */
  async createTemporaryView(name: string, table: Table): Promise<void> {
    const path = stringArgument('createTemporaryView()', 'the view name', name);
    const query = instanceArgument('createTemporaryView()', 'a Table', Table, 'env.sqlQuery(...) or env.fromValues(...) makes one', table);
    await this.executeSql(`CREATE TEMPORARY VIEW ${quotePath(path)} AS ${query.sql}`);
  }

  /** Creates a permanent table in the current (or named) catalog from a descriptor. */
  async createTable(path: string, descriptor: TableDescriptor): Promise<void> {
    await this.ready;
    this.refuseRemote('createTable()');
    const id = this.session.catalogs.qualify(splitPath(stringArgument('createTable()', 'the table path', path)));
    await this.session.catalogs.createTable(id, tableDescriptor('createTable()', descriptor).toCatalogTable(), false);
  }

  /** Creates a temporary table from a descriptor. */
  async createTemporaryTable(path: string, descriptor: TableDescriptor): Promise<void> {
    await this.ready;
    this.refuseRemote('createTemporaryTable()');
    const id = this.session.catalogs.qualify(splitPath(stringArgument('createTemporaryTable()', 'the table path', path)));
    this.session.catalogs.createTemporaryTable(id, tableDescriptor('createTemporaryTable()', descriptor).toCatalogTable(), false);
  }

  /** Several INSERTs run as one job. */
  createStatementSet(): StatementSet {
    return new StatementSet(this);
  }

  /**
   * Makes a connector, format or catalog factory available to this session. With worker threads
   * (`execution.worker-threads`), each worker plans the job again and needs the factory too: `module` says
   * where a worker imports it from (`'file.js#export'`, see `CodeModuleOptions`). Without one, the sources and
   * sinks built with a connector or format factory run on the main thread (a worker plans with stand-ins that
   * answer as they did) and the rest of the job on the workers, with a warning naming them. A catalog factory
   * needs no module: workers plan with the tables the main thread resolved.
   *
   * @example
   * ```ts
   * env.registerFactory(myFactory, { module: new URL('./my-factory.js', import.meta.url).href + '#myFactory' });
   * ```
   */
  registerFactory(factory: Factory, options: CodeModuleOptions = {}): void {
    this.refuseRemote('registerFactory()');
    const f = factoryArgument('registerFactory()', factory);
    const module = checkedModule(options, `Factory '${f.factoryIdentifier}'`);
    this.session.registerCodeFactory(f, module);
  }

  /**
   * Registers a scalar function (a plain function returning STRING, or `{ eval, resultType, argumentTypes }`),
   * a table function (`{ kind: 'table', eval, resultType }`) or an aggregate function (createAccumulator /
   * accumulate / retract / merge / getValue, resultType).
   *
   * With worker threads (`execution.worker-threads`), a function is a closure no worker can load: give
   * `module`, where a worker imports the same function (`'file.js#export'`, see `CodeModuleOptions`), and
   * it runs in the workers too; without one, the operators calling it stay on the main thread (the rest of
   * the job still runs on workers) and the job warns which. `CREATE FUNCTION name AS 'file.js#export'` needs
   * no module: every worker loads it.
   *
   * @example
   * ```ts
   * env.createTemporarySystemFunction('twice', { eval: (x: number) => x * 2, resultType: DataTypes.INT() });
   * // The same function, loaded by worker threads from this module's export `twice`:
   * env.createTemporarySystemFunction('twice', twice, { module: new URL('./udfs.js', import.meta.url).href + '#twice' });
   * ```
   */
  createTemporarySystemFunction(name: string, fn: UdfInput, options: CodeModuleOptions = {}): void {
    stringArgument('createTemporarySystemFunction()', 'the function name', name);
    if (this.remote) throw new ValidationError(`Function '${name}' cannot run on a Flink cluster: it is written in JavaScript, and a Flink cluster runs functions in Java, Scala or Python.`);
    const module = checkedModule(options, `Function '${name}'`);
    createTemporarySystemFunction(this.session.functions, name, fn, undefined, module === undefined ? codeFunctionPin(name) : undefined);
    this.session.codeFunctions.set(name, { udf: fn, module });
  }

  listTables(): Promise<string[]> {
    return this.ready.then(() => this.session.catalogs.getCurrentCatalog().listTables(this.session.catalogs.currentDatabase));
  }

  /**
   * The materialized tables of the current database, sorted (Flink 2.2's `listMaterializedTables`); `listTables` names
   * them too, as SHOW TABLES does.
   *
   * @example
   * ```ts
   * await env.executeSql("CREATE MATERIALIZED TABLE totals WITH ('connector' = 'blackhole') AS SELECT a FROM src");
   * await env.listMaterializedTables(); // ['totals']
   * ```
   */
  listMaterializedTables(): Promise<string[]> {
    return this.ready.then(() => listMaterializedTables(this.session.catalogs.getCurrentCatalog(), this.session.catalogs.currentDatabase));
  }

  /**
   * Where the REST API is served (`http://127.0.0.1:8081`), once it listens.
   * @throws ValidationError when the environment was created without `web`; ExecutionError when the port could not be bound.
   */
  async getWebUrl(): Promise<string> {
    if (this.web === undefined) throw new ValidationError('The REST API is off: create the TableEnvironment with the `web` option.');
    return (await this.web).url;
  }

  /** Cancels running jobs, stops the REST API and closes the catalogs. */
  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.remote?.close();
    for (const job of this.session.jobs.active()) await job.cancel().catch(() => undefined);
    const web = await this.web?.catch(() => undefined);
    await web?.close();
    await this.session.catalogs.close();
  }

  /** `table.display.max-column-width`, for renderers. */
  get maxColumnWidth(): number {
    return this.session.config.get(TableOptions.DISPLAY_MAX_COLUMN_WIDTH);
  }

  /** Calls that only change the local session would leave the cluster's behind: refused with an endpoint. */
  private refuseRemote(call: string): void {
    if (this.remote) throw new ValidationError(`${call} is not available on an environment with an endpoint: the Flink cluster would not see it. Use executeSql() with the SQL statement.`);
  }

  private warn(message: string): void {
    if (this.warnings.length === 0) console.error(`[WARNING] ${message}`);
    for (const w of this.warnings) w(message);
  }
}

/** `options.module`, checked to be a module reference a worker can import. */
function checkedModule(options: CodeModuleOptions, owner: string): string | undefined {
  const m: unknown = options.module;
  if (m === undefined) return undefined;
  if (typeof m !== 'string' || m.trim() === '' || m.endsWith('#')) {
    throw new ValidationError(`${owner}: module must name a module and its export, as 'file.js#export' (a path, a file: URL or a package name), not ${JSON.stringify(m) ?? String(m)}.`);
  }
  return m;
}

function tableDescriptor(method: string, v: unknown): TableDescriptor {
  return instanceArgument(method, 'a TableDescriptor', TableDescriptor, "TableDescriptor.forConnector('datagen').schema(...).build() makes one", v);
}

function splitPath(path: string): string[] {
  return path.split('.').map((p) => p.replace(/^`(.*)`$/, '$1'));
}

function quotePath(path: string): string {
  return splitPath(path)
    .map((p) => '`' + p.replaceAll('`', '``') + '`')
    .join('.');
}

