// The fixed bounded tables every generated query reads: two csv files written into a folder, and the DDL that
// both engines (Sluice and the Flink reference runner) run over them. The rows are fixed (not drawn from the seed),
// so a golden recorded once stays valid for every seed; they hold NULLs, edge values, empty and unicode strings.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Columns of t1 and t2 by the generator's type names (see generator.mjs). */
export const T1_COLUMNS = [
  ['id', 'INT'],
  ['k', 'INT'],
  ['a', 'INT'],
  ['b', 'BIGINT'],
  ['d', 'DEC'],
  ['x', 'DOUBLE'],
  ['s', 'STRING'],
  ['ts', 'TS'],
  // Added after the first goldens were recorded: old queries never name these columns, so their answers stand.
  ['y', 'DOUBLE'],
  ['d0', 'DEC'],
  ['dl', 'DEC'],
  ['ds', 'DEC'],
  ['t0', 'TS'],
  ['t6', 'TS'],
  ['t9', 'TS'],
  ['j', 'JSON'],
  // Added in stop 28, once Sluice kept digits below the millisecond: TIMESTAMP(1), (4), (7) and (9) values that use
  // every digit of their precision.
  ['t1p', 'TS'],
  ['t4', 'TS'],
  ['t7', 'TS'],
  ['t9n', 'TS'],
];
export const T2_COLUMNS = [
  ['k', 'INT'],
  ['name', 'STRING'],
  ['amt', 'DEC2'],
  ['flag', 'BOOL'],
];

const S = ['apple', 'Banana', '', ' pad ', 'ünïcode', 'a,b', 'x%y', '12', '-7', '3.5', 'apple', 'zeta', 'Apple pie'];
const A = [0, 1, -1, 7, 42, -50, 13, 100, 2147483647, -2147483648, 5, 5, 3];
const B = [0n, 1n, -1n, 9007199254740993n, -9223372036854775808n, 123456789012n, 77n, -3n, 10n];
const D = ['0.00', '1.50', '-2.25', '99999999.99', '-0.01', '10.00', '3.33', '7.10'];
const X = ['0.0', '1.5', '-0.25', '1.0E10', '0.1', '3.0', '-7.5', '1.0E-7', '2.5', '100.0'];

// Edge doubles: NaN, both infinities, negative zero, the smallest subnormal and the largest finite value.
const Y = ['NaN', 'Infinity', '-Infinity', '-0.0', '0.0', '1.5', '4.9E-324', '1.7976931348623157E308', '-2.5', 'NaN', '3.0'];
// DECIMAL(5, 0), DECIMAL(38, 18) and DECIMAL(3, 3): the ends of each range.
const D0 = ['0', '99999', '-99999', '1', '-42', '7'];
const DL = ['12345678901234567890.123456789012345678', '-0.000000000000000001', '0', '99999999999999999999.999999999999999999', '1.5', '-99999999999999999999.999999999999999999', '3'];
const DS = ['0.999', '-0.500', '0.001', '0.000', '-0.999'];
// Timestamps around leap days (2024-02-29, 2000-02-29; 1900 and 2100 are not leap years), before the epoch and at a
// year's end. Milliseconds at most, as when the recorded goldens were taken (digits below the millisecond are checked
// by goldens/regressions.json's TIMESTAMP(p > 3) cases; new data here would invalidate every recorded golden). Those before the epoch
// are at midnight: Flink 2.3 truncates a negative time of day towards zero (CAST('1969-12-31 23:59:59.9' AS DATE) is
// 1970-01-01 there; docs/differences-from-flink.md), which would make most queries over them diverge.
const TP = ['2024-02-29 00:00:00', '2000-02-29 23:59:59.5', '1900-03-01 00:00:00', '2023-02-28 12:00:00.123', '2024-12-31 23:59:59.999', '1970-01-01 00:00:00', '2100-02-28 06:30:00', '2024-03-01 00:00:00.001', '1969-12-31 00:00:00'];
// Values with every fraction digit of their column's precision (1, 4, 7, 9), after 1970 (see above), around leap days,
// a year's end and the epoch: the digits below the millisecond meet casts, arithmetic, keys and ordering.
const TN = ['2024-02-29 23:59:59.999999999', '2000-02-29 00:00:00.000000001', '1970-01-01 00:00:00.123456789', '2023-12-31 23:59:59.500000500', '2100-02-28 12:34:56.987654321', '2024-03-01 00:00:00.000999999', '2024-02-29 23:59:59.999999999'];
const digits = (t, p) => (p === 0 ? t.slice(0, 19) : t.slice(0, 20 + p));
// JSON texts (and some that are not JSON) for the JSON functions.
const J = ['{"a":1,"b":[1,2,{"c":"x"}],"d":null}', '[1,"two",3.5,true]', '"str"', '42', 'not json', '{}', '[]', '{"a":"1.5","b":{"c":[]}}', '{"a":9223372036854775807}', '{"a":true,"b":[]}', '{"a":-1.25E2,"c":"ü"}', 'null'];

