// Planned-query throughput: SQL -> planner -> job graph -> runtime, over an in-memory bounded table,
// next to a hand-written JS loop computing the same result. Run after `npm run build` (or point
// SLUICE_DIST at another build):  node bench/query-plans.mjs [rows] [case-name-part]
// Queries: projection+filter, tumbling COUNT per key (streaming), two-way join (batch hash join and
// streaming regular join). Each run times Sluice then the loop, interleaved; reports rows/s (median of
// 5 runs) and the ratio of the medians (Sluice time / loop time).
import { performance } from 'node:perf_hooks';

const distBase = process.env.SLUICE_DIST ?? new URL('../dist/', import.meta.url).href;
const dist = (p) => new URL(p, distBase.endsWith('/') ? distBase : `${distBase}/`).href;
const { Row } = await import(dist('types/row.js'));
const { parseStatement } = await import(dist('sql/parse.js'));
const { planQuery } = await import(dist('planner/planner.js'));
const { ValuesSource } = await import(dist('table-runtime/values-source.js'));
const { ChangelogMode } = await import(dist('factories/changelog-mode.js'));
const { ResolvedSchema, Columns } = await import(dist('types/schema.js'));
const { DataTypes } = await import(dist('types/data-types.js'));
const { executeJob, defaultRuntimeConfig } = await import(dist('runtime/index.js'));

const ROWS = Number(process.argv[2] ?? 1_000_000);
/** Runs only the cases whose name contains this (e.g. `join`), for profiling one of them. */
const ONLY = process.argv[3];
const RUNS = 5;
const KEYS = 1000;
const rows = new Array(ROWS);
for (let i = 0; i < ROWS; i++) rows[i] = Row.insert(i % KEYS, BigInt(i), 1_700_000_000_000 + i * 10);
const dim = [];
for (let k = 0; k < KEYS; k++) dim.push(Row.insert(k, `name-${k}`));

const schema = ResolvedSchema.of([
  Columns.physical('k', DataTypes.INT()),
  Columns.physical('v', DataTypes.BIGINT()),
  Columns.physical('ts', DataTypes.TIMESTAMP(3)),
], [{ rowtimeAttribute: 'ts', expression: "ts - INTERVAL '1' SECOND" }]);
const dimSchema = ResolvedSchema.of([Columns.physical('k', DataTypes.INT()), Columns.physical('name', DataTypes.STRING())]);
const tables = { src: { schema, rows }, dim: { schema: dimSchema, rows: dim } };
const JOIN_SQL = 'SELECT s.v, d.name FROM src AS s JOIN dim AS d ON s.k = d.k';

/** Rows grouped by their first field (the join key), as a hash join's build side. */
function hashBy(input) {
  const m = new Map();
  for (const r of input) {
    const k = r.fields[0];
    const l = m.get(k);
    if (l === undefined) m.set(k, [r]);
    else l.push(r);
  }
  return m;
}

function ctx(mode) {
  return {
    mode,
    config: new Map(),
    async resolveTable(names) {
      const name = names[names.length - 1];
      const t = tables[name];
      return { identifier: { catalog: 'c', database: 'd', object: name }, table: { kind: 'table', schema: t.schema, partitionKeys: [], options: {} }, isTemporary: true };
    },
    createSource(id) {
      const t = tables[id.object];
      let proj = null;
      return {
        kind: 'scan-source',
        getChangelogMode: () => ChangelogMode.insertOnly(),
        getScanRuntimeProvider: () => ({ source: new ValuesSource(proj === null ? t.rows : t.rows.map((r) => new Row(r.kind, proj.map((i) => r.fields[i])))), bounded: true }),
        asSummaryString: () => id.object,
        applyProjection: (idx) => ((proj = idx), true),
      };
    },
    createSink() {
      throw new Error('no sinks');
    },
  };
}

