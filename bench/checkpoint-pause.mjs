// The pause a checkpoint barrier costs a keyed operator: its state is encoded synchronously at the barrier
// (issue #12: a checkpoint must hold the state as of the barrier, never a live object). Fills a chain's
// keyed state with group-aggregate-like accumulators ({count, sum: bigint, last row}) for K keys, then
// times `OperatorChain.snapshot` (the barrier's synchronous part) and reports ms per MB of encoded state,
// next to a plain JS walk over the same entries that copies each accumulator (the least a consistent
// snapshot must do) measured in the same run. Run after `npm run build`:
//   node bench/checkpoint-pause.mjs [keys...]
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

const dist = process.env.SLUICE_DIST ?? new URL('../dist/', import.meta.url).href;
const base = dist.endsWith('/') ? dist : `${dist}/`;
const { Row } = await import(new URL('types/row.js', base).href);
const { OperatorChain } = await import(new URL('runtime/operator-chain.js', base).href);

const sizes = process.argv.slice(2).map(Number);
const KEYS = sizes.length > 0 ? sizes : [100_000, 400_000, 1_000_000];
const RUNS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const tail = { collect() {}, collectColumns() {}, emitWatermark() {} };
const env = { subtaskIndex: 0, parallelism: 1, attemptNumber: 0, config: new Map(), awaitBeforeNextBatch() {} };

async function filledChain(keys) {
  let ctx;
  const op = {
    name: 'agg',
    create: () => ({
      open(c) { ctx = c; },
      processBatch(rows) {
        const acc = ctx.keyedState.getState('acc');
        for (const r of rows) {
          ctx.keyedState.setCurrentKey(r.fields[0]);
          const a = acc.value();
          if (a === undefined) acc.update({ count: 1, sum: BigInt(r.fields[0]), last: r });
          else { a.count++; a.sum += 1n; a.last = r; }
        }
      },
    }),
  };
  const chain = new OperatorChain([op], tail, env);
  await chain.open(undefined);
  for (let k = 0; k < keys; k += 1024) {
    const rows = [];
    for (let i = k; i < Math.min(keys, k + 1024); i++) rows.push(Row.insert(i, `item-${i}`, i * 0.5));
    chain.processBatch(rows, 0);
  }
  return { chain, state: () => ctx.keyedState };
}

console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; median of ${RUNS} runs`);
console.log('keys       | state MB | barrier pause ms | ms per MB | copy-walk ms | pause / copy-walk');
for (const keys of KEYS) {
  const { chain, state } = await filledChain(keys);
  const pauses = [];
  const walks = [];
  let bytes = 0;
  for (let r = 0; r < RUNS; r++) {
    let t = performance.now();
    const snap = chain.snapshot(r + 1);
    pauses.push(performance.now() - t);
    bytes = snap[0].length;
    t = performance.now();
    const ks = state();
    const copy = new Map();
    for (const k of ks.keys('acc')) {
      ks.setCurrentKey(k);
      const a = ks.getState('acc').value();
      copy.set(k, { count: a.count, sum: a.sum, last: a.last });
    }
    walks.push(performance.now() - t);
  }
  const mb = bytes / 1048576;
  const p = median(pauses);
  const w = median(walks);
  console.log(
    `${String(keys).padEnd(10)} | ${mb.toFixed(1).padStart(8)} | ${p.toFixed(1).padStart(16)} | ${(p / mb).toFixed(2).padStart(9)} | ${w.toFixed(1).padStart(12)} | ${(p / w).toFixed(2).padStart(6)}x`,
  );
}
