import type { Statement } from '../sql/ast/statements.js';
import type { Property } from '../sql/ast/names.js';
import { functionLanguage } from '../api/statements/function-language.js';
import { ClusterRefusalError } from './gateway-error.js';

/**
 * Connectors, formats and catalog types that only Sluice has: a Flink cluster has no factory for them.
 * pravega: Pravega's Flink connector is released for Flink 1.x only, none for Flink 2.x.
 * nexmark: Flink's Nexmark source is a benchmark project, not a connector a cluster ships.
 * arrow: Flink has no Arrow file format for its filesystem connector; pravega-registry is read by Sluice's pravega
 * connector only.
 * in-memory / file catalogs: Sluice's; Flink's in-memory catalog is `generic_in_memory`. pravega: Pravega's Flink
 * catalog ships with its Flink 1.x connector.
 */
export const SLUICE_ONLY_CONNECTORS: ReadonlySet<string> = new Set(['pravega', 'nexmark']);
export const SLUICE_ONLY_FORMATS: ReadonlySet<string> = new Set(['arrow', 'pravega-registry']);
export const SLUICE_ONLY_CATALOGS: ReadonlySet<string> = new Set(['in-memory', 'file', 'pravega']);

const FORMAT_KEYS = new Set(['format', 'key.format', 'value.format']);

function refuse(what: string, reason: string): never {
  throw new ClusterRefusalError(`${what} cannot run on a Flink cluster: ${reason}`);
}

function option(options: readonly Property[], key: string): string | undefined {
  return options.find((p) => p.key === key)?.value;
}

function checkTableOptions(name: string, options: readonly Property[]): void {
  const connector = option(options, 'connector');
  if (connector !== undefined && SLUICE_ONLY_CONNECTORS.has(connector.toLowerCase())) {
    refuse(`Table '${name}'`, `its connector '${connector}' exists only in Sluice. Run this file without --endpoint, or read the data through a connector the cluster has (kafka, filesystem, ...).`);
  }
  for (const p of options) {
    if (FORMAT_KEYS.has(p.key) && SLUICE_ONLY_FORMATS.has(p.value.toLowerCase())) {
      refuse(`Table '${name}'`, `its format '${p.value}' ('${p.key}') exists only in Sluice. Use a format Flink has (json, csv, ...) or run without --endpoint.`);
    }
  }
}

/**
 * Throws a ClusterRefusalError naming the statement's object and the reason when a Flink cluster cannot run
 * `stmt`: JavaScript functions, and tables, catalogs or formats whose factories only Sluice has. Checked
 * before anything is sent, so a file is refused as a whole rather than half-run.
 */
export function checkRunnableOnCluster(stmt: Statement): void {
  switch (stmt.kind) {
    case 'create-function': {
      const name = stmt.name.parts.join('.');
      // Without a LANGUAGE clause a class name is Java, Flink's default; a module path is JavaScript.
      if (functionLanguage(stmt) === 'JAVASCRIPT') refuse(`Function '${name}'`, `it is written in JavaScript ('${stmt.className}'), and a Flink cluster runs functions in Java, Scala or Python.`);
      return;
    }
    case 'create-table':
      checkTableOptions(stmt.name.parts.join('.'), stmt.options);
      return;
    case 'alter-table':
      if (stmt.action.kind === 'set-options') checkTableOptions(stmt.name.parts.join('.'), stmt.action.options);
      return;
    case 'create-catalog': {
      const type = option(stmt.options, 'type');
      if (type !== undefined && SLUICE_ONLY_CATALOGS.has(type.toLowerCase())) {
        refuse(`Catalog '${stmt.name.value}'`, `its type '${type}' exists only in Sluice${type.toLowerCase() === 'pravega' ? " (Pravega's Flink catalog is released for Flink 1.x only)" : "; Flink's in-memory catalog is 'generic_in_memory'"}.`);
      }
      return;
    }
    case 'explain':
    case 'execute':
      checkRunnableOnCluster(stmt.statement);
      return;
    default:
      return;
  }
}

/**
 * Advice for a statement a cluster runs differently from Sluice, or undefined. Flink's Kafka sink asks for a one-hour
 * transaction timeout, more than a broker allows by default (`transaction.max.timeout.ms`, 15 minutes): its
 * exactly-once writer then fails at start and restarts forever. Sluice's default is 15 minutes.
 */
export function clusterAdvice(stmt: Statement): string | undefined {
  if (stmt.kind !== 'create-table') return undefined;
  const connector = option(stmt.options, 'connector')?.toLowerCase();
  if (connector !== 'kafka' || option(stmt.options, 'sink.delivery-guarantee')?.toLowerCase() !== 'exactly-once') return undefined;
  if (option(stmt.options, 'properties.transaction.timeout.ms') !== undefined) return undefined;
  return `Table '${stmt.name.parts.join('.')}': on a Flink cluster an exactly-once Kafka sink asks the broker for a 1 h transaction timeout, which a broker refuses by default (transaction.max.timeout.ms is 15 min); add 'properties.transaction.timeout.ms' = '900000' (Sluice's default) or the INSERT will not start.`;
}
