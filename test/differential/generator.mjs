// A seeded generator of random but valid Flink SQL queries over the tables of tables.mjs, in the manner of SQLancer
// and SQLsmith: typed expression trees (arithmetic, CASE, casts, string, temporal and conditional functions), put into
// query shapes (projection, filter, GROUP BY with HAVING, DISTINCT, joins, window TVFs, ORDER BY/LIMIT, OVER, Top-N).
// Every query is a plain object that renders to SQL (render) and can be shrunk (shrinkCandidates), so a divergence
// can be reduced to a small statement. The same seed gives the same queries on every machine.
import { T1_COLUMNS, T2_COLUMNS } from './tables.mjs';

// Many nodes draw while they print (an operator, a path, a precision): `fmt` reads the generator. The draws a node
// made when it was first printed are kept on a tape and replayed whenever it prints again, so that a node rebuilt
// over other children (the shrinker) keeps its operator instead of drawing a new one from a generator that has moved on.
let recording;
let replaying;

/** mulberry32: small, fast, good enough for test generation, and stable across Node versions. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    if (replaying !== undefined) {
      if (replaying.length === 0) throw new Error('generator: a node drew more on reprinting than when it was made');
      return replaying.shift();
    }
    const v = draw();
    recording?.push(v);
    return v;
  };
  const draw = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
  };
}

// ---- expressions ------------------------------------------------------------------------------------------------

/** An expression node: its type, its children, and how it prints from its children's SQL (always the same way). */
function call(t, kids, fmt, self = false) {
  const tape = [];
  recording = tape;
  let sql;
  try {
    sql = fmt(...kids.map((k) => k.sql));
  } finally {
    recording = undefined;
  }
  const fixed = (...args) => {
    replaying = [...tape];
    try {
      return fmt(...args);
    } finally {
      replaying = undefined;
    }
  };
  return { t, kids, fmt: fixed, self, agg: self || kids.some((k) => k.agg), sql };
}
function leaf(t, sql) {
  return { t, kids: [], fmt: () => sql, self: false, agg: false, sql };
}
/** The same node over other children (used by the shrinker). */
export function rebuild(e, kids) {
  return { ...e, kids, agg: e.self || kids.some((k) => k.agg), sql: e.fmt(...kids.map((k) => k.sql)) };
}

const NUMERIC = ['INT', 'BIGINT', 'DEC', 'DOUBLE'];

function literal(r, t) {
  switch (t) {
    case 'INT':
      return leaf(t, String(r.pick([0, 1, 2, 3, -1, 10, 42, 100])));
    case 'BIGINT':
      return leaf(t, `CAST(${r.pick([0, 5, -8, 1000000])} AS BIGINT)`);
    case 'DEC':
      return leaf(t, r.pick(['0.5', '1.25', '-2.75', '10.0', '0.01', '0', "CAST('99999999999999999999.999999999999999999' AS DECIMAL(38, 18))", 'CAST(1 AS DECIMAL(38, 0))', '-0.000001', 'CAST(12345 AS DECIMAL(5, 0))']));
    case 'DEC2':
      return leaf(t, r.pick(['1.250', '0.100']));
    case 'DOUBLE':
      return leaf(t, r.pick(['CAST(0.5 AS DOUBLE)', 'CAST(2 AS DOUBLE)', '1.5E0', '-3.0E0', "CAST('NaN' AS DOUBLE)", "CAST('Infinity' AS DOUBLE)", "CAST('-Infinity' AS DOUBLE)", '-0.0E0']));
    case 'STRING':
      return leaf(t, r.pick(["'apple'", "''", "'a'", "'Banana'", "'x'", "' pad '"]));
    case 'BOOL':
      return leaf(t, r.pick(['TRUE', 'FALSE']));
    case 'TS':
      return leaf(t, r.pick(["TIMESTAMP '2024-03-01 00:00:00'", "TIMESTAMP '2024-02-29 23:55:30.500'", "TIMESTAMP '2000-02-29 12:00:00'", "TIMESTAMP '1900-02-28 00:00:00'", "TIMESTAMP '2023-12-31 23:59:59.99'"]));
    case 'DATE':
      return leaf(t, r.pick(["DATE '2024-02-29'", "DATE '2024-03-01'", "DATE '2000-02-29'", "DATE '1900-02-28'"]));
    case 'JSON':
      return leaf(t, r.pick(["'{\"a\":1,\"b\":[true,null]}'", "'[]'", "'[1,2,3]'", "'{\"a\":{\"a\":\"deep\"}}'", "'x'", "'3'"]));
    default:
      throw new Error(`no literal of ${t}`);
  }
}

/** A scope: the columns an expression may use, by type, each with the SQL that names it. */
export function scope(tables) {
  const cols = [];
  for (const [alias, columns] of tables) for (const [name, t] of columns) cols.push({ sql: alias ? `${alias}.${name}` : name, t });
  return cols;
}

