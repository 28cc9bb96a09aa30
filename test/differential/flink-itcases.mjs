// Apache Flink's own SQL integration tests (apache/flink, flink-table/flink-table-planner/src/test/scala/org/apache/
// flink/table/planner/runtime/{batch,stream}/sql/: CalcITCase, AggregateITCase(Base), WindowAggregateITCase,
// JoinITCase, RankITCase, DeduplicateITCase and their neighbours), ported by hand as DATA: each spec is one SQL
// statement of a test method, the rows of the TestData set it reads (TestData.scala: smallData3, data3, data5,
// nullData3, data2_1, windowDataWithTimestamp, ... or the test's own inline rows) as a small csv table, and the runtime
// mode of the test. No test code is copied: the expected answers are not the Scala literals of the tests but what a
// real Apache Flink 2.3.0 printed for these statements over these tables (goldens-itcases/flink-itcases.json, recorded
// with scripts/flink-itcase-port.mjs; replayed on Sluice, with no JVM, by itcase-replay.test.ts).
//
// Adaptations, so that a bounded csv file gives one determined answer in both engines:
// - user-defined functions are left out of a statement (concat_distinct_agg in the window tests); Table API sources
//   become csv tables with the test's column names; proctime ORDER BY (deduplicate) is not ported (not determined);
// - windowDataWithTimestamp loses its one late row (00:00:04 after 00:00:08): whether a file source's periodic
//   watermark has passed it when it is read is a matter of timing, so its row is declared as `rowtime TIMESTAMP(3)`
//   (not a computed column over a STRING) with the test's `rowtime - INTERVAL '1' SECOND` watermark;
// - each table name is global to the corpus (one name, one content), so that one Flink job script per mode declares
//   every table once; a test's inline data gets a name of its own (e.g. RankT for RankITCase's T).
//
// Figures (Flink 2.3.0, recorded 2026-12-04): see the header of goldens-itcases/flink-itcases.json and the final line
// of `node scripts/flink-itcase-port.mjs`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FLINK = 'apache/flink flink-table/flink-table-planner/src/test/scala/org/apache/flink/table/planner/runtime';
const B = `${FLINK}/batch/sql`;
const S = `${FLINK}/stream/sql`;

// ---- TestData.scala's sets (rows as the test registers them)
const data3 = [
  [1, 1, 'Hi'], [2, 2, 'Hello'], [3, 2, 'Hello world'], [4, 3, 'Hello world, how are you?'], [5, 3, 'I am fine.'], [6, 3, 'Luke Skywalker'],
  [7, 4, 'Comment#1'], [8, 4, 'Comment#2'], [9, 4, 'Comment#3'], [10, 4, 'Comment#4'], [11, 5, 'Comment#5'], [12, 5, 'Comment#6'],
  [13, 5, 'Comment#7'], [14, 5, 'Comment#8'], [15, 5, 'Comment#9'], [16, 6, 'Comment#10'], [17, 6, 'Comment#11'], [18, 6, 'Comment#12'],
  [19, 6, 'Comment#13'], [20, 6, 'Comment#14'], [21, 6, 'Comment#15'],
];
const data5 = [
  [1, 1, 0, 'Hallo', 1], [2, 2, 1, 'Hallo Welt', 2], [2, 3, 2, 'Hallo Welt wie', 1], [3, 4, 3, 'Hallo Welt wie gehts?', 2], [3, 5, 4, 'ABC', 2],
  [3, 6, 5, 'BCD', 3], [4, 7, 6, 'CDE', 2], [4, 8, 7, 'DEF', 1], [4, 9, 8, 'EFG', 1], [4, 10, 9, 'FGH', 2], [5, 11, 10, 'GHI', 1],
  [5, 12, 11, 'HIJ', 3], [5, 13, 12, 'IJK', 3], [5, 14, 13, 'JKL', 2], [5, 15, 14, 'KLM', 2],
];
const duplicateData5 = [
  [1, 1, 10, 'Hallo', 1], [2, 2, 11, 'Hallo Welt', 2], [2, 3, 12, 'Hallo Welt wie', 1], [3, 4, 13, 'Hallo Welt wie gehts?', 2], [3, 5, 14, 'GHI', 2],
  [3, 6, 15, 'ABC', 3], [4, 7, 16, 'ABC', 2], [4, 8, 17, 'ABC', 1], [4, 9, 18, 'EFG', 1], [4, 10, 19, 'EFG', 2], [5, 11, 10, 'GHI', 1],
  [5, 12, 11, 'ABC', 3], [5, 13, 12, 'IJK', 3], [5, 14, 13, 'EFG', 2], [5, 15, 14, 'EFG', 2],
];
const col3 = [['a', 'INT'], ['b', 'BIGINT'], ['c', 'STRING']];
const col5 = [['d', 'INT'], ['e', 'BIGINT'], ['f', 'INT'], ['g', 'STRING'], ['h', 'BIGINT']];
const windowRows = [
  ['2020-10-10 00:00:01', 1, 1, 1, '1.11', 'Hi', 'a'],
  ['2020-10-10 00:00:02', 2, 2, 2, '2.22', 'Comment#1', 'a'],
  ['2020-10-10 00:00:03', 2, 2, 2, '2.22', 'Comment#1', 'a'],
  ['2020-10-10 00:00:04', 5, 5, 5, '5.55', null, 'a'],
  ['2020-10-10 00:00:07', 3, 3, 3, null, 'Hello', 'b'],
  ['2020-10-10 00:00:06', 6, 6, 6, '6.66', 'Hi', 'b'],
  ['2020-10-10 00:00:08', 3, null, 3, '3.33', 'Comment#2', 'a'],
  ['2020-10-10 00:00:16', 4, 4, 4, '4.44', 'Hi', 'b'],
  ['2020-10-10 00:00:32', 7, 7, 7, '7.77', null, null],
  ['2020-10-10 00:00:34', 1, 3, 3, '3.33', 'Comment#3', 'b'],
];
const windowCols = [['rowtime', 'TIMESTAMP(3)'], ['int', 'INT'], ['double', 'DOUBLE'], ['float', 'FLOAT'], ['bigdec', 'DECIMAL(10, 2)'], ['string', 'STRING'], ['name', 'STRING']];