/** t1's rows as csv fields (NULL written as the null literal); id is unique and ts strictly increasing. */
function t1Rows() {
  const rows = [];
  for (let i = 0; i < 26; i++) {
    const nul = (m, off) => (i + off) % m === 0;
    const ms = (i * 41_000 + ((i * 137) % 1000)) % 1_000_000_000;
    const t = new Date(Date.UTC(2024, 1, 29, 23, 50, 0) + ms);
    const ts = t.toISOString().replace('T', ' ').replace('Z', '');
    rows.push([
      String(i + 1),
      nul(9, 4) ? null : String(i % 4),
      nul(7, 3) ? null : String(A[i % A.length]),
      nul(8, 5) ? null : String(B[i % B.length]),
      nul(6, 2) ? null : D[i % D.length],
      nul(10, 7) ? null : X[i % X.length],
      nul(5, 1) ? null : S[i % S.length],
      ts,
      nul(11, 6) ? null : Y[i % Y.length],
      nul(7, 1) ? null : D0[i % D0.length],
      nul(9, 2) ? null : DL[i % DL.length],
      nul(8, 3) ? null : DS[i % DS.length],
      nul(9, 5) ? null : TP[(i * 2) % TP.length].slice(0, 19),
      nul(10, 4) ? null : TP[(i * 5) % TP.length],
      nul(6, 5) ? null : TP[i % TP.length],
      nul(8, 7) ? null : J[i % J.length],
      nul(7, 2) ? null : digits(TN[i % TN.length], 1),
      nul(9, 1) ? null : digits(TN[(i * 3) % TN.length], 4),
      nul(10, 8) ? null : digits(TN[(i * 2) % TN.length], 7),
      nul(6, 4) ? null : TN[(i * 5) % TN.length],
    ]);
  }
  return rows;
}

function t2Rows() {
  return [
    ['0', 'zero', '0.000', 'true'],
    ['1', 'one', '1.250', 'false'],
    ['1', 'uno', '-3.500', 'true'],
    ['2', 'two', '1000.001', null],
    ['3', null, '7.000', 'false'],
    [null, 'nobody', '2.000', 'true'],
    ['5', 'five', null, 'true'],
    ['2', 'deux', '0.100', 'false'],
  ];
}

const NULL = 'NULL';

function csvField(v) {
  if (v === null) return NULL;
  return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** `yyyy-...` text with its year moved `years` later (a multiple of 400 keeps the Gregorian calendar as it was). */
export function shiftYears(text, years) {
  return text.replace(/^(\d{4})-/, (_, y) => `${Number(y) + years}-`);
}

/**
 * Writes t1/data.csv and t2/data.csv under `dir`. `yearShift` moves every timestamp that many years later (the
 * differential harness re-runs a divergence 400 years on, where no instant is before 1970 but every calendar fact,
 * leap days and weekdays included, is the same); `withoutNaN` writes t1.y's NaNs as NULL.
 */
export function writeTables(dir, yearShift = 0, withoutNaN = false) {
  const shift = (rows) => (yearShift === 0 ? rows : rows.map((r) => r.map((f, i) => (f !== null && [7, 12, 13, 14, 16, 17, 18, 19].includes(i) ? shiftYears(f, yearShift) : f))));
  // `withoutNaN`: t1.y's NaNs written as NULL (the harness's re-run of a MIN / MAX divergence without them).
  const noNaN = (rows) => (withoutNaN ? rows.map((r) => r.map((f, i) => (i === 8 && f === 'NaN' ? null : f))) : rows);
  for (const [name, rows] of [
    ['t1', noNaN(shift(t1Rows()))],
    ['t2', t2Rows()],
  ]) {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, 'data.csv'), rows.map((r) => r.map(csvField).join(',')).join('\n') + '\n');
  }
}

/** DDL over the files of writeTables(dir), the same text for both engines. */
export function tableDdl(dir) {
  const opts = (name) => `'connector' = 'filesystem', 'path' = '${join(dir, name)}', 'format' = 'csv', 'csv.null-literal' = '${NULL}'`;
  return [
    `CREATE TABLE t1 (id INT, k INT, a INT, b BIGINT, d DECIMAL(10, 2), x DOUBLE, s STRING, ts TIMESTAMP(3), y DOUBLE, d0 DECIMAL(5, 0), dl DECIMAL(38, 18), ds DECIMAL(3, 3), t0 TIMESTAMP(0), t6 TIMESTAMP(6), t9 TIMESTAMP(9), j STRING, t1p TIMESTAMP(1), t4 TIMESTAMP(4), t7 TIMESTAMP(7), t9n TIMESTAMP(9), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (${opts('t1')})`,
    `CREATE TABLE t2 (k INT, name STRING, amt DECIMAL(12, 3), flag BOOLEAN) WITH (${opts('t2')})`,
  ];
}