function column(r, sc, t) {
  // A STRING column is JSON text too (mostly invalid JSON: the functions' ON ERROR paths).
  const cs = sc.filter((c) => c.t === t || (t === 'JSON' && c.t === 'STRING' && r.chance(0.2)));
  return cs.length === 0 ? undefined : leaf(t, r.pick(cs).sql);
}

/** A random expression of type `t` at most `depth` calls deep. */
export function expr(r, sc, t, depth) {
  // DEC2 (t2.amt's type) has no calls of its own: a column or a literal.
  if (depth <= 0 || r.chance(0.3) || FUNCTIONS[t] === undefined) {
    const c = r.chance(0.8) ? column(r, sc, t) : undefined;
    return c ?? (t === 'DATE' || t === 'BOOL' ? derived(r, sc, t, 1) : literal(r, t));
  }
  return derived(r, sc, t, depth);
}

function derived(r, sc, t, depth) {
  const e = (tt) => expr(r, sc, tt, depth - 1);
  const choices = (FUNCTIONS[t] ?? []).filter((f) => !f.needs || f.needs.every((n) => sc.some((c) => c.t === n)));
  return r.pick(choices).make(r, e, sc);
}

const cmp = ['=', '<>', '<', '<=', '>', '>='];

// JSON paths over the JSON texts of tables.mjs: members, array elements, wildcards, missing members, both modes.
const PATHS = ['$', '$.a', '$.b', '$.b[1]', '$.b[2].c', '$.b[*]', '$[0]', '$[1]', '$.d', '$.c', 'strict $.a', 'strict $.x', 'lax $.x', '$.a.a', '$[*]'];
const path = (r) => `'${r.pick(PATHS)}'`;
/** JSON_VALUE's optional ON EMPTY / ON ERROR clauses, with a DEFAULT of the RETURNING type. */
function onEmptyError(r, dflt) {
  const b = () => r.pick(['NULL', `DEFAULT ${dflt}`]);
  return `${r.chance(0.3) ? ` ${b()} ON EMPTY` : ''}${r.chance(0.3) ? ` ${b()} ON ERROR` : ''}`;
}
const TS_PRECISION = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/** Per result type, the calls that produce it. `make(r, e)` draws the operands with `e(type)`. */
const FUNCTIONS = {
  INT: [
    { make: (r, e) => call('INT', [e('INT'), e('INT')], (a, b) => `(${a} ${r.pick(['+', '-', '*'])} ${b})`) },
    { make: (r, e) => call('INT', [e('INT')], (a) => `(${a} / ${r.pick([2, 3, -4, 7])})`) },
    { make: (r, e) => call('INT', [e('INT')], (a) => `MOD(${a}, ${r.pick([2, 3, 5])})`) },
    { make: (_r, e) => call('INT', [e('INT')], (a) => `ABS(${a})`) },
    { make: (_r, e) => call('INT', [e('INT')], (a) => `-(${a})`) },
    { make: (_r, e) => call('INT', [e('BOOL'), e('INT'), e('INT')], (c, a, b) => `CASE WHEN ${c} THEN ${a} ELSE ${b} END`) },
    { make: (r, e) => call('INT', [e('INT')], (a) => `COALESCE(${a}, ${r.pick([0, -1, 99])})`) },
    { make: (_r, e) => call('INT', [e('INT'), e('INT')], (a, b) => `NULLIF(${a}, ${b})`) },
    { make: (_r, e) => call('INT', [e('STRING')], (s) => `CHAR_LENGTH(${s})`) },
    { make: (_r, e) => call('INT', [e('STRING'), e('STRING')], (a, b) => `POSITION(${a} IN ${b})`) },
    { needs: ['TS'], make: (r, e) => call('INT', [e('TS')], (ts) => `CAST(EXTRACT(${r.pick(['HOUR', 'MINUTE', 'SECOND', 'DAY', 'MONTH'])} FROM ${ts}) AS INT)`) },
    { make: (_r, e) => call('INT', [e('DEC')], (d) => `CAST(${d} AS INT)`) },
    { make: (_r, e) => call('INT', [e('DOUBLE')], (x) => `CAST(${x} AS INT)`) },
    { make: (_r, e) => call('INT', [e('STRING')], (s) => `TRY_CAST(${s} AS INT)`) },
    { make: (_r, e) => call('INT', [e('INT'), e('INT')], (a, b) => `GREATEST(${a}, ${b})`) },
    // Flink 2.3 casts JSON_VALUE's Java object to the RETURNING type's class and fails on any other (String cannot be
    // cast to Integer): RETURNING only now and then, a CAST of the text otherwise.
    { make: (r, e) => call('INT', [e('JSON')], (j) => (r.chance(0.2) ? `JSON_VALUE(${j}, ${path(r)} RETURNING INT${onEmptyError(r, r.pick([-1, 0]))})` : `TRY_CAST(JSON_VALUE(${j}, ${path(r)}) AS INT)`)) },
    { needs: ['TS'], make: (r, e) => call('INT', [e('TS'), e('TS')], (a, b) => `TIMESTAMPDIFF(${r.pick(['SECOND', 'DAY', 'MONTH', 'YEAR'])}, ${a}, ${b})`) },
    { make: (r, e) => call('INT', [e('DATE')], (d) => `CAST(EXTRACT(${r.pick(['DAY', 'MONTH', 'YEAR', 'DOY'])} FROM ${d}) AS INT)`) },
  ],
  BIGINT: [
    { make: (_r, e) => call('BIGINT', [e('INT')], (a) => `CAST(${a} AS BIGINT)`) },
    { make: (r, e) => call('BIGINT', [e('BIGINT'), e('INT')], (a, b) => `(${a} ${r.pick(['+', '-', '*'])} ${b})`) },
    { make: (_r, e) => call('BIGINT', [e('BIGINT')], (a) => `ABS(${a})`) },
    { make: (_r, e) => call('BIGINT', [e('BOOL'), e('BIGINT'), e('BIGINT')], (c, a, b) => `CASE WHEN ${c} THEN ${a} ELSE ${b} END`) },
    { make: (r, e) => call('BIGINT', [e('BIGINT')], (a) => `(${a} / ${r.pick([2, 10, -3])})`) },
  ],
  DEC: [
    { make: (r, e) => call('DEC', [e('DEC'), e('DEC')], (a, b) => `(${a} ${r.pick(['+', '-', '*'])} ${b})`) },
    { make: (r, e) => call('DEC', [e('DEC'), e('INT')], (a, b) => `(${a} ${r.pick(['+', '-', '*'])} ${b})`) },
    { make: (r, e) => call('DEC', [e('DEC')], (a) => `(${a} / ${r.pick(['2', '3', '0.5', '-4'])})`) },
    { make: (r, e) => call('DEC', [e('DEC')], (a) => `ROUND(${a}, ${r.pick([0, 1, 3])})`) },
    { make: (_r, e) => call('DEC', [e('DEC')], (a) => `ABS(${a})`) },
    { make: (_r, e) => call('DEC', [e('INT')], (a) => `CAST(${a} AS DECIMAL(10, 2))`) },
    { make: (_r, e) => call('DEC', [e('DOUBLE')], (x) => `CAST(${x} AS DECIMAL(12, 3))`) },
    { make: (r, e) => call('DEC', [e(r.pick(['DEC', 'INT', 'BIGINT', 'STRING']))], (x) => `${r.chance(0.3) ? 'TRY_CAST' : 'CAST'}(${x} AS DECIMAL(${r.pick(['5, 0', '3, 3', '20, 6', '38, 18', '38, 0', '10, 2', '1, 0'])}))`) },
    { make: (_r, e) => call('DEC', [e('BOOL'), e('DEC'), e('DEC')], (c, a, b) => `CASE WHEN ${c} THEN ${a} ELSE ${b} END`) },
    { make: (r, e) => call('DEC', [e('DEC')], (a) => `${r.pick(['FLOOR', 'CEIL'])}(${a})`) },
    { needs: ['DEC2'], make: (_r, e) => call('DEC', [e('DEC2'), e('DEC')], (a, b) => `(${a} + ${b})`) },
  ],
  DOUBLE: [
    { make: (r, e) => call('DOUBLE', [e('DOUBLE'), e('DOUBLE')], (a, b) => `(${a} ${r.pick(['+', '-', '*'])} ${b})`) },
    { make: (r, e) => call('DOUBLE', [e('DOUBLE')], (a) => `(${a} / ${r.pick(['2.0E0', '4.0E0', '-0.5E0'])})`) },
    { make: (_r, e) => call('DOUBLE', [e('INT')], (a) => `CAST(${a} AS DOUBLE)`) },
    { make: (_r, e) => call('DOUBLE', [e('DEC')], (a) => `CAST(${a} AS DOUBLE)`) },
    { make: (r, e) => call('DOUBLE', [e('DOUBLE')], (a) => `ROUND(${a}, ${r.pick([0, 2])})`) },
    { make: (r, e) => call('DOUBLE', [e('DOUBLE')], (a) => `${r.pick(['FLOOR', 'CEIL', 'ABS'])}(${a})`) },
    { make: (_r, e) => call('DOUBLE', [e('DOUBLE')], (a) => `POWER(${a}, 2)`) },
    { make: (_r, e) => call('DOUBLE', [e('DOUBLE')], (a) => `SQRT(ABS(${a}))`) },
    { make: (r, e) => call('DOUBLE', [e('DOUBLE')], (a) => `${r.pick(['SQRT', 'LN', 'EXP', 'SIGN'])}(${a})`) },
    { make: (_r, e) => call('DOUBLE', [e('DOUBLE')], (a) => `(${a} / 0.0E0)`) },
    { make: (r, e) => call('DOUBLE', [e('JSON')], (j) => (r.chance(0.2) ? `JSON_VALUE(${j}, ${path(r)} RETURNING DOUBLE${onEmptyError(r, '0.5E0')})` : `TRY_CAST(JSON_VALUE(${j}, ${path(r)}) AS DOUBLE)`)) },
    { make: (_r, e) => call('DOUBLE', [e('STRING')], (s) => `TRY_CAST(${s} AS DOUBLE)`) },
    { make: (_r, e) => call('DOUBLE', [e('INT'), e('DOUBLE')], (a, b) => `(${a} * ${b})`) },
  ],
  STRING: [
    { make: (r, e) => call('STRING', [e('STRING')], (s) => `${r.pick(['UPPER', 'LOWER', 'TRIM', 'INITCAP'])}(${s})`) },
    { make: (r, e) => call('STRING', [e('STRING')], (s) => `SUBSTRING(${s}, ${r.pick([1, 2, 3])}${r.chance(0.5) ? `, ${r.pick([1, 2, 4])}` : ''})`) },
    { make: (_r, e) => call('STRING', [e('STRING'), e('STRING')], (a, b) => `(${a} || ${b})`) },
    { make: (_r, e) => call('STRING', [e('STRING'), e('STRING')], (a, b) => `CONCAT(${a}, ${b})`) },
    { make: (r, e) => call('STRING', [e('STRING')], (s) => `REPLACE(${s}, '${r.pick(['a', 'p', ' '])}', '${r.pick(['', 'X'])}')`) },
    { make: (r, e) => call('STRING', [e('STRING')], (s) => `${r.pick(['LPAD', 'RPAD'])}(${s}, ${r.pick([0, 3, 8])}, '*')`) },
    { make: (_r, e) => call('STRING', [e('INT')], (a) => `CAST(${a} AS STRING)`) },
    { make: (_r, e) => call('STRING', [e('BIGINT')], (a) => `CAST(${a} AS STRING)`) },
    { make: (_r, e) => call('STRING', [e('DEC')], (a) => `CAST(${a} AS STRING)`) },
    { make: (_r, e) => call('STRING', [e('DOUBLE')], (a) => `CAST(${a} AS STRING)`) },
    { make: (_r, e) => call('STRING', [e('BOOL')], (a) => `CAST(${a} AS STRING)`) },
    { needs: ['TS'], make: (_r, e) => call('STRING', [e('TS')], (a) => `CAST(${a} AS STRING)`) },
    { needs: ['TS'], make: (r, e) => call('STRING', [e('TS')], (a) => `DATE_FORMAT(${a}, '${r.pick(['yyyy-MM-dd', 'HH:mm:ss', 'yyyy-MM-dd HH:mm'])}')`) },
    { make: (r, e) => call('STRING', [e('STRING')], (a) => `COALESCE(${a}, '${r.pick(['none', ''])}')`) },
    { make: (_r, e) => call('STRING', [e('BOOL'), e('STRING'), e('STRING')], (c, a, b) => `CASE WHEN ${c} THEN ${a} ELSE ${b} END`) },
    { make: (r, e) => call('STRING', [e('BOOL')], (c) => `CASE WHEN ${c} THEN '${r.pick(['yes', 'y'])}' ELSE '${r.pick(['no', 'none'])}' END`) },
    { make: (_r, e) => call('STRING', [e('BOOL')], (c) => `IF(${c}, 'yes', 'no')`) },
    { make: (_r, e) => call('STRING', [e('DATE')], (a) => `CAST(${a} AS STRING)`) },
    { needs: ['TS'], make: (r, e) => call('STRING', [e('TS')], (a) => `CAST(CAST(${a} AS TIMESTAMP(${r.pick(TS_PRECISION)})) AS STRING)`) },
    { make: (_r, e) => call('STRING', [e('JSON')], (j) => j) },
    { make: (r, e) => call('STRING', [e('JSON')], (j) => `JSON_VALUE(${j}, ${path(r)}${r.chance(0.3) ? ' RETURNING STRING' : ''}${onEmptyError(r, "'dflt'")})`) },
    { make: (r, e) => call('STRING', [e('JSON')], (j) => `JSON_QUERY(${j}, ${path(r)}${r.pick(['', '', ' WITH WRAPPER', ' WITH CONDITIONAL ARRAY WRAPPER', ' WITHOUT ARRAY WRAPPER'])}${r.chance(0.3) ? ` ${r.pick(['NULL', 'EMPTY ARRAY', 'EMPTY OBJECT'])} ON ${r.pick(['EMPTY', 'ERROR'])}` : ''})`) },
    { make: (r, e) => call('STRING', [e(r.pick(['INT', 'STRING', 'DOUBLE', 'DEC', 'BOOL', 'BIGINT']))], (a) => `JSON_STRING(${a})`) },
  ],
  BOOL: [
    { make: (r, e) => {
        const t = r.pick([...NUMERIC, 'STRING', 'INT', 'INT']);
        return call('BOOL', [e(t), e(t)], (a, b) => `${a} ${r.pick(cmp)} ${b}`);
      } },
    { needs: ['TS'], make: (r, e) => call('BOOL', [e('TS'), e('TS')], (a, b) => `${a} ${r.pick(cmp)} ${b}`) },
    { make: (r, e) => call('BOOL', [e(r.pick([...NUMERIC, 'STRING']))], (a) => `${a} IS ${r.pick(['', 'NOT '])}NULL`) },
    { make: (r, e) => call('BOOL', [e('BOOL'), e('BOOL')], (a, b) => `(${a} ${r.pick(['AND', 'OR'])} ${b})`) },
    { make: (_r, e) => call('BOOL', [e('BOOL')], (a) => `NOT (${a})`) },
    { make: (r, e) => call('BOOL', [e('INT')], (a) => `${a} BETWEEN ${r.pick([-5, 0, 3])} AND ${r.pick([5, 10, 50])}`) },
    { make: (r, e) => call('BOOL', [e('INT')], (a) => `${a} ${r.pick(['IN', 'NOT IN'])} (0, 1, ${r.pick([7, 42, 100])})`) },
    { make: (r, e) => call('BOOL', [e('STRING')], (a) => `${a} ${r.pick(['LIKE', 'NOT LIKE'])} '${r.pick(['a%', '%e', '%a%', '_', 'x\\%y'])}'`) },
    { make: (r, e) => call('BOOL', [e('BOOL')], (a) => `(${a}) IS ${r.pick(['TRUE', 'NOT TRUE', 'FALSE', 'UNKNOWN'])}`) },
    { make: (r, e) => call('BOOL', [e('JSON')], (j) => `JSON_EXISTS(${j}, ${path(r)}${r.chance(0.3) ? ` ${r.pick(['TRUE', 'FALSE', 'UNKNOWN'])} ON ERROR` : ''})`) },
    { make: (r, e) => call('BOOL', [e('JSON')], (j) => `${j} IS ${r.pick(['', 'NOT '])}JSON${r.pick(['', ' VALUE', ' SCALAR', ' ARRAY', ' OBJECT'])}`) },
    { make: (r, e) => call('BOOL', [e('DOUBLE'), e('DOUBLE')], (a, b) => `${a} ${r.pick(cmp)} ${b}`) },
  ],
  TS: [
    { make: (r, e) => call('TS', [e('TS')], (a) => `(${a} ${r.pick(['+', '-'])} INTERVAL '${r.pick([1, 30, 90])}' ${r.pick(['SECOND', 'MINUTE', 'HOUR', 'DAY'])})`) },
    { make: (r, e) => call('TS', [e('TS')], (a) => `${r.pick(['FLOOR', 'CEIL'])}(${a} TO ${r.pick(['MINUTE', 'HOUR', 'DAY'])})`) },
    { make: (r, e) => call('TS', [e('TS')], (a) => `TIMESTAMPADD(${r.pick(['MINUTE', 'HOUR', 'DAY', 'MONTH', 'YEAR'])}, ${r.pick([1, -2, 12, 4, -100])}, ${a})`) },
    { make: (r, e) => call('TS', [e('TS')], (a) => `CAST(${a} AS TIMESTAMP(${r.pick(TS_PRECISION)}))`) },
    { make: (r, e) => call('TS', [e('TS')], (a) => `(${a} ${r.pick(['+', '-'])} ${r.pick(["INTERVAL '1' YEAR", "INTERVAL '4' YEAR", "INTERVAL '100' YEAR(3)"])})`) },
    { make: (r, e) => call('TS', [e('TS')], (a) => `(${a} + INTERVAL '${r.pick(['1', '12', '-1'])}' MONTH)`) },
    { make: (r, e) => call('TS', [e('DATE')], (d) => `CAST(${d} AS TIMESTAMP(${r.pick(TS_PRECISION)}))`) },
  ],
  DATE: [
    { needs: ['TS'], make: (_r, e) => call('DATE', [e('TS')], (a) => `CAST(${a} AS DATE)`) },
    { make: (r, e) => call('DATE', [e('DATE')], (a) => `(${a} + INTERVAL '${r.pick([1, 30])}' DAY)`) },
    { make: (r, _e) => leaf('DATE', r.pick(["DATE '2024-02-29'", "DATE '2023-12-31'"])) },
    { make: (r, e) => call('DATE', [e('DATE')], (a) => `(${a} ${r.pick(['+', '-'])} ${r.pick(["INTERVAL '1' YEAR", "INTERVAL '4' YEAR", "INTERVAL '100' YEAR(3)"])})`) },
    { make: (r, e) => call('DATE', [e('DATE')], (a) => `(${a} + INTERVAL '${r.pick([1, -1, 12])}' MONTH)`) },
  ],
  JSON: [
    { make: (r, e) => {
        const kt = r.pick(['INT', 'STRING', 'BOOL', 'DOUBLE', 'DEC', 'JSON']);
        return call('JSON', [e(r.pick(['INT', 'STRING', 'BOOL'])), e(kt)], (a, b) => `JSON_OBJECT(KEY 'k' VALUE ${a}, KEY 'v' VALUE ${b}${r.pick(['', ' NULL ON NULL', ' ABSENT ON NULL'])})`);
      } },
    { make: (r, e) => call('JSON', [e(r.pick(['INT', 'STRING', 'DOUBLE', 'DEC'])), e('JSON')], (a, b) => `JSON_ARRAY(${a}, ${b}${r.pick(['', ' NULL ON NULL', ' ABSENT ON NULL'])})`) },
    { make: (r, e) => call('JSON', [e('JSON')], (j) => `JSON_QUERY(${j}, ${path(r)})`) },
  ],
};