/** The corpus's tables by name: one name, one content. */
export const TABLES = {
  SmallTable3: { columns: col3, rows: data3.slice(0, 3) },
  Table3: { columns: col3, rows: data3 },
  NullTable3: { columns: col3, rows: [...data3, [null, 999, 'NullTuple'], [null, 999, 'NullTuple']] },
  AllNullTable3: { columns: col3, rows: [[null, null, null], [null, null, null]] },
  Table5: { columns: col5, rows: data5 },
  SmallTable5: { columns: col5, rows: data5.slice(0, 3) },
  EmptyTable5: { columns: col5, rows: [] },
  NullTable5: { columns: col5, rows: [...data5, [null, 999, 999, 'NullTuple', 999], [null, 999, 999, 'NullTuple', 999]] },
  DuplicateTable5: { columns: col5, rows: duplicateData5 },
  // data2_1 / data2_2 / data2_3 (JoinITCase's l, r, t)
  l: { columns: [['a', 'INT'], ['b', 'DOUBLE']], rows: [[1, 2.0], [1, 2.0], [2, 1.0], [2, 1.0], [3, 3.0], [null, null], [null, 5.0], [6, null]] },
  r: { columns: [['c', 'INT'], ['d', 'DOUBLE']], rows: [[2, 3.0], [2, 3.0], [3, 2.0], [4, 1.0], [null, null], [null, 5.0], [6, null]] },
  t: { columns: [['c', 'INT'], ['d', 'DOUBLE']], rows: [[2, 3.0], [2, 3.0], [3, 2.0], [4, 1.0]] },
  // windowDataWithTimestamp without its late row (see the header)
  T1: { columns: windowCols, rows: windowRows, watermark: "`rowtime` - INTERVAL '1' SECOND" },
};

/** The spec's tables, by name, from TABLES. */
const use = (...names) => names.map((name) => ({ name, ...TABLES[name] }));

/** @type {{ source: string, mode: 'batch' | 'streaming', tables: { name: string, columns: string[][], rows: unknown[][], watermark?: string }[], sql: string, ordered?: boolean }[]} */
export const specs = [];
const add = (source, mode, tables, sql, ordered = false) => specs.push({ source, mode, tables: use(...tables), sql: sql.replace(/\s+/g, ' ').trim(), ordered });

