// The jobs of the crash trials, one per stateful operator. Each reads datagen sequences (deterministic
// values, restored without gaps), so the failure-free run and the killed run see the same input; event
// time is derived from the sequence (a computed column plus a WATERMARK), so window contents do not depend
// on when rows arrive. Every job has under three seconds of data and aggregates with COUNT and SUM, which
// show a row counted twice or lost (MAX or COUNT DISTINCT would hide it).
import type { CrashJob } from './harness.js';

interface SeqOptions {
  readonly rows: number;
  readonly rowsPerSecond: number;
  /** Event time in ms of row `id` (an SQL expression over `id`); no event time when absent. */
  readonly eventTimeMs?: string;
  readonly column?: string;
}

/** A datagen table `name` with BIGINT column `id` = 1..rows, a processing-time column and maybe event time. */
export function sequence(name: string, o: SeqOptions): string {
  const col = o.column ?? 'id';
  const time = o.eventTimeMs ? `, ts AS TO_TIMESTAMP_LTZ(${o.eventTimeMs}, 3), WATERMARK FOR ts AS ts` : '';
  return `CREATE TEMPORARY TABLE ${name} (${col} BIGINT, pt AS PROCTIME()${time}) WITH (
  'connector' = 'datagen', 'fields.${col}.kind' = 'sequence', 'fields.${col}.start' = '1', 'fields.${col}.end' = '${o.rows}',
  'rows-per-second' = '${o.rowsPerSecond}');`;
}

// 4,000 rows at 1,500 rows/s; event time 10 ms per row: 40 s of event time, 100 rows per event-time second.
// Under 3 s of input, yet long enough that checkpoints complete amid it on a busy machine.
const numbers = sequence('numbers', { rows: 4000, rowsPerSecond: 1500 });
const events = sequence('events', { rows: 4000, rowsPerSecond: 1500, eventTimeMs: 'id * 10' });

export const groupBy: CrashJob = {
  name: 'group-by',
  sources: numbers,
  sinkColumns: 'k BIGINT, c BIGINT, s BIGINT, d BIGINT, sd BIGINT, ce BIGINT, so BIGINT',
  query: `SELECT id % 7, COUNT(*), SUM(id), COUNT(DISTINCT id % 13), SUM(DISTINCT id % 100),
  COUNT(*) FILTER (WHERE id % 2 = 0), SUM(id) FILTER (WHERE id % 3 = 0)
FROM numbers GROUP BY id % 7`,
  output: 'changelog',
};

/** The inner GROUP BY updates its rows; the outer one receives their retractions. */
export const groupByRetracting: CrashJob = {
  name: 'group-by-retracting',
  sources: numbers,
  sinkColumns: 'c BIGINT, keys BIGINT, s BIGINT, v BIGINT, m INT',
  // VAR_POP and COLLECT of DISTINCT values retract too. VAR_POP's running mean (Welford's, as Flink's) rounds
  // differently as values arrive in another order (they do at parallelism > 1, and after a restore), so the job
  // writes VAR_POP * n * n, an integer over integer values (n * SUM(x * x) - SUM(x) * SUM(x)), rounded: a last-digit
  // difference cannot change it. Over DOUBLE values: VAR_POP of a BIGINT is a BIGINT, truncated, and a last digit
  // below an integer truncates to the integer below (83199 * 625 where a failure-free run has 83200 * 625).
  query: `SELECT c, COUNT(*), SUM(s), CAST(ROUND(VAR_POP(DISTINCT CAST(s % 1000 AS DOUBLE)) * COUNT(DISTINCT s % 1000) * COUNT(DISTINCT s % 1000), 0) AS BIGINT), CARDINALITY(COLLECT(DISTINCT s % 7))
FROM (SELECT id % 50 AS k, COUNT(*) AS c, SUM(id) AS s FROM numbers GROUP BY id % 50) GROUP BY c`,
  output: 'changelog',
};

const windowColumns = 'ws STRING, we STRING, c BIGINT, s BIGINT';

