import { ValidationError } from '../errors/sluice-error.js';
import { unsupportedStatementError } from './statements/unsupported.js';
import type { DdlStatement } from '../sql/ast/ddl.js';
import type { Statement } from '../sql/ast/statements.js';
import type { Session } from './session.js';
import type { SessionPlanner } from './session-planner.js';
import { executeDdl } from './statements/execute-ddl.js';
import { executeMaterializedTable } from './statements/execute-materialized-table.js';
import { executeExplain, executeInserts, executeQuery, executeStopJob } from './statements/execute-dml.js';
import { executeReset, executeSet, executeUse } from './statements/execute-set.js';
import { executeDescribe, executeDescribeCatalog, executeShow, executeShowCreate } from './statements/execute-show.js';
import { isStackOverflow, tooDeeplyNested } from './stack-overflow.js';
import { okResult } from './table-results.js';
import type { TableResult } from './table-result.js';

const DDL_KINDS: ReadonlySet<Statement['kind']> = new Set<DdlStatement['kind']>([
  'create-table',
  'create-view',
  'create-catalog',
  'create-database',
  'create-function',
  'drop',
  'alter-table',
  'alter-view',
  'alter-database',
  'alter-catalog',
]);

/** CREATE / DROP / ALTER of any catalog object. */
export function isDdlStatement(stmt: Statement): stmt is DdlStatement {
  return DDL_KINDS.has(stmt.kind);
}

/**
 * Runs one parsed statement against a session. Client-only commands (HELP, QUIT, CLEAR, BEGIN STATEMENT
 * SET / END) are the front end's business and are refused here with a message saying so.
 */
export async function executeStatement(
  session: Session,
  planner: SessionPlanner,
  stmt: Statement,
  warn: (message: string) => void,
): Promise<TableResult> {
  try {
    const result = await executeUnguarded(session, planner, stmt, warn);
    if (changesFunctions(stmt)) session.functionLog.push(stmt);
    return result;
  } catch (e) {
    if (isStackOverflow(e)) throw tooDeeplyNested(statementName(stmt), 'pos' in stmt ? stmt.pos : undefined, e);
    throw e;
  }
}

/** Statements a worker thread replays into its function registry (the rest of a session reaches it with each job). */
function changesFunctions(stmt: Statement): boolean {
  return stmt.kind === 'create-function' || (stmt.kind === 'drop' && stmt.objectType === 'FUNCTION');
}

/** How an error names a statement kind: `create-view` -> `CREATE VIEW`, `query` -> `SELECT`. */
function statementName(stmt: Statement): string {
  return stmt.kind === 'query' ? 'SELECT' : stmt.kind.replaceAll('-', ' ').toUpperCase();
}

async function executeUnguarded(session: Session, planner: SessionPlanner, stmt: Statement, warn: (message: string) => void): Promise<TableResult> {
  if (isDdlStatement(stmt)) return executeDdl(session, planner, stmt);
  switch (stmt.kind) {
    case 'query':
      return executeQuery(session, planner, stmt);
    case 'insert':
      return executeInserts(session, planner, [stmt], 'insert');
    case 'statement-set':
      return executeInserts(session, planner, stmt.inserts, 'statement-set');
    case 'execute':
      return stmt.statement.kind === 'query' ? executeQuery(session, planner, stmt.statement) : executeInserts(session, planner, [stmt.statement], 'insert');
    case 'explain':
      return executeExplain(planner, stmt);
    case 'set':
      return executeSet(session, stmt, warn);
    case 'reset':
      return executeReset(session, stmt);
    case 'use-catalog':
    case 'use-database':
      return executeUse(session, stmt);
    case 'use-modules':
      if (stmt.names.length !== 1 || stmt.names[0]!.value.toLowerCase() !== 'core') {
        throw new ValidationError(`Sluice has only the 'core' module; USE MODULES ${stmt.names.map((n) => n.value).join(', ')} is not possible.`);
      }
      return okResult('use');
    case 'show':
      return executeShow(session, stmt);
    case 'show-create':
      return executeShowCreate(session, stmt);
    case 'describe':
      return executeDescribe(session, stmt);
    case 'describe-catalog':
      return executeDescribeCatalog(session, stmt);
    case 'stop-job':
      return executeStopJob(session, stmt);
    case 'load-module':
    case 'unload-module':
      throw new ValidationError(`Modules are not supported: Sluice has only the built-in 'core' module.`);
    case 'add-jar':
    case 'remove-jar':
      throw new ValidationError(
        `${stmt.kind === 'add-jar' ? 'ADD' : 'REMOVE'} JAR '${stmt.path}' cannot run locally: Sluice loads no Java code, its functions are JavaScript (CREATE FUNCTION f AS './module.js#export'). Run Java functions on a Flink cluster: sluice --endpoint <SQL Gateway URL> (TableEnvironment.create({ endpoint })).`,
      );
    case 'truncate-table':
    case 'delete':
      throw new ValidationError(`${stmt.kind === 'delete' ? 'DELETE' : 'TRUNCATE TABLE'} is not supported by any Sluice connector yet.`);
    case 'create-materialized-table':
    case 'drop-materialized-table':
    case 'alter-materialized-table':
      return executeMaterializedTable(session, planner, stmt);
    case 'unsupported':
      throw unsupportedStatementError(stmt);
    case 'begin-statement-set':
    case 'end':
    case 'help':
    case 'quit':
    case 'clear':
      throw new ValidationError(`'${stmt.kind.toUpperCase().replaceAll('-', ' ')}' is a command of the SQL client, not a statement; use it in the sluice REPL or a SQL file.`);
    default: {
      const never: never = stmt;
      throw new ValidationError(`Unsupported statement kind '${(never as { kind: string }).kind}'.`);
    }
  }
}