// ====================================================================== aggregate
const AGG = `${B}/agg/AggregateITCaseBase.scala`;
for (const mode of ['batch', 'streaming']) {
  add(`${AGG} testGroupByOnly`, mode, ['Table5'], 'SELECT h FROM Table5 GROUP BY h');
  add(`${AGG} testSimpleAndDistinctAggWithCommonFilter`, mode, ['Table5'], 'SELECT h, COUNT(1) FILTER(WHERE d > 1), COUNT(1) FILTER(WHERE d < 2), COUNT(DISTINCT e) FILTER(WHERE d > 1) FROM Table5 GROUP BY h');
  add(`${AGG} testTwoPhasesAggregation`, mode, ['Table5'], 'SELECT sum(d), avg(d), count(g), min(e), h FROM Table5 GROUP BY h');
  add(`${AGG} testEmptyInputAggregation`, mode, ['EmptyTable5'], 'SELECT sum(d), avg(d), count(g), min(e) FROM EmptyTable5 GROUP BY h');
  add(`${AGG} testNullGroupKeyAggregation`, mode, ['NullTable5'], 'SELECT sum(d), d, count(d) FROM NullTable5 GROUP BY d');
  add(`${AGG} testAggregationWithoutGroupby`, mode, ['Table5'], 'SELECT sum(d), avg(d), count(g), min(e) FROM Table5');
  add(`${AGG} testEmptyInputAggregationWithoutGroupby`, mode, ['EmptyTable5'], 'SELECT sum(d), avg(d), count(g), min(e) FROM EmptyTable5');
  add(`${AGG} testAggregationAfterProjection`, mode, ['Table5'], 'SELECT c, count(a) FROM (SELECT d as a, f as b, h as c FROM Table5) GROUP BY c');
  add(`${AGG} testAggregationWithArithmetic`, mode, ['Table5'], 'SELECT avg(d + 2) + 2 FROM Table5');
  add(`${AGG} testGroupedDistinctAggregate`, mode, ['DuplicateTable5'], 'SELECT count(distinct g), h FROM DuplicateTable5 GROUP BY h');
  add(`${AGG} testDistinctAggregate`, mode, ['DuplicateTable5'], 'SELECT count(distinct h) FROM DuplicateTable5');
}

// ====================================================================== window (TVF)
const WIN = `${S}/WindowAggregateITCase.scala`;
const winAggs = 'COUNT(*), SUM(`bigdec`), MAX(`double`), MIN(`float`), COUNT(DISTINCT `string`)';
add(`${WIN} testEventTimeTumbleWindow`, 'streaming', ['T1'], `SELECT \`name\`, window_start, window_end, ${winAggs} FROM TABLE(TUMBLE(TABLE T1, DESCRIPTOR(rowtime), INTERVAL '5' SECOND)) GROUP BY \`name\`, window_start, window_end`);

/** Writes each table's rows as `<dir>/<name>/data.csv`. */
export function writeSpecTables(dir, tables) {
  for (const t of tables) {
    mkdirSync(join(dir, t.name), { recursive: true });
    writeFileSync(join(dir, t.name, 'data.csv'), t.rows.map((r) => r.map(csvField).join(',') + '\n').join(''));
  }
}

const NULL = 'NULL';
function csvField(v) {
  if (v === null || v === undefined) return NULL;
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CREATE TABLE statements over the files of writeSpecTables(dir, tables), the same text for both engines. */
export function specDdl(dir, tables) {
  return tables.map((t) => {
    const cols = t.columns.map(([n, ty]) => `\`${n}\` ${ty}`);
    if (t.watermark) cols.push(`WATERMARK FOR \`${t.columns.find(([, ty]) => /^TIMESTAMP/.test(ty))[0]}\` AS ${t.watermark}`);
    return `CREATE TABLE \`${t.name}\` (${cols.join(', ')}) WITH ('connector' = 'filesystem', 'path' = '${join(dir, t.name)}', 'format' = 'csv', 'csv.null-literal' = '${NULL}')`;
  });
}

/** The distinct tables of `list` (specs), by name; a name given two contents is an error. */
export function tablesOf(list) {
  const byName = new Map();
  for (const s of list)
    for (const t of s.tables) {
      const prev = byName.get(t.name);
      if (prev !== undefined && JSON.stringify(prev) !== JSON.stringify(t)) throw new Error(`table ${t.name} declared twice with other contents`);
      byName.set(t.name, t);
    }
  return [...byName.values()];
}
export function knownReason() { return undefined; }