export const tumble: CrashJob = {
  name: 'tumble',
  sources: events,
  sinkColumns: windowColumns,
  query: `SELECT CAST(window_start AS STRING), CAST(window_end AS STRING), COUNT(*), SUM(id)
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start, window_end`,
  output: 'append',
};

/** With a WHERE between the TVF and the aggregate: still a window aggregate, the filter below its local phase. */
export const hop: CrashJob = {
  name: 'hop',
  sources: events,
  sinkColumns: `k BIGINT, ${windowColumns}`,
  query: `SELECT id % 3, CAST(window_start AS STRING), CAST(window_end AS STRING), COUNT(*), SUM(id)
FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND)) WHERE id % 10 <> 7 GROUP BY window_start, window_end, id % 3`,
  output: 'append',
};

export const cumulate: CrashJob = {
  name: 'cumulate',
  sources: events,
  sinkColumns: windowColumns,
  query: `SELECT CAST(window_start AS STRING), CAST(window_end AS STRING), COUNT(*), SUM(id)
FROM TABLE(CUMULATE(TABLE events, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '4' SECOND)) GROUP BY window_start, window_end`,
  output: 'append',
};

/** Every 250 rows the event time jumps 3 s ahead: sessions with a 1 s gap close there. */
export const session: CrashJob = {
  name: 'session',
  sources: `${sequence('events', { rows: 4000, rowsPerSecond: 1500, eventTimeMs: 'id * 10 + (id / 250) * 3000' })}
CREATE TEMPORARY VIEW keyed AS SELECT id % 2 AS k, id, ts FROM events;`,
  sinkColumns: `k BIGINT, ${windowColumns}`,
  query: `SELECT k, CAST(window_start AS STRING), CAST(window_end AS STRING), COUNT(*), SUM(id)
FROM TABLE(SESSION(TABLE keyed PARTITION BY k, DESCRIPTOR(ts), INTERVAL '1' SECOND))
GROUP BY window_start, window_end, k`,
  output: 'append',
};

// OVER windows partition by columns only (not expressions) for now, hence the view.
const keyedEvents = `${events}
CREATE TEMPORARY VIEW keyed AS SELECT id % 5 AS k, id, ts FROM events;`;

export const overRows: CrashJob = {
  name: 'over-rows',
  sources: keyedEvents,
  sinkColumns: 'id BIGINT, c BIGINT, s BIGINT',
  query: `SELECT id, COUNT(*) OVER w, SUM(id) OVER w FROM keyed
WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 10 PRECEDING AND CURRENT ROW)`,
  output: 'append',
};

export const overRange: CrashJob = {
  name: 'over-range',
  sources: keyedEvents,
  sinkColumns: 'id BIGINT, c BIGINT, s BIGINT',
  query: `SELECT id, COUNT(*) OVER w, SUM(id) OVER w FROM keyed
WINDOW w AS (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '1' SECOND PRECEDING AND CURRENT ROW)`,
  output: 'append',
};

/**
 * MATCH_RECOGNIZE keyed by PARTITION BY k: per key, ids not divisible by 3 (two in a row, 5 apart) then one
 * that is. About 1,330 matches; COUNT and SUM of A show a row matched twice or lost across a restore.
 */
export const matchRecognize: CrashJob = {
  name: 'match-recognize',
  sources: keyedEvents,
  sinkColumns: 'k BIGINT, first_id BIGINT, c BIGINT, s BIGINT, b_id BIGINT',
  query: `SELECT * FROM keyed MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY ts
  MEASURES FIRST(A.id) AS first_id, COUNT(A.id) AS c, SUM(A.id) AS s, B.id AS b_id
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A{1,5} B)
  DEFINE A AS A.id % 3 <> 0, B AS B.id % 3 = 0)`,
  output: 'append',
};

