// The planner's Calc as the lowering compiles it (RexNode -> compileRexCalc, one generated loop per
// batch) vs a hand-written JS loop doing the same work, over 1M rows of (k INT, v BIGINT, ts), for
//   SELECT k, v * 2 AS w FROM src WHERE v % 2 = 0            (bench/query-plans.mjs' projection+filter)
// Only the calc itself is timed (no source, no runtime). Batches of 1024 rows as the runtime sends them.
//   npm run build && node bench/expr-rex-calc.mjs
// SLUICE_DIST=/other/dist picks another build; BEFORE_DIST=/old/dist also times that build's calc in
// the same process, interleaved (a build without compileRexCalc is timed with per-field closures as
// its CalcOperator ran them).
import { performance } from 'node:perf_hooks';

const asUrl = (d) => new URL(`file://${d.replace(/^file:\/\//, '').replace(/\/?$/, '/')}`);
const after = process.env.SLUICE_DIST ? asUrl(process.env.SLUICE_DIST) : new URL('../dist/', import.meta.url);
const N = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const BATCH = 1024;

async function calcFrom(base) {
  const load = (p) => import(new URL(p, base).href);
  const { call, inputRef, literal } = await load('planner/rex/rex-node.js');
  const rex = await load('planner/rex/compile-rex.js');
  const { DataTypes: T } = await load('types/data-types.js');
  const { notNull } = await load('types/logical-type.js');
  const { Row } = await load('types/row.js');
  const k = inputRef(0, 'k', T.INT());
  const v = inputRef(1, 'v', T.BIGINT());
  const two = literal(2, notNull(T.INT()));
  // As the binder types it: BIGINT % INT -> BIGINT, compared with INT 0.
  const condition = call('=', [call('%', [v, two], T.BIGINT()), literal(0, notNull(T.INT()))], T.BOOLEAN());
  const projects = [k, call('*', [v, two], T.BIGINT())];
  if (typeof rex.compileRexCalc === 'function') return { Row, program: rex.compileRexCalc(projects, condition), kind: 'generated loop' };
  const projs = projects.map((p) => rex.compileRex(p));
  const cond = rex.compileRex(condition);
  const program = (rows, out) => {
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r];
      const f = row.fields;
      if (cond(f) !== true) continue;
      const fields = new Array(projs.length);
      for (let i = 0; i < projs.length; i++) fields[i] = projs[i](f);
      out.push(new Row(row.kind, fields));
    }
  };
  return { Row, program, kind: 'closures' };
}

const now = await calcFrom(after);
const before = process.env.BEFORE_DIST ? await calcFrom(asUrl(process.env.BEFORE_DIST)) : null;
const { Row } = now;

const batches = [];
for (let i = 0; i < N; i += BATCH) {
  const b = [];
  for (let j = i; j < Math.min(N, i + BATCH); j++) b.push(Row.insert(j % 1000, BigInt(j), 1_700_000_000_000 + j * 10));
  batches.push(b);
}

function handWritten(rows, out) {
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const f = r.fields;
    const v = f[1];
    if (v === null || v % 2n !== 0n) continue;
    out.push(new Row(r.kind, [f[0], BigInt.asIntN(64, v * 2n)]));
  }
}

function time(program) {
  let n = 0;
  const t0 = performance.now();
  for (const b of batches) {
    const out = [];
    program(b, out);
    n += out.length;
  }
  return { ms: performance.now() - t0, n };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const contenders = [['hand-written', handWritten], [`sluice (${now.kind})`, now.program], ...(before ? [[`before (${before.kind})`, before.program]] : [])];
const counts = contenders.map(([, p]) => time(p).n);
if (new Set(counts).size !== 1) throw new Error(`results differ: ${counts.join(' vs ')}`);
const times = contenders.map(() => []);
for (let r = 0; r < RUNS; r++) contenders.forEach(([, p], i) => times[i].push(time(p).ms));
const hand = median(times[0]);
console.log(`rows=${N} passing=${counts[0]} runs=${RUNS} (medians, interleaved)`);
contenders.forEach(([name], i) => {
  const m = median(times[i]);
  console.log(`${name.padEnd(28)} ${m.toFixed(1).padStart(8)} ms  ${((N / m) * 1000 / 1e6).toFixed(2).padStart(6)} M rows/s  ratio to hand ${(m / hand).toFixed(2)}`);
});
