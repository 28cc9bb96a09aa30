// Measures which CASTs a real Apache Flink keeps a unique key through (its upsert-key derivation sees through an
// injective cast, LogicalTypeCasts.supportsInjectiveCast) and writes the table test/planner/key-preserving-cast.test.ts
// checks Sluice's isKeyPreservingCast against. Needs Java 17+ and Maven (scripts/flink-reference.sh); tests never do.
//   node scripts/flink-injective-casts.mjs
// Each pair is one EXPLAIN CHANGELOG_MODE of `INSERT INTO sink SELECT CAST(k AS to), COUNT(*) FROM src GROUP BY k`
// into a blackhole keyed by the cast column: Flink 2.3 plans it when the cast keeps the group key an upsert key, and
// refuses it ("upsert key that differs from the primary key", table.exec.sink.require-on-conflict) when it does not.
// Pairs Flink cannot cast at all are left out.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const scalars = ['TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'FLOAT', 'DOUBLE', 'DECIMAL(10, 2)', 'DECIMAL(20, 2)', 'DECIMAL(5, 0)', 'BOOLEAN',
  'STRING', 'VARCHAR(5)', 'CHAR(3)', 'DATE', 'TIME(0)', 'TIMESTAMP(3)', 'TIMESTAMP(6)', 'TIMESTAMP_LTZ(3)', 'BYTES', 'BINARY(3)', 'VARBINARY(5)'];
const pairs = [];
for (const s of scalars) for (const t of scalars) if (s !== t) pairs.push([s, t]);
// Target lengths around each type's longest text, and string <-> binary lengths.
const texts = ['TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'FLOAT', 'DOUBLE', 'BOOLEAN', 'DATE', 'TIME(0)', 'TIME(3)', 'TIMESTAMP(0)', 'TIMESTAMP(3)',
  'TIMESTAMP(6)', 'TIMESTAMP_LTZ(0)', 'TIMESTAMP_LTZ(3)', 'DECIMAL(5, 2)'];
for (const s of texts) for (let n = 1; n <= 30; n++) pairs.push([s, `VARCHAR(${n})`]);
for (const s of ['INT', 'BOOLEAN', 'DATE']) for (let n = 1; n <= 15; n++) pairs.push([s, `CHAR(${n})`]);
for (const s of ['VARCHAR(5)', 'CHAR(3)']) for (let n = 1; n <= 25; n++) pairs.push([s, `VARBINARY(${n})`], [s, `BINARY(${n})`]);
for (const s of ['BINARY(3)', 'VARBINARY(3)']) for (let n = 1; n <= 6; n++) pairs.push([s, `VARBINARY(${n})`], [s, `BINARY(${n})`], [s, `VARCHAR(${n * 3})`]);
for (const s of ['VARCHAR(5)', 'CHAR(3)']) for (let n = 1; n <= 7; n++) pairs.push([s, `CHAR(${n})`], [s, `VARCHAR(${n})`]);
pairs.push(['INT NOT NULL', 'BIGINT'], ['TIMESTAMP(6)', 'TIMESTAMP_LTZ(6)'], ['TIMESTAMP(3)', 'TIMESTAMP_LTZ(6)'], ['TIMESTAMP(0)', 'TIMESTAMP(3)'],
  ['TIME(0)', 'TIME(3)'], ['DECIMAL(10, 2)', 'DECIMAL(12, 2)'], ['DATE', 'TIMESTAMP(3)'], ['ARRAY<INT>', 'ARRAY<BIGINT>'], ['ARRAY<INT>', 'STRING'],
  ['ROW<a INT>', 'ROW<a BIGINT>'], ['ROW<a INT, b STRING>', 'ROW<a BIGINT, b STRING>'], ['ROW<a INT, b STRING>', 'ROW<a BIGINT, b VARCHAR(3)>'],
  ['MAP<INT, INT>', 'MAP<BIGINT, BIGINT>']);

const sources = [...new Set(pairs.map(([s]) => s))];
const targets = [...new Set(pairs.map(([, t]) => t))];
const sql = [
  "SET 'execution.runtime-mode' = 'streaming';",
  `CREATE TABLE src (${sources.map((s, i) => `c${i} ${s}`).join(', ')}) WITH ('connector' = 'datagen', 'number-of-rows' = '10');`,
  ...targets.map((t, i) => `CREATE TABLE snk${i} (k ${t}, c BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'blackhole');`),
  ...pairs.map(([s, t]) => {
    const c = `c${sources.indexOf(s)}`;
    return `EXPLAIN CHANGELOG_MODE INSERT INTO snk${targets.indexOf(t)} SELECT CAST(${c} AS ${t}), COUNT(*) FROM src GROUP BY ${c};`;
  }),
];
const dir = mkdtempSync(join(tmpdir(), 'flink-injective-'));
writeFileSync(join(dir, 'casts.sql'), sql.join('\n'));
const run = spawnSync(join(repo, 'scripts/flink-reference.sh'), ['--shared-cluster', join(dir, 'casts.sql')], { encoding: 'utf8', maxBuffer: 1 << 28 });
const setup = 2 + targets.length;
const lines = [];
for (const m of run.stdout.matchAll(/^#### END (\d+) (OK|ERROR)(.*)$/gm)) {
  const n = Number(m[1]);
  if (n <= setup) {
    if (m[2] !== 'OK') throw new Error(`setup statement ${n} failed: ${m[3]}`);
    continue;
  }
  const [s, t] = pairs[n - setup - 1];
  if (m[2] === 'OK') lines.push(`${s} -> ${t}: key`);
  else if (/upsert key that differs from the primary key/.test(m[3])) lines.push(`${s} -> ${t}: no`);
}
if (lines.length === 0) throw new Error(`no answers from Flink:\n${run.stderr}`);
const version = process.env.FLINK_VERSION ?? '2.3.0';
const out = join(repo, 'test/planner/fixtures/flink-injective-casts.txt');
writeFileSync(out, `# Written by scripts/flink-injective-casts.mjs from a real Apache Flink ${version}: whether CAST(from AS to) keeps a unique key.\n${lines.join('\n')}\n`);
console.log(`wrote ${lines.length} pairs to ${out}`);