/** The score (id * 7919) % 10007 is unique for ids below 10007, so the ranking has no ties. */
export const topN: CrashJob = {
  name: 'top-n',
  sources: numbers,
  sinkColumns: 'k BIGINT, id BIGINT, score BIGINT, rn BIGINT',
  query: `SELECT k, id, score, rn FROM (
  SELECT k, id, score, ROW_NUMBER() OVER (PARTITION BY k ORDER BY score DESC) AS rn
  FROM (SELECT id % 10 AS k, id, (id * 7919) % 10007 AS score FROM numbers))
WHERE rn <= 3`,
  output: 'changelog',
};

/**
 * A Top-1 per partition over an insert-only input: each better row replaces the held one as -U / +U (Flink's
 * FastTop1Function), so the changelog sink sees updates, not deletes. The column `spare` is read by nobody, so
 * the planner narrows the rank's input (and state) to k, id and score.
 */
export const top1: CrashJob = {
  name: 'top-1',
  sources: numbers,
  sinkColumns: 'k BIGINT, id BIGINT',
  query: `SELECT k, id FROM (
  SELECT k, id, spare, ROW_NUMBER() OVER (PARTITION BY k ORDER BY score DESC) AS rn
  FROM (SELECT id % 10 AS k, id, (id * 7919) % 10007 AS score, id * 3 AS spare FROM numbers))
WHERE rn <= 1`,
  output: 'changelog',
};

/**
 * A Top-3 per partition over a GROUP BY's updates, by a SUM of positive values: the sum only grows, so the Top-N
 * takes each update by the group key as one change and keeps only its top rows (Flink's UpdateFastStrategy,
 * UpdatableTopNFunction); a group that fell out comes back as a new row. Each group's final sum is its own, so
 * the final ranking has no ties.
 */
export const topNOverGroupBy: CrashJob = {
  name: 'top-n-over-group-by',
  sources: numbers,
  sinkColumns: 'k BIGINT, g BIGINT, c BIGINT, s BIGINT, rn BIGINT',
  query: `SELECT k, g, c, s, rn FROM (
  SELECT k, g, c, s, ROW_NUMBER() OVER (PARTITION BY k ORDER BY s DESC) AS rn
  FROM (SELECT id % 40 % 4 AS k, id % 40 AS g, COUNT(*) AS c, SUM(id) AS s FROM numbers WHERE id > 0 GROUP BY id % 40 % 4, id % 40))
WHERE rn <= 3`,
  output: 'changelog',
};

/**
 * A streaming ORDER BY ... LIMIT ... OFFSET on a non-time column: one Top-N over the whole input (Flink's
 * SortLimit), keeping only the top rows of its insert-only input in state.
 */
export const sortLimit: CrashJob = {
  name: 'sort-limit',
  sources: numbers,
  sinkColumns: 'id BIGINT, score BIGINT',
  query: `SELECT id, (id * 7919) % 10007 AS score FROM numbers ORDER BY score DESC, id LIMIT 5 OFFSET 2`,
  output: 'changelog',
};

/**
 * 1,000 keys, each seen four times in a scattered order: only the first row of each may come out. Flink
 * plans this (proctime, first row) insert-only; Sluice still says it may delete, hence the changelog sink.
 */
export const dedupFirst: CrashJob = {
  name: 'dedup-first-row',
  sources: numbers,
  sinkColumns: 'k BIGINT, id BIGINT',
  query: `SELECT k, id FROM (
  SELECT k, id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt ASC) AS rn
  FROM (SELECT (id * 7919) % 1000 AS k, id, pt FROM numbers))
WHERE rn = 1`,
  output: 'changelog',
};

/**
 * The first row per key by event time, insert-only (Flink 2.x): each key's row waits for the watermark, then is
 * appended once. Event time rises with the sequence, so no row is late whatever the batches, and the answer is
 * the smallest id of each key.
 */
export const dedupFirstRowtime: CrashJob = {
  name: 'dedup-first-row-rowtime',
  sources: events,
  sinkColumns: 'k BIGINT, id BIGINT',
  query: `SELECT k, id FROM (
  SELECT k, id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts ASC) AS rn
  FROM (SELECT (id * 7919) % 1000 AS k, id, ts FROM events))
WHERE rn = 1`,
  output: 'append',
};

