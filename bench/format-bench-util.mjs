// Shared by bench/format-*.mjs: where the compiled code lives, Nexmark-style rows, timing.
import { performance } from 'node:perf_hooks';


/** The compiled Sluice modules; SLUICE_DIST overrides ../dist (e.g. a private build directory). */
export async function load(path) {
  const base = process.env.SLUICE_DIST ? new URL(`file://${process.env.SLUICE_DIST.replace(/\/?$/, '/')}`) : new URL('../dist/', import.meta.url);
  return import(new URL(path, base).href);
}

export const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);

/** Nexmark bid rows: auction, bidder, price (BIGINT), channel, url (STRING), dateTime TIMESTAMP(3), extra. */
export async function bids(n = ROWS) {
  const { DataTypes, FIELD, Row, RowKind } = await load('types/index.js');
  const type = DataTypes.ROW(
    FIELD('auction', DataTypes.BIGINT()),
    FIELD('bidder', DataTypes.BIGINT()),
    FIELD('price', DataTypes.BIGINT()),
    FIELD('channel', DataTypes.STRING()),
    FIELD('url', DataTypes.STRING()),
    FIELD('dateTime', DataTypes.TIMESTAMP(3)),
    FIELD('extra', DataTypes.STRING()),
  );
  const channels = ['Google', 'Facebook', 'Baidu', 'Apple'];
  const rows = [];
  for (let i = 0; i < n; i++) {
    rows.push(
      new Row(RowKind.INSERT, [
        BigInt(1000 + (i % 997)),
        BigInt(2000 + (i % 1999)),
        BigInt(100 + ((i * 7919) % 100_000)),
        channels[i % 4],
        `https://www.nexmark.com/item.htm?query=1&channel_id=${i % 1000}`,
        1_577_836_800_000 + i * 17,
        'x'.repeat(20 + (i % 13)),
      ]),
    );
  }
  return { type, rows };
}

/** Median ms of `runs` timed calls of fn (after one warm-up). */
export function median(fn, runs = 5) {
  fn();
  const times = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)];
}

/**
 * The clock of `compare`: wall time by default; BENCH_CLOCK=cpu counts the process's CPU time (all its
 * threads, so GC helpers too), which a machine shared with other jobs disturbs far less than wall time.
 */
export const CLOCK = process.env.BENCH_CLOCK === 'cpu' ? 'cpu' : 'wall';
function now() {
  if (CLOCK === 'wall') return performance.now();
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Median ms of each named fn, timed in interleaved rounds (a, b, c, a, b, c, ...) after one warm-up of
 * each, so a change in the machine's load hits every case alike; `ratio(a, b)` is then the median of the
 * per-round ratios, which is far steadier than a ratio of medians taken minutes apart on a loaded machine.
 * (No forced GC between runs: after one, V8 shrinks the young generation and the next run pays 2x for
 * regrowing it. Cases that leave much old-generation garbage belong in a separate `compare`.)
 */
export function compare(cases, runs = Number(process.env.BENCH_RUNS ?? 7)) {
  const names = Object.keys(cases);
  for (const k of names) cases[k]();
  const times = Object.fromEntries(names.map((k) => [k, []]));
  for (let r = 0; r < runs; r++) {
    for (const k of names) {
      const t0 = now();
      cases[k]();
      times[k].push(now() - t0);
    }
  }
  const mid = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    ms: Object.fromEntries(names.map((k) => [k, mid(times[k])])),
    /** Median over rounds of time(a) / time(b): how many times faster b is than a. */
    ratio: (a, b) => mid(times[a].map((t, i) => t / times[b][i])),
  };
}

export function report(name, ms, n = ROWS) {
  console.log(`${name.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms  ${((n / ms) * 1000 / 1e6).toFixed(2).padStart(6)} M rows/s`);
}

/**
 * Decodes every message as a source reader does: rows handed on per batch of 1000 messages, then let go
 * (keeping all rows alive would measure the old generation's collector instead of the decoder). Returns
 * the number of rows, for the caller's sink.
 */
export function decodeInBatches(decoder, messages) {
  let n = 0;
  let out = [];
  for (const m of messages) {
    decoder.deserialize(m, out);
    if (out.length >= 1000) {
      n += out.length;
      out = [];
    }
  }
  return n + out.length;
}