// ---- aggregates -------------------------------------------------------------------------------------------------

function aggregate(r, sc, depth) {
  const kind = r.pick(['COUNT*', 'COUNT', 'COUNTD', 'SUM', 'SUM', 'MIN', 'MAX', 'AVG', 'AVG']);
  const e = (t) => expr(r, sc, t, depth);
  switch (kind) {
    case 'COUNT*':
      return call('BIGINT', [], () => 'COUNT(*)', true);
    case 'COUNT':
      return call('BIGINT', [e(r.pick(['INT', 'STRING', 'DEC', 'DOUBLE']))], (a) => `COUNT(${a})`, true);
    case 'COUNTD':
      return call('BIGINT', [e(r.pick(['INT', 'STRING']))], (a) => `COUNT(DISTINCT ${a})`, true);
    case 'SUM':
    case 'AVG': {
      // Not DOUBLE: a floating sum depends on the order rows are added in, which neither engine fixes.
      // Nor DECIMAL(38, 18) (dl): Flink's running sum turns NULL when it overflows and restarts at the next row,
      // so the answer depends on the order rows are added in (docs/differences-from-flink.md).
      const t = r.pick(['INT', 'BIGINT', 'DEC']);
      const arg = t === 'DEC' ? expr(r, sc.filter((c) => !/\bdl$/.test(c.sql)), t, depth) : e(t);
      return call(t === 'INT' ? 'INT' : t, [arg], (a) => `${kind}(${a})`, true);
    }
    default: {
      const t = r.pick(['INT', 'DEC', 'DOUBLE', 'STRING', 'BIGINT']);
      return call(t, [e(t)], (a) => `${kind}(${a})`, true);
    }
  }
}

