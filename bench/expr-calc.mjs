// Compiled Calc (filter + projection generated with new Function) vs a hand-written JS loop doing the
// same work, over 1M Nexmark-style bid rows. Median of 5 runs each; prints the ratio.
//   npm run build && node bench/expr-calc.mjs      (SLUICE_DIST=/other/dist to use another build)
import { performance } from 'node:perf_hooks';

const base = process.env.SLUICE_DIST ? new URL(`file://${process.env.SLUICE_DIST.replace(/\/?$/, '/')}`) : new URL('../dist/', import.meta.url);
const load = (p) => import(new URL(p, base).href);

const { DataTypes: T, Row, RowKind } = await load('types/index.js');
const { bindCall, inputRef, literal, compileCalc, exprToString } = await load('planner/expressions/index.js');
const { createBuiltinRegistry } = await load('planner/functions/index.js');

const N = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = 5;

const channels = ['Google', 'Facebook', 'Baidu', 'Apple'];
const rows = new Array(N);
for (let i = 0; i < N; i++) {
  rows[i] = new Row(RowKind.INSERT, [BigInt(1000 + (i % 997)), BigInt(2000 + (i % 1999)), BigInt(100 + ((i * 7919) % 100_000)), channels[i % 4], 1_577_836_800_000 + i * 17]);
}

const r = createBuiltinRegistry();
const f = (n) => r.lookup(n);
const auction = inputRef(0, T.BIGINT(), 'auction');
const bidder = inputRef(1, T.BIGINT(), 'bidder');
const price = inputRef(2, T.BIGINT(), 'price');
const channel = inputRef(3, T.STRING(), 'channel');
const ts = inputRef(4, T.TIMESTAMP(3), 'dateTime');

// SELECT auction, bidder, price * 908 / 1000, UPPER(channel), dateTime FROM bid WHERE price > 50000 AND channel <> 'Apple'
const projection = [auction, bidder, bindCall(f('/'), [bindCall(f('*'), [price, literal(908n, T.BIGINT())]), literal(1000n, T.BIGINT())]), bindCall(f('UPPER'), [channel]), ts];
const condition = bindCall(f('AND'), [bindCall(f('>'), [price, literal(50000n, T.BIGINT())]), bindCall(f('<>'), [channel, literal('Apple', T.STRING())])]);
const names = ['auction', 'bidder', 'price', 'channel', 'dateTime'];
console.log(`Calc(select=[${projection.map((e) => exprToString(e, names)).join(', ')}], where=[${exprToString(condition, names)}])`);

const compiled = compileCalc(projection, condition);

// The same semantics by hand: null checks, BIGINT wrap, division-by-zero guard, three-valued AND.
function handWritten(input, out) {
  for (let i = 0; i < input.length; i++) {
    const row = input[i];
    const f = row.fields;
    const p = f[2];
    const c = f[3];
    const gt = p === null ? null : p > 50000n;
    if (gt === false) continue;
    const ne = c === null ? null : c !== 'Apple';
    if (ne === false || gt === null || ne === null) continue;
    const euros = p === null ? null : BigInt.asIntN(64, BigInt.asIntN(64, p * 908n) / 1000n);
    out.push(new Row(row.kind, [f[0], f[1], euros, c === null ? null : c.toUpperCase(), f[4]]));
  }
}

function time(fn) {
  const out = [];
  const t0 = performance.now();
  fn(rows, out);
  return { ms: performance.now() - t0, n: out.length, sample: out[1] };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const a = time(compiled);
const b = time(handWritten);
if (a.n !== b.n || JSON.stringify(a.sample.fields, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)) !== JSON.stringify(b.sample.fields, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))) {
  throw new Error(`results differ: ${a.n} vs ${b.n}`);
}
const compiledTimes = [];
const handTimes = [];
for (let i = 0; i < RUNS; i++) {
  compiledTimes.push(time(compiled).ms);
  handTimes.push(time(handWritten).ms);
}
const mc = median(compiledTimes);
const mh = median(handTimes);
console.log(`rows=${N} passing=${a.n}`);
console.log(`compiled calc : ${mc.toFixed(1)} ms (${((N / mc) * 1000 / 1e6).toFixed(2)} M rows/s)`);
console.log(`hand-written  : ${mh.toFixed(1)} ms (${((N / mh) * 1000 / 1e6).toFixed(2)} M rows/s)`);
console.log(`ratio compiled/hand = ${(mc / mh).toFixed(2)}`);