export const dedupLast: CrashJob = {
  name: 'dedup-last-row',
  sources: events,
  sinkColumns: 'k BIGINT, id BIGINT',
  query: `SELECT k, id FROM (
  SELECT k, id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC) AS rn
  FROM (SELECT (id * 7919) % 1000 AS k, id, ts FROM events))
WHERE rn = 1`,
  output: 'changelog',
};

// Scores unique below 10007 ids (no ties), five keys; 100 rows per event-time second.
const scoredEvents = `${events}
CREATE TEMPORARY VIEW scored AS SELECT id % 5 AS k, id, (id * 7919) % 10007 AS score, ts FROM events;`;

/**
 * Window Top-N (Flink's WindowRank): the top 3 of each key per 1 s window, appended once when the window closes.
 * The row number is emitted, so an input row counted twice after a restore would take two places of a top.
 */
export const windowTopN: CrashJob = {
  name: 'window-top-n',
  sources: scoredEvents,
  sinkColumns: 'ws STRING, k BIGINT, id BIGINT, rn BIGINT',
  query: `SELECT CAST(window_start AS STRING), k, id, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k ORDER BY score DESC) AS rn
  FROM TABLE(TUMBLE(TABLE scored, DESCRIPTOR(ts), INTERVAL '1' SECOND)))
WHERE rn <= 3`,
  output: 'append',
};

/**
 * Window deduplication (Flink's WindowDeduplicate, last row by rowtime) over HOP windows, each row in three of
 * them, under a cascaded window aggregate counting and summing the rows kept per window.
 */
export const windowDedupAgg: CrashJob = {
  name: 'window-dedup-last-row-agg',
  sources: scoredEvents,
  sinkColumns: windowColumns,
  query: `SELECT CAST(window_start AS STRING), CAST(window_end AS STRING), COUNT(*), SUM(id) FROM (
  SELECT * FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k ORDER BY ts DESC) AS rn
    FROM TABLE(HOP(TABLE scored, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND)))
  WHERE rn = 1)
GROUP BY window_start, window_end`,
  output: 'append',
};

// Two inputs at different speeds, so either side's rows wait in state for the other's.
const joinInputs = [
  sequence('l', { rows: 3000, rowsPerSecond: 1000, column: 'a', eventTimeMs: 'a * 10' }),
  sequence('r', { rows: 1500, rowsPerSecond: 500, column: 'b', eventTimeMs: 'b * 20' }),
].join('\n');

export const innerJoin: CrashJob = {
  name: 'inner-join',
  sources: joinInputs,
  sinkColumns: 'a BIGINT, b BIGINT',
  query: `SELECT a, b FROM l JOIN r ON l.a % 1000 = r.b`,
  output: 'append',
};

/**
 * A correlated NOT EXISTS with a condition beyond the key equality: an anti join testing `r.b > l.a` per
 * matching right row, whose left rows come out and are retracted as matching right rows arrive.
 */
export const antiJoinCondition: CrashJob = {
  name: 'anti-join-condition',
  sources: joinInputs,
  sinkColumns: 'a BIGINT',
  query: `SELECT a FROM l WHERE NOT EXISTS (SELECT 1 FROM r WHERE r.b % 100 = l.a % 100 AND r.b > l.a)`,
  output: 'changelog',
};

/**
 * A self-join: sub-plan reuse reads `numbers` once and sends each row over two edges from the one source
 * vertex into the two inputs of the join (Flink's `Exchange(...)(reuse_id=[1])` / `Reused(reference_id=[1])`),
 * so the join's barrier alignment waits for each source subtask's barrier on both inputs.
 */
export const selfJoin: CrashJob = {
  name: 'self-join',
  sources: numbers,
  sinkColumns: 'a BIGINT, b BIGINT',
  query: `SELECT l.id, r.id FROM numbers AS l JOIN numbers AS r ON l.id = r.id`,
  output: 'append',
};