async function runSql(sql, mode) {
  const stmt = parseStatement(sql);
  const planned = await planQuery(stmt.query, ctx(mode));
  let count = 0;
  const graph = planned.toJobGraph({ push: (b) => void (count += b.length), end: () => {} });
  const t0 = performance.now();
  await executeJob(graph, defaultRuntimeConfig()).waitForCompletion();
  return { ms: performance.now() - t0, count };
}

/**
 * The loops' join: each row of `input` added to `mine` (unless null) by its key and matched against
 * `other`'s rows of that key, each pair emitted as a fresh [v, name] row; output dropped per ~1024 rows.
 */
function probe(input, mine, other, isLeft) {
  let n = 0;
  let out = [];
  for (const row of input) {
    const k = row.fields[0];
    if (mine !== null) {
      const list = mine.get(k);
      if (list === undefined) mine.set(k, [row]);
      else list.push(row);
    }
    const os = other.get(k);
    if (os === undefined) continue;
    for (const o of os) out.push(new Row(row.kind, isLeft ? [row.fields[1], o.fields[1]] : [o.fields[1], row.fields[1]]));
    if (out.length >= 1024) {
      n += out.length;
      out = [];
    }
  }
  return n + out.length;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const cases = [
  {
    name: 'projection+filter',
    mode: 'batch',
    sql: 'SELECT k, v * 2 AS w FROM src WHERE v % 2 = 0',
    loop() {
      // Output in batches of the source's size, dropped once counted, as the bench sink does with
      // Sluice's batches (one 500k-row array kept alive would mostly time the garbage collector).
      let n = 0;
      for (let i = 0; i < rows.length; i += 1024) {
        const out = [];
        const end = Math.min(rows.length, i + 1024);
        for (let j = i; j < end; j++) {
          const r = rows[j];
          const v = r.fields[1];
          if (v !== null && v % 2n === 0n) out.push(new Row(r.kind, [r.fields[0], BigInt.asIntN(64, v * 2n)]));
        }
        n += out.length;
      }
      return n;
    },
  },
  {
    name: 'tumbling COUNT per key',
    mode: 'streaming',
    sql: "SELECT k, window_start, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end",
    loop() {
      const m = new Map();
      for (const r of rows) {
        const ts = r.fields[2];
        const ws = ts - (ts % 10000);
        const key = r.fields[0] * 1e13 + ws;
        m.set(key, (m.get(key) ?? 0) + 1);
      }
      return m.size;
    },
  },
  {
    name: 'two-way join',
    mode: 'batch',
    sql: JOIN_SQL,
    // The same work as the batch hash join: the build side (dim) hashed by the join key, the other side
    // probed in order, every pair emitted as a fresh joined row, in batches dropped once counted (as the
    // bench sink does). Hashing the probe side too would only make the loop slower (it walks 1M rows in
    // key order, one cache miss each), flattering the ratio.
    loop() {
      return probe(rows, null, hashBy(dim), true);
    },
  },
  {
    name: 'two-way join streaming',
    mode: 'streaming',
    sql: JOIN_SQL,
    // A hand-written symmetric hash join of insert-only inputs: each row is added to its side's table
    // and probed against the other's, in the order the streaming job sees them (dim first, it is small).
    loop() {
      const l = new Map();
      const r = new Map();
      return probe(dim, r, l, false) + probe(rows, l, r, true);
    },
  },
];

console.log(`rows per run: ${ROWS}`);
for (const c of cases.filter((c) => ONLY === undefined || c.name.includes(ONLY))) {
  const sluice = [];
  const plain = [];
  let count = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await runSql(c.sql, c.mode);
    sluice.push(r.ms);
    count = r.count;
    const t0 = performance.now();
    c.loop();
    plain.push(performance.now() - t0);
  }
  const s = median(sluice);
  const p = median(plain);
  console.log(
    `${c.name.padEnd(24)} ${((ROWS / s) * 1000).toFixed(0).padStart(10)} rows/s  plain ${((ROWS / p) * 1000).toFixed(0).padStart(10)} rows/s  ratio ${(s / p).toFixed(1)}x  (output ${count} rows)`,
  );
}
