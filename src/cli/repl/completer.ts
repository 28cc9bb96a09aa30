import type { TableEnvironment } from '../../api/table-environment.js';
import { isSinkFactory, isSourceFactory } from '../../factories/dynamic-table-factory.js';
import { LazyFactory } from '../../factories/lazy-factory.js';
import { sessionOptionKeys } from '../../config/options/session-options.js';

const KEYWORDS = [
  'SELECT', 'FROM', 'WHERE', 'GROUP BY', 'HAVING', 'ORDER BY', 'LIMIT', 'INSERT INTO', 'INSERT OVERWRITE', 'VALUES', 'CREATE TABLE',
  'CREATE TEMPORARY TABLE', 'CREATE VIEW', 'CREATE DATABASE', 'CREATE CATALOG', 'CREATE FUNCTION', 'DROP TABLE', 'DROP VIEW', 'ALTER TABLE',
  'SHOW TABLES', 'SHOW DATABASES', 'SHOW CATALOGS', 'SHOW VIEWS', 'SHOW FUNCTIONS', 'SHOW JOBS', 'SHOW CREATE TABLE', 'SHOW CURRENT CATALOG',
  'SHOW CURRENT DATABASE', 'DESCRIBE', 'EXPLAIN', 'USE', 'USE CATALOG', 'SET', 'RESET', 'STOP JOB', 'BEGIN STATEMENT SET', 'END', 'HELP', 'QUIT',
  'EXIT', 'CLEAR', 'WITH', 'AS', 'AND', 'OR', 'NOT', 'NULL', 'IS', 'IN', 'BETWEEN', 'LIKE', 'CASE', 'WHEN', 'THEN', 'ELSE', 'CAST', 'JOIN',
  'LEFT JOIN', 'INNER JOIN', 'ON', 'UNION ALL', 'DISTINCT', 'TABLE', 'TUMBLE', 'HOP', 'CUMULATE', 'SESSION', 'DESCRIPTOR', 'INTERVAL',
  'WATERMARK FOR', 'PRIMARY KEY', 'NOT ENFORCED', 'PARTITIONED BY', 'METADATA', 'VIRTUAL', 'COMMENT',
];

/** Completion works word by word, so `SHOW CATA<tab>` finds CATALOGS. */
const KEYWORD_WORDS = [...new Set(KEYWORDS.flatMap((k) => k.split(' ')))];

/**
 * Tab completion for the REPL: inside `WITH (...)` of a CREATE TABLE, the option keys of the connector
 * named there (or `'connector'` and its identifiers); after `SET '`, session option keys; otherwise
 * keywords, catalogs, databases, tables, columns of known tables, and function names.
 */
export async function complete(env: TableEnvironment, buffer: string, line: string): Promise<[string[], string]> {
  const word = /[\w.'`-]*$/.exec(line)?.[0] ?? '';
  const full = buffer + line;
  const withStart = full.toUpperCase().lastIndexOf('WITH (');
  if (withStart >= 0 && !full.slice(withStart).includes(')')) {
    const connector = /'connector'\s*=\s*'([^']*)'/i.exec(full.slice(withStart))?.[1];
    const quoted = word.startsWith("'") ? word.slice(1) : word;
    let keys: string[];
    if (connector === undefined) {
      if (/'connector'\s*=\s*'?[\w-]*$/i.test(full)) {
        keys = env.session.factories.all().filter((f) => isSourceFactory(f) || isSinkFactory(f)).map((f) => f.factoryIdentifier);
      } else keys = ['connector'];
    } else {
      const factory = env.session.factories.all().find((f) => f.factoryIdentifier === connector);
      if (factory instanceof LazyFactory) await factory.ensureLoaded();
      keys = factory ? [...factory.requiredOptions(), ...factory.optionalOptions()].map((o) => o.key) : [];
    }
    const hits = [...new Set(keys)].filter((k) => k.startsWith(quoted)).map((k) => `'${k}'`);
    return [hits, word];
  }
  if (/SET\s+'[^']*$/i.test(full)) {
    const partial = word.replace(/^'/, '');
    return [sessionOptionKeys().filter((k) => k.startsWith(partial)).map((k) => `'${k}'`), word];
  }
  const candidates = new Set<string>();
  const upper = word.toUpperCase();
  for (const k of KEYWORD_WORDS) if (k.startsWith(upper)) candidates.add(k);
  const cm = env.session.catalogs;
  for (const c of cm.listCatalogs()) candidates.add(c);
  try {
    const catalog = cm.getCurrentCatalog();
    for (const d of await catalog.listDatabases()) candidates.add(d);
    const tables = await catalog.listTables(cm.currentDatabase);
    const temps = cm.listTemporaryTables(cm.currentCatalog, cm.currentDatabase);
    for (const t of [...tables, ...temps.keys()]) {
      candidates.add(t);
      if (new RegExp(`\\b${t}\\b`, 'i').test(full)) {
        const resolved = await cm.getTable([t]);
        for (const col of resolved?.table.schema.columnNames() ?? []) candidates.add(col);
      }
    }
  } catch {
    // Completion must never break the prompt; a catalog that cannot be read just offers fewer names.
  }
  for (const f of env.session.functions.names()) candidates.add(f);
  const lower = word.toLowerCase();
  const hits = [...candidates].filter((c) => c.toLowerCase().startsWith(lower) && c.length > 0).sort();
  return [hits, word];
}