// ---- queries ----------------------------------------------------------------------------------------------------

const T1 = [['t1', T1_COLUMNS]];
const T12 = [
  ['t1', T1_COLUMNS],
  ['t2', T2_COLUMNS],
];
const SELECTABLE = ['INT', 'INT', 'BIGINT', 'DEC', 'DOUBLE', 'STRING', 'STRING', 'BOOL', 'TS', 'DATE', 'JSON'];

function items(r, sc, n, depth) {
  return Array.from({ length: n }, () => expr(r, sc, r.pick(SELECTABLE), depth));
}

const SIMPLEST_WINDOW = "TUMBLE(TABLE t1, DESCRIPTOR(ts), INTERVAL '2' MINUTE)";

/**
 * One query. Its fields: `shape`, `select` (expressions), optional `where`, `groupBy`, `having`, and the shape's own
 * (`from`, `join`, `window`, `over`, `topn`, `limit`). render(q) prints it; `ordered` says whether row order counts.
 */
export function generateQuery(r) {
  const shape = r.pick(['project', 'project', 'project', 'filter', 'aggregate', 'aggregate', 'global-agg', 'distinct', 'join', 'join', 'window', 'window', 'order-limit', 'over', 'topn', 'setop', 'setop']);
  const depth = r.int(1, 3);
  const sc = scope(T1);
  switch (shape) {
    case 'project':
    case 'filter':
    case 'distinct':
      return { shape, select: items(r, sc, r.int(1, 4), depth), where: shape === 'filter' || r.chance(0.3) ? expr(r, sc, 'BOOL', depth) : undefined };
    case 'order-limit':
      return { shape, select: [leaf('INT', 't1.id'), ...items(r, sc, r.int(1, 3), depth)], where: r.chance(0.4) ? expr(r, sc, 'BOOL', depth) : undefined, limit: r.int(1, 8), desc: r.chance(0.5) };
    case 'aggregate':
    case 'global-agg': {
      const keys = shape === 'aggregate' ? Array.from({ length: r.int(1, 2) }, () => expr(r, sc, r.pick(['INT', 'STRING', 'BOOL', 'INT']), Math.min(depth, 2))) : [];
      return {
        shape,
        groupBy: keys,
        select: [...keys, ...Array.from({ length: r.int(1, 3) }, () => aggregate(r, sc, depth - 1))],
        where: r.chance(0.3) ? expr(r, sc, 'BOOL', depth) : undefined,
        having: keys.length > 0 && r.chance(0.3) ? call('BOOL', [aggregate(r, sc, 0)], (a) => `${a} > ${r.pick([0, 1, 2])}`, true) : undefined,
      };
    }
    case 'join': {
      const join = r.pick(['JOIN', 'JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN']);
      const both = scope(T12);
      const extra = r.chance(0.3) ? expr(r, both, 'BOOL', 1) : undefined;
      return { shape, join, on: extra, select: items(r, both, r.int(1, 4), depth), where: r.chance(0.3) ? expr(r, both, 'BOOL', depth) : undefined };
    }
    case 'setop': {
      // Two selects of the same column types; the right one over t1 or t2 (which lacks most types: literals then).
      const types = Array.from({ length: r.int(1, 3) }, () => r.pick(['INT', 'INT', 'STRING', 'STRING', 'BOOL', 'DEC', 'BIGINT', 'DATE', 'TS', 'DOUBLE']));
      const right = r.chance(0.5) ? T1 : [['t2', T2_COLUMNS]];
      const sc2 = scope(right);
      return {
        shape,
        op: r.pick(['UNION', 'UNION ALL', 'INTERSECT', 'INTERSECT ALL', 'EXCEPT', 'EXCEPT ALL']),
        select: types.map((t) => expr(r, sc, t, depth)),
        where: r.chance(0.5) ? expr(r, sc, 'BOOL', depth) : undefined,
        from2: right[0][0],
        select2: types.map((t) => expr(r, sc2, t, depth)),
        where2: r.chance(0.5) ? expr(r, sc2, 'BOOL', depth) : undefined,
      };
    }
    case 'window': {
      const w = r.pick([
        SIMPLEST_WINDOW,
        "TUMBLE(TABLE t1, DESCRIPTOR(ts), INTERVAL '5' MINUTE)",
        "HOP(TABLE t1, DESCRIPTOR(ts), INTERVAL '2' MINUTE, INTERVAL '6' MINUTE)",
        "CUMULATE(TABLE t1, DESCRIPTOR(ts), INTERVAL '2' MINUTE, INTERVAL '6' MINUTE)",
      ]);
      const bare = scope([['', T1_COLUMNS.filter(([n]) => n !== 'ts')]]);
      const keys = r.chance(0.5) ? [leaf('INT', 'k')] : [];
      return { shape, window: w, groupBy: keys, select: [...keys, ...Array.from({ length: r.int(1, 3) }, () => aggregate(r, bare, depth - 1))], where: r.chance(0.3) ? expr(r, bare, 'BOOL', depth) : undefined };
    }
    case 'over': {
      const frame = r.pick(['ROWS BETWEEN 2 PRECEDING AND CURRENT ROW', 'ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW', "RANGE BETWEEN INTERVAL '3' MINUTE PRECEDING AND CURRENT ROW", 'RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW']);
      const agg = r.pick(['COUNT', 'SUM', 'MIN', 'MAX']);
      const t = agg === 'COUNT' ? r.pick(['INT', 'STRING']) : r.pick(['INT', 'DEC', 'BIGINT']);
      const arg = expr(r, sc, t, Math.min(depth, 2));
      const over = call(agg === 'COUNT' ? 'BIGINT' : t, [arg], (a) => `${agg}(${a}) OVER (PARTITION BY t1.k ORDER BY t1.ts ${frame})`, true);
      return { shape, select: [leaf('INT', 't1.id'), ...items(r, sc, r.int(0, 2), depth), over], where: r.chance(0.3) ? expr(r, sc, 'BOOL', depth) : undefined };
    }
    default: {
      // topn
      const fn = r.pick(['ROW_NUMBER', 'ROW_NUMBER', 'RANK', 'DENSE_RANK']);
      const order = r.pick(['t1.a DESC', 't1.d ASC', 't1.s ASC', 't1.x DESC']);
      return { shape: 'topn', fn, order, n: r.int(1, 3), select: [leaf('INT', 't1.id'), leaf('INT', 't1.k'), ...items(r, sc, r.int(0, 2), depth)], where: r.chance(0.3) ? expr(r, sc, 'BOOL', depth) : undefined };
    }
  }
}