/** Right rows 1001..1500 never match; left rows first come out null-padded, then are retracted. */
export const outerJoin: CrashJob = {
  name: 'full-outer-join',
  sources: joinInputs,
  sinkColumns: 'a BIGINT, b BIGINT',
  query: `SELECT a, b FROM l FULL OUTER JOIN r ON l.a % 1000 = r.b`,
  output: 'changelog',
};

export const intervalJoin: CrashJob = {
  name: 'interval-join',
  sources: joinInputs,
  sinkColumns: 'a BIGINT, b BIGINT',
  query: `SELECT a, b FROM l, r WHERE l.a % 50 = r.b % 50 AND l.ts BETWEEN r.ts - INTERVAL '1' SECOND AND r.ts`,
  output: 'append',
};

/**
 * Orders (10 ms apart) against a versioned rate per currency that changes every 100 ms of event time. The
 * versioned table is a csv file with a primary key (a deduplicating view is not yet recognized as one).
 */
export const temporalJoin: CrashJob = {
  name: 'temporal-join',
  files: { 'rates/rates.csv': Array.from({ length: 400 }, (_, i) => `${i + 1},${(i + 1) % 5},${(i + 1) * 100}\n`).join('') },
  sources: `${sequence('order_log', { rows: 4000, rowsPerSecond: 1500, eventTimeMs: 'id * 10' })}
CREATE TEMPORARY VIEW orders AS SELECT id, id % 5 AS cur, ts FROM order_log;
CREATE TEMPORARY TABLE rates (rate BIGINT, cur BIGINT, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts,
  PRIMARY KEY (cur) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '$DIR/rates', 'format' = 'csv');`,
  sinkColumns: 'id BIGINT, cur BIGINT, rate BIGINT',
  query: `SELECT o.id, r.cur, r.rate FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.cur = r.cur`,
  output: 'append',
};

/**
 * A CSV file source read from the middle after a kill: 1,500,000 lines (about 30 MB, over a second of reading, so
 * kills land mid-file; many 256 KiB chunks and 32 KiB text windows of in-place reading, and byte ranges of the file), folded by a mini-batch GROUP BY (one
 * update per key and batch, so the changelog stays small). A resumed read that skipped or repeated a line, or
 * split one at a window or chunk edge, changes a COUNT or SUM.
 */
export const csvFileGroupBy: CrashJob = {
  name: 'csv-file-group-by',
  files: { 'lines/lines.csv': Array.from({ length: 1_500_000 }, (_, i) => `${i + 1},${(i + 1) % 7},${'x'.repeat((i * 7) % 12)}\n`).join('') },
  sources: `CREATE TEMPORARY TABLE lines (id BIGINT, k BIGINT, pad STRING) WITH ('connector' = 'filesystem', 'path' = '$DIR/lines', 'format' = 'csv');`,
  settings: ["SET 'table.exec.mini-batch.enabled' = 'true';"],
  sinkColumns: 'k BIGINT, c BIGINT, s BIGINT, l BIGINT',
  query: 'SELECT k, COUNT(*), SUM(id), SUM(CHAR_LENGTH(pad)) FROM lines GROUP BY k',
  output: 'changelog',
};

/**
 * The same kind of file read without state, into the trials' file sink (a line format): nothing keeps the values past
 * their batch, so the CSV decoder slices its strings (13 chars and more here) out of the text windows instead of
 * copying them (ScanContext.transientValues). A resumed read that skipped, repeated or cut a line changes the rows.
 */
export const csvFileFilter: CrashJob = {
  name: 'csv-file-filter',
  files: { 'lines/lines.csv': Array.from({ length: 1_500_000 }, (_, i) => `${i + 1},${(i + 1) % 7},${String.fromCharCode(97 + (i % 26)).repeat(13 + ((i * 7) % 12))}\n`).join('') },
  sources: `CREATE TEMPORARY TABLE lines (id BIGINT, k BIGINT, pad STRING) WITH ('connector' = 'filesystem', 'path' = '$DIR/lines', 'format' = 'csv');`,
  sinkColumns: 'id BIGINT, pad STRING, l INT',
  query: 'SELECT id, UPPER(pad), CHAR_LENGTH(pad) FROM lines WHERE MOD(id, 5) = 0',
  output: 'append',
};

