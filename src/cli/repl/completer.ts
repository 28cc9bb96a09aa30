import type { TableEnvironment } from '../../api/table-environment.js';
import { isSinkFactory, isSourceFactory } from '../../factories/dynamic-table-factory.js';
import type { Factory } from '../../factories/factory.js';
import { isDecodingFormatFactory, isEncodingFormatFactory } from '../../factories/format.js';
import { LazyFactory } from '../../factories/lazy-factory.js';
import { sessionOptionKeys } from '../../config/options/session-options.js';

const KEYWORDS = [
  'SELECT', 'FROM', 'WHERE', 'GROUP BY', 'HAVING', 'ORDER BY', 'LIMIT', 'INSERT INTO', 'INSERT OVERWRITE', 'VALUES', 'CREATE TABLE',
  'CREATE TEMPORARY TABLE', 'CREATE VIEW', 'CREATE DATABASE', 'CREATE CATALOG', 'CREATE FUNCTION', 'DROP TABLE', 'DROP VIEW', 'ALTER TABLE',
  'SHOW TABLES', 'SHOW DATABASES', 'SHOW CATALOGS', 'SHOW VIEWS', 'SHOW FUNCTIONS', 'SHOW JOBS', 'SHOW CREATE TABLE', 'SHOW CURRENT CATALOG',
  'SHOW CURRENT DATABASE', 'SHOW CREATE CATALOG', 'DESCRIBE', 'DESCRIBE CATALOG', 'ALTER CATALOG', 'DROP CATALOG', 'EXPLAIN', 'USE', 'USE CATALOG', 'SET', 'RESET', 'STOP JOB', 'BEGIN STATEMENT SET', 'END', 'HELP', 'QUIT',
  'EXIT', 'CLEAR', 'WITH', 'AS', 'AND', 'OR', 'NOT', 'NULL', 'IS', 'IN', 'BETWEEN', 'LIKE', 'CASE', 'WHEN', 'THEN', 'ELSE', 'CAST', 'JOIN',
  'LEFT JOIN', 'INNER JOIN', 'ON', 'UNION ALL', 'DISTINCT', 'TABLE', 'TUMBLE', 'HOP', 'CUMULATE', 'SESSION', 'DESCRIPTOR', 'INTERVAL',
  'WATERMARK FOR', 'PRIMARY KEY', 'NOT ENFORCED', 'PARTITIONED BY', 'METADATA', 'VIRTUAL', 'COMMENT',
  'CREATE MATERIALIZED TABLE', 'DROP MATERIALIZED TABLE', 'ALTER MATERIALIZED TABLE', 'SHOW MATERIALIZED TABLES', 'SHOW CREATE MATERIALIZED TABLE',
  'FRESHNESS', 'REFRESH_MODE', 'CONTINUOUS', 'FULL', 'SUSPEND', 'RESUME', 'REFRESH', 'PARTITION',
];

/** Completion works word by word, so `SHOW CATA<tab>` finds CATALOGS. */
const KEYWORD_WORDS = [...new Set(KEYWORDS.flatMap((k) => k.split(' ')))];

/** Keywords after which a table name comes. */
const TABLE_CONTEXT = new Set(['FROM', 'JOIN', 'INTO', 'OVERWRITE', 'TABLE', 'DESCRIBE', 'DESC', 'LIKE', 'UPDATE']);
/** Where a catalog's name comes (USE / DESCRIBE [EXTENDED] / ALTER / DROP / SHOW CREATE CATALOG): catalogs only. */
const CATALOG_CONTEXT = /\bCATALOG\s+(?:EXTENDED\s+)?$/i;
/** Words that may follow DESCRIBE besides a table's name. */
const AFTER_DESCRIBE = ['CATALOG', 'EXTENDED'];
/** Keywords after which an expression comes: columns and functions first. */
const EXPRESSION_CONTEXT = new Set(['SELECT', 'WHERE', 'ON', 'BY', 'HAVING', 'AND', 'OR', 'NOT', 'WHEN', 'THEN', 'ELSE', 'DISTINCT', 'CASE']);

/** Tables whose columns are offered; a catalog of thousands of tables must not stall the prompt. */
const MAX_TABLES_FOR_COLUMNS = 50;

/** Option keys whose value is a format name. */
const FORMAT_KEYS = /'(?:format|key\.format|value\.format)'\s*=\s*'?[\w-]*$/i;

/**
 * Tab completion for the REPL, by context:
 * - inside `WITH (...)`: `'connector'` and its identifiers, a format's name after `'format' =`, then
 *   the option keys of the connector and of the formats named there (`'json.ignore-parse-errors'`);
 * - after `SET '`: session option keys;
 * - after FROM, JOIN, INTO, TABLE, DESCRIBE: tables and views (catalogs and databases too); after CATALOG: catalogs;
 * - after SELECT, WHERE, ON, BY, ...: columns of the tables the statement names, then functions;
 * - elsewhere keywords, then every name.
 * Keywords and functions come in the case the user is typing (`sel` -> `select`); names keep their own.
 */