/** The SQL of a query; its columns are named c0, c1, ... so that both engines agree on names. */
export function render(q) {
  const cols = q.select.map((e, i) => `${e.sql} AS c${i}`).join(', ');
  const where = q.where ? ` WHERE ${q.where.sql}` : '';
  switch (q.shape) {
    case 'project':
    case 'filter':
      return `SELECT ${cols} FROM t1${where}`;
    case 'distinct':
      return `SELECT DISTINCT ${cols} FROM t1${where}`;
    case 'order-limit': {
      const dir = q.desc ? ' DESC' : '';
      return `SELECT ${cols} FROM t1${where} ORDER BY ${q.select.map((_e, i) => `c${i}${dir}`).join(', ')} LIMIT ${q.limit}`;
    }
    case 'aggregate':
    case 'global-agg': {
      const gb = q.groupBy.length > 0 ? ` GROUP BY ${q.groupBy.map((k) => k.sql).join(', ')}` : '';
      const having = q.having ? ` HAVING ${q.having.sql}` : '';
      return `SELECT ${cols} FROM t1${where}${gb}${having}`;
    }
    case 'join':
      return `SELECT ${cols} FROM t1 ${q.join} t2 ON t1.k = t2.k${q.on ? ` AND ${q.on.sql}` : ''}${where}`;
    case 'window': {
      const keys = ['window_start', 'window_end', ...q.groupBy.map((k) => k.sql)];
      return `SELECT window_start, window_end, ${cols} FROM TABLE(${q.window})${where} GROUP BY ${keys.join(', ')}`;
    }
    case 'over':
      return `SELECT ${cols} FROM t1${where}`;
    case 'setop': {
      const cols2 = q.select2.map((e, i) => `${e.sql} AS c${i}`).join(', ');
      return `SELECT ${cols} FROM t1${where} ${q.op} SELECT ${cols2} FROM ${q.from2}${q.where2 ? ` WHERE ${q.where2.sql}` : ''}`;
    }
    case 'topn': {
      const inner = `SELECT ${cols}, ${q.fn}() OVER (PARTITION BY t1.k ORDER BY ${q.order}, t1.id) AS rn FROM t1${where}`;
      return `SELECT * FROM (${inner}) WHERE rn <= ${q.n}`;
    }
    default:
      throw new Error(`unknown shape ${q.shape}`);
  }
}