export const windowJoin: CrashJob = {
  name: 'window-join',
  sources: `${joinInputs}
CREATE TEMPORARY VIEW lk AS SELECT a, a % 50 AS k, ts FROM l;
CREATE TEMPORARY VIEW rk AS SELECT b, b % 50 AS k, ts FROM r;`,
  sinkColumns: 'ws STRING, k BIGINT, a BIGINT, b BIGINT',
  query: `SELECT CAST(L.window_start AS STRING), L.k, L.a, R.b FROM
  (SELECT * FROM TABLE(TUMBLE(TABLE lk, DESCRIPTOR(ts), INTERVAL '1' SECOND))) L
  JOIN
  (SELECT * FROM TABLE(TUMBLE(TABLE rk, DESCRIPTOR(ts), INTERVAL '1' SECOND))) R
  ON L.window_start = R.window_start AND L.window_end = R.window_end AND L.k = R.k`,
  output: 'append',
};

export const allJobs: readonly CrashJob[] = [
  groupBy,
  groupByRetracting,
  tumble,
  hop,
  cumulate,
  session,
  overRows,
  overRange,
  matchRecognize,
  topN,
  top1,
  topNOverGroupBy,
  sortLimit,
  dedupFirst,
  dedupFirstRowtime,
  dedupLast,
  windowTopN,
  windowDedupAgg,
  innerJoin,
  antiJoinCondition,
  selfJoin,
  outerJoin,
  intervalJoin,
  temporalJoin,
  windowJoin,
  csvFileGroupBy,
  csvFileFilter,
];

/** A window aggregate keyed by `id % 7` as well as by its window, so its state is spread over subtasks. */
function keyedWindow(job: CrashJob): CrashJob {
  return {
    ...job,
    name: `${job.name}-keyed`,
    sinkColumns: `k BIGINT, ${windowColumns}`,
    query: job.query.replace('SELECT ', 'SELECT id % 7, ').replace(/GROUP BY window_start, window_end$/, 'GROUP BY window_start, window_end, id % 7'),
  };
}

/**
 * First-row deduplication by processing time keeps whichever row of a key arrives first, so two source
 * splits racing each other would make even failure-free runs differ. At parallelism 2 the sequence is two
 * ranges, 1..2000 and 2001..4000 ('ranges' layout of datagen, kept across restores); here each key's four
 * rows (500 apart) lie in one range, which emits them in order, so the first row is always the smallest id.
 */
const dedupFirstPerSplit: CrashJob = {
  ...dedupFirst,
  query: `SELECT k, id FROM (
  SELECT k, id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt ASC) AS rn
  FROM (SELECT id % 500 + 500 * ((id - 1) / 2000) AS k, id, pt FROM numbers))
WHERE rn = 1`,
};

/**
 * The same job with its datagen sources at `1 / factor` of their rate: the input lasts `factor` times as
 * long, so a resumed run still has input left after its first checkpoint on a busy machine.
 */
function slower(job: CrashJob, factor: number): CrashJob {
  return { ...job, sources: job.sources.replace(/'rows-per-second' = '(\d+)'/g, (_, r: string) => `'rows-per-second' = '${Math.round(Number(r) / factor)}'`) };
}

/**
 * The jobs of the rescale trials (resumed at parallelism 2 -> 3 -> 1): every keyed operator, at a third
 * of the rate (about 8 s of input: two runs of each copy must be killed after a checkpoint of their own
 * with input left, and on a busy machine a resumed run's first checkpoint may take seconds). TUMBLE and
 * CUMULATE without a key run in one subtask at any parallelism, so they are keyed here.
 */
export const rescaleJobs: readonly CrashJob[] = allJobs.map((j) => {
  if (j === tumble || j === cumulate) return slower(keyedWindow(j), 3);
  if (j === dedupFirst) return slower(dedupFirstPerSplit, 3);
  return slower(j, 3);
});
