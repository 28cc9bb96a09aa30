// A seeded generator of random but valid Flink SQL queries over the tables of tables.mjs, in the manner of SQLancer
// and SQLsmith: typed expression trees (arithmetic, CASE, casts, string, temporal and conditional functions), put into
// query shapes (projection, filter, GROUP BY with HAVING, DISTINCT, joins, window TVFs, ORDER BY/LIMIT, OVER, Top-N).
// Every query is a plain object that renders to SQL (render) and can be shrunk (shrinkCandidates), so a divergence
// can be reduced to a small statement. The same seed gives the same queries on every machine.
import { T1_COLUMNS, T2_COLUMNS } from './tables.mjs';

/** mulberry32: small, fast, good enough for test generation, and stable across Node versions. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
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

/** An expression node: its type, its children, and how it prints from its children's SQL. */
function call(t, kids, fmt, self = false) {
  return { t, kids, fmt, self, agg: self || kids.some((k) => k.agg), sql: fmt(...kids.map((k) => k.sql)) };
}
function leaf(t, sql) {
  return { t, kids: [], fmt: () => sql, self: false, agg: false, sql };
}
/** The same node over other children (used by the shrinker). */
export function rebuild(e, kids) {
  return call(e.t, kids, e.fmt, e.self);
}

const NUMERIC = ['INT', 'BIGINT', 'DEC', 'DOUBLE'];

function literal(r, t) {
  switch (t) {
    case 'INT':
      return leaf(t, String(r.pick([0, 1, 2, 3, -1, 10, 42, 100])));
    case 'BIGINT':
      return leaf(t, `CAST(${r.pick([0, 5, -8, 1000000])} AS BIGINT)`);
    case 'DEC':
      return leaf(t, r.pick(['0.5', '1.25', '-2.75', '10.0', '0.01']));
    case 'DEC2':
      return leaf(t, r.pick(['1.250', '0.100']));
    case 'DOUBLE':
      return leaf(t, r.pick(['CAST(0.5 AS DOUBLE)', 'CAST(2 AS DOUBLE)', '1.5E0', '-3.0E0']));
    case 'STRING':
      return leaf(t, r.pick(["'apple'", "''", "'a'", "'Banana'", "'x'", "' pad '"]));
    case 'BOOL':
      return leaf(t, r.pick(['TRUE', 'FALSE']));
    case 'TS':
      return leaf(t, r.pick(["TIMESTAMP '2024-03-01 00:00:00'", "TIMESTAMP '2024-02-29 23:55:30.500'"]));
    case 'DATE':
      return leaf(t, r.pick(["DATE '2024-02-29'", "DATE '2024-03-01'"]));
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
  const cs = sc.filter((c) => c.t === t);
  return cs.length === 0 ? undefined : leaf(t, r.pick(cs).sql);
}

/** A random expression of type `t` at most `depth` calls deep. */
export function expr(r, sc, t, depth) {
  if (depth <= 0 || r.chance(0.3)) {
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
  ],
  TS: [
    { make: (r, e) => call('TS', [e('TS')], (a) => `(${a} ${r.pick(['+', '-'])} INTERVAL '${r.pick([1, 30, 90])}' ${r.pick(['SECOND', 'MINUTE', 'HOUR', 'DAY'])})`) },
    { make: (r, e) => call('TS', [e('TS')], (a) => `${r.pick(['FLOOR', 'CEIL'])}(${a} TO ${r.pick(['MINUTE', 'HOUR', 'DAY'])})`) },
    { make: (r, e) => call('TS', [e('TS')], (a) => `TIMESTAMPADD(${r.pick(['MINUTE', 'HOUR', 'DAY', 'MONTH'])}, ${r.pick([1, -2, 12])}, ${a})`) },
  ],
  DATE: [
    { needs: ['TS'], make: (_r, e) => call('DATE', [e('TS')], (a) => `CAST(${a} AS DATE)`) },
    { make: (r, e) => call('DATE', [e('DATE')], (a) => `(${a} + INTERVAL '${r.pick([1, 30])}' DAY)`) },
    { make: (r, _e) => leaf('DATE', r.pick(["DATE '2024-02-29'", "DATE '2023-12-31'"])) },
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
      const t = r.pick(['INT', 'BIGINT', 'DEC']);
      return call(t === 'INT' ? 'INT' : t, [e(t)], (a) => `${kind}(${a})`, true);
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
const SELECTABLE = ['INT', 'INT', 'BIGINT', 'DEC', 'DOUBLE', 'STRING', 'STRING', 'BOOL', 'TS', 'DATE'];

function items(r, sc, n, depth) {
  return Array.from({ length: n }, () => expr(r, sc, r.pick(SELECTABLE), depth));
}

/**
 * One query. Its fields: `shape`, `select` (expressions), optional `where`, `groupBy`, `having`, and the shape's own
 * (`from`, `join`, `window`, `over`, `topn`, `limit`). render(q) prints it; `ordered` says whether row order counts.
 */
export function generateQuery(r) {
  const shape = r.pick(['project', 'project', 'project', 'filter', 'aggregate', 'aggregate', 'global-agg', 'distinct', 'join', 'join', 'window', 'window', 'order-limit', 'over', 'topn']);
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
    case 'window': {
      const w = r.pick([
        "TUMBLE(TABLE t1, DESCRIPTOR(ts), INTERVAL '2' MINUTE)",
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
      const keep = q.select.filter((e, j) => j < fixed || j === i || (q.shape === 'over' && isOver(e)));
      if (keep.length < q.select.length) out.push({ ...q, select: keep });
    }
  }
  if (q.where) out.push({ ...q, where: undefined });
  if (q.having) out.push({ ...q, having: undefined });
  if (q.on) out.push({ ...q, on: undefined });
  for (const field of ['select', 'where', 'having', 'on', 'groupBy']) {
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