export async function complete(env: TableEnvironment, buffer: string, line: string): Promise<[string[], string]> {
  const word = /[\w.'`-]*$/.exec(line)?.[0] ?? '';
  const full = buffer + (buffer === '' ? '' : '\n') + line;
  const withStart = full.toUpperCase().lastIndexOf('WITH (');
  if (withStart >= 0 && !full.slice(withStart).includes(')')) return [await withOptions(env, full.slice(withStart), word), word];
  if (/SET\s+'[^']*$/i.test(full)) {
    const partial = word.replace(/^'/, '');
    return [sessionOptionKeys().filter((k) => k.startsWith(partial)).map((k) => `'${k}'`), word];
  }
  const lowerCase = word !== '' && word === word.toLowerCase() && /[a-z]/.test(word);
  const cased = (k: string): string => (lowerCase ? k.toLowerCase() : k);
  const before = previousKeyword(full.slice(0, full.length - word.length));
  const names = await catalogNames(env, full);
  const functions = env.session.functions.names();
  const keywords = KEYWORD_WORDS.map(cased);
  let ordered: string[];
  if (CATALOG_CONTEXT.test(full.slice(0, full.length - word.length))) ordered = names.catalogs;
  else if (before === 'DESCRIBE' || before === 'DESC') ordered = [...names.tables, ...AFTER_DESCRIBE.map(cased), ...names.catalogs, ...names.databases];
  else if (before !== undefined && TABLE_CONTEXT.has(before)) ordered = [...names.tables, ...names.catalogs, ...names.databases];
  else if (before !== undefined && EXPRESSION_CONTEXT.has(before)) ordered = [...names.columns, ...functions.map(cased), ...keywords];
  else ordered = [...keywords, ...names.catalogs, ...names.databases, ...names.tables, ...names.columns, ...functions.map(cased)];
  const lower = word.toLowerCase();
  const hits = [...new Set(ordered)].filter((c) => c.length > 0 && c.toLowerCase().startsWith(lower));
  // Readline lists candidates as given; in context, the likely ones come first, else alphabetical.
  return [before !== undefined && (TABLE_CONTEXT.has(before) || EXPRESSION_CONTEXT.has(before)) ? hits : hits.sort(), word];
}

/** The last keyword before the word being typed, upper case; a comma in a select list counts as SELECT. */
function previousKeyword(text: string): string | undefined {
  const m = /([A-Za-z_]+|,)\s*$/.exec(text);
  if (m === null) return undefined;
  if (m[1] === ',') {
    const kw = [...text.matchAll(/\b(SELECT|FROM|WHERE|BY|ON|HAVING|JOIN)\b/gi)].pop()?.[1]?.toUpperCase();
    return kw === 'FROM' || kw === 'JOIN' ? 'FROM' : kw === undefined ? undefined : 'SELECT';
  }
  const w = m[1]!.toUpperCase();
  return KEYWORD_WORDS.includes(w) || TABLE_CONTEXT.has(w) ? w : undefined;
}

interface Names {
  readonly catalogs: string[];
  readonly databases: string[];
  readonly tables: string[];
  /** Columns of the tables the statement names so far. */
  readonly columns: string[];
}

async function catalogNames(env: TableEnvironment, full: string): Promise<Names> {
  const cm = env.session.catalogs;
  const names: Names = { catalogs: cm.listCatalogs(), databases: [], tables: [], columns: [] };
  try {
    const catalog = cm.getCurrentCatalog();
    names.databases.push(...(await catalog.listDatabases()));
    const tables = await catalog.listTables(cm.currentDatabase);
    const temps = cm.listTemporaryTables(cm.currentCatalog, cm.currentDatabase);
    const all = [...new Set([...tables, ...temps.keys()])].sort();
    names.tables.push(...all);
    // Columns of the tables the statement names; before it names any (`SELECT <tab>`), of every table.
    const named = all.filter((t) => new RegExp(`\\b${t.replace(/[^\w]/g, '\\$&')}\\b`, 'i').test(full));
    for (const t of (named.length > 0 ? named : all).slice(0, MAX_TABLES_FOR_COLUMNS)) {
      const resolved = await cm.getTable([t]);
      names.columns.push(...(resolved?.table.schema.columnNames() ?? []));
    }
  } catch {
    // Completion must never break the prompt; a catalog that cannot be read just offers fewer names.
  }
  return names;
}

/** Inside `WITH (`: connector names, format names, or the option keys of the connector and its formats. */
async function withOptions(env: TableEnvironment, withText: string, word: string): Promise<string[]> {
  const factories = env.session.factories.all();
  const quoted = word.startsWith("'") ? word.slice(1) : word;
  const filter = (keys: readonly string[]): string[] => [...new Set(keys)].filter((k) => k.startsWith(quoted)).map((k) => `'${k}'`);
  if (/'connector'\s*=\s*'?[\w-]*$/i.test(withText)) {
    return filter(factories.filter((f) => isSourceFactory(f) || isSinkFactory(f)).map((f) => f.factoryIdentifier).sort());
  }
  if (FORMAT_KEYS.test(withText)) {
    return filter(factories.filter((f) => isDecodingFormatFactory(f) || isEncodingFormatFactory(f)).map((f) => f.factoryIdentifier).sort());
  }
  const connector = /'connector'\s*=\s*'([^']*)'/i.exec(withText)?.[1];
  if (connector === undefined) return filter(['connector']);
  const keys: string[] = [...(await optionKeys(factories.find((f) => f.factoryIdentifier === connector)))];
  // A format's own options go under its name: 'format' = 'json' offers 'json.ignore-parse-errors'.
  for (const m of withText.matchAll(/'((?:key\.|value\.)?)format'\s*=\s*'([^']*)'/gi)) {
    const prefix = m[1]!;
    const format = factories.find((f) => f.factoryIdentifier === m[2] && (isDecodingFormatFactory(f) || isEncodingFormatFactory(f)));
    for (const k of await optionKeys(format)) keys.push(`${prefix}${m[2]}.${k}`);
  }
  return filter(keys);
}

async function optionKeys(factory: Factory | undefined): Promise<string[]> {
  if (factory === undefined) return [];
  if (factory instanceof LazyFactory) await factory.ensureLoaded();
  return [...factory.requiredOptions(), ...factory.optionalOptions()].map((o) => o.key);
}