/** Whether the query's row order is fixed (only a top-level ORDER BY fixes it). */
export function ordered(q) {
  return q.shape === 'order-limit';
}

/** `count` queries of seed `seed`: the same list on every run. */
export function generate(seed, count) {
  const r = rng(seed);
  return Array.from({ length: count }, () => generateQuery(r));
}

// ---- shrinking --------------------------------------------------------------------------------------------------

/** Every expression of `e`'s tree with a function that puts a replacement in its place. */
function* places(e, put) {
  yield [e, put];
  for (let i = 0; i < e.kids.length; i++) {
    yield* places(e.kids[i], (x) => put(rebuild(e, e.kids.map((k, j) => (j === i ? x : k)))));
  }
}

/** Simpler stand-ins for `e`: its children of the same type, then a literal of its type. */
function simpler(e) {
  // An aggregate's argument cannot stand in for it (it is not grouped); an invalid candidate would only be refused
  // by both engines, which the shrinker drops, but it costs a run.
  const out = e.self ? [] : e.kids.filter((k) => k.t === e.t);
  if (e.kids.length > 0 || !/^[0-9'-]|^TRUE$|^FALSE$/.test(e.sql)) out.push(literal(rng(1), e.t));
  return out;
}

/**
 * Queries one step smaller than `q` that may still show the same divergence: one select item alone, without the
 * WHERE / HAVING / extra ON, or with one expression replaced by a simpler one. Structural items (group keys, the id
 * an ORDER BY or Top-N needs) are kept.
 */
export function shrinkCandidates(q) {
  const out = [];
  const fixed = q.shape === 'aggregate' || q.shape === 'window' ? (q.groupBy ?? []).length : q.shape === 'order-limit' || q.shape === 'over' || q.shape === 'topn' ? 1 : 0;
  const isOver = (e) => / OVER \(/.test(e.sql);
  if (q.select.length > fixed + 1) {
    for (let i = fixed; i < q.select.length; i++) {
      const pick = (e, j) => j < fixed || j === i || (q.shape === 'over' && isOver(e));
      const keep = q.select.filter(pick);
      // A set operation's two sides keep the same columns.
      if (keep.length < q.select.length) out.push(q.select2 ? { ...q, select: keep, select2: q.select2.filter(pick) } : { ...q, select: keep });
    }
  }
  // A group key dropped from GROUP BY and from the select list (a window query may lose all of them; a GROUP BY
  // query keeps one, as a global aggregate is another shape).
  const keys = q.groupBy ?? [];
  if (keys.length > (q.shape === 'window' ? 0 : 1) && q.select.length > keys.length) {
    for (const k of keys) out.push({ ...q, groupBy: keys.filter((x) => x !== k), select: q.select.filter((x) => x !== k) });
  }
  if (q.shape === 'window' && q.window !== SIMPLEST_WINDOW) out.push({ ...q, window: SIMPLEST_WINDOW });
  if (q.where) out.push({ ...q, where: undefined });
  if (q.where2) out.push({ ...q, where2: undefined });
  if (q.having) out.push({ ...q, having: undefined });
  if (q.on) out.push({ ...q, on: undefined });
  for (const field of ['select', 'where', 'having', 'on', 'groupBy', 'select2', 'where2']) {
    const v = q[field];
    if (v === undefined) continue;
    const list = Array.isArray(v) ? v : [v];
    list.forEach((root, i) => {
      for (const [node, put] of places(root, (x) => x)) {
        if (node === root && field === 'groupBy') continue;
        for (const s of simpler(node)) {
          const replaced = put(s);
          const nv = Array.isArray(v) ? list.map((x, j) => (j === i ? replaced : x)) : replaced;
          const next = { ...q, [field]: nv };
          // A group key is also a select item: replace it in both places.
          if (field === 'groupBy') next.select = q.select.map((x) => (x === root ? replaced : x));
          if (field === 'select' && q.groupBy?.includes(root)) continue;
          out.push(next);
        }
      }
    });
  }
  return out;
}
