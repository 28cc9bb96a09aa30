// Speed-up from worker threads (issue #19): CPU-bound nexmark jobs (2 M events, rate-limited false, into
// blackhole) run through the built CLI as a user runs them, at parallelism 1 on the main thread and at
// parallelism 2 with `execution.worker-threads` (the main thread runs slot 0, one worker slot 1). Wall
// time of the whole `sluice -f` process (startup included), median of interleaved rounds, peak RSS,
// and the load average while it ran.
//
// On a shared machine the wall-time ratio is only as good as the load allows, so every run also reports
// CPU per thread, read from /proc/<pid>/task/<tid>/schedstat (Linux): the main thread, the worker
// threads, the other threads (V8's GC and compiler helpers, libuv's pool), and how long the job
// threads waited in the run queue for a core: a wait near the CPU time means the machine, not the job,
// set the wall time. "busiest" is the CPU of the busiest job thread: with a core per thread the job
// cannot end sooner, so p1 busiest / p2 busiest is the speed-up the code allows (start-up latency aside).
//
// The wall time includes a fixed cost that does not shrink with threads: starting the CLI, planning, starting
// and preparing the worker, opening the source, tearing down. Each round also runs every job on 1,000 events
// (STARTUP_EVENTS), which is little more than that cost, and reports the speed-up of the rest (wall minus that
// run's wall): how well the processing itself scales, apart from start-up.
//
// On Linux with autogroup scheduling (kernel.sched_autogroup_enabled = 1, the default on desktop and many
// server kernels) the CPU is first shared fairly between sessions, then between the threads of a session: while
// other sessions keep both cores busy, a process gets its session's share however many threads it runs, so two
// threads cannot beat one and the ratio only measures the scheduler (at load 6-10 on this 2-core machine the
// plain loop below ran 0.76-1.10x, the job threads waited 3-6x their CPU time in the run queue).
//
// Each round also runs a plain JS loop on one and on two threads: the machine's own two-thread speed-up at that
// moment, the baseline the job's speed-up is read against (on a loaded or shared host it is well under 2x).
//
// And each round runs the job itself shared-nothing: two separate processes at parallelism 1, each over half the
// events, started together (wall: until both ended). No exchange, no coordination, no shared heap: what two cores
// give this very job once each half pays its own start-up, JIT warm-up and GC helpers, the ceiling of any
// design with two threads in one process (it is below the plain loop's when the job's memory traffic and V8's
// helper threads compete for the cores).
//
// Run after `npm run build`: node bench/parallel-speedup.mjs [events=2000000] [rounds=3] [job-name-part...] [--compare=<other bin.js>]
// BENCH_NODE_FLAGS (e.g. --single-threaded-gc) is passed to every job process, to compare a runtime setting in the same conditions.
// --compare interleaves the same runs with another build (e.g. a checkout of the previous commit) for a
// before/after in the same conditions.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const compare = process.argv.find((a) => a.startsWith('--compare='))?.slice('--compare='.length);
const BUILDS = { current: fileURLToPath(new URL('../dist/bundle/bin.js', import.meta.url)), ...(compare ? { compared: compare } : {}) };
const EVENTS = Number(args[0] ?? 2_000_000);
const ROUNDS = Number(args[1] ?? 3);
/** Events of the runs that measure the fixed cost (start-up and teardown). */
const STARTUP_EVENTS = 1000;
/** Node or V8 flags for the job processes (BENCH_NODE_FLAGS='--single-threaded-gc'), to try a runtime setting. */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
const nexmarkTable = (events) => `CREATE TEMPORARY TABLE nexmark (
  event_type INT,
  person ROW<id BIGINT, name STRING, emailAddress STRING, creditCard STRING, city STRING, state STRING, dateTime TIMESTAMP(3), extra STRING>,
  auction ROW<id BIGINT, itemName STRING, description STRING, initialBid BIGINT, reserve BIGINT, dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra STRING>,
  bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, dateTime TIMESTAMP(3), extra STRING>
) WITH ('connector' = 'nexmark', 'events.num' = '${events}', 'rate-limited' = 'false');`;

/** The nexmark table with Nexmark's event-time column and watermark, for the window job. */
const nexmarkWatermarked = (events) =>
  nexmarkTable(events).replace(
    /\n\) WITH/,
    `,
  dateTime AS CASE WHEN event_type = 0 THEN person.dateTime WHEN event_type = 1 THEN auction.dateTime ELSE bid.dateTime END,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH`,
  );

/** The CPU-bound jobs of issue #19: each reads 2 M nexmark events into a blackhole table. */
const JOBS = {
  'q0 pass-through': {
    sql: `CREATE TEMPORARY TABLE out0 (auction BIGINT, bidder BIGINT, price BIGINT, dateTime TIMESTAMP(3), extra STRING) WITH ('connector' = 'blackhole');
INSERT INTO out0 SELECT bid.auction, bid.bidder, bid.price, bid.dateTime, bid.extra FROM nexmark WHERE event_type = 2;`,
  },
  'q1 projection': {
    sql: `CREATE TEMPORARY TABLE out1 (auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), dateTime TIMESTAMP(3), extra STRING) WITH ('connector' = 'blackhole');
INSERT INTO out1 SELECT bid.auction, bid.bidder, 0.908 * bid.price, bid.dateTime, bid.extra FROM nexmark WHERE event_type = 2;`,
  },
  'q2 selection': {
    sql: `CREATE TEMPORARY TABLE out2 (auction BIGINT, price BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO out2 SELECT bid.auction, bid.price FROM nexmark WHERE event_type = 2 AND MOD(bid.auction, 123) = 0;`,
  },
  'GROUP BY bid.auction COUNT/MAX/SUM': {
    sql: `CREATE TEMPORARY TABLE out3 (auction BIGINT, c BIGINT, m BIGINT, s BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO out3 SELECT bid.auction, COUNT(*), MAX(bid.price), SUM(bid.price) FROM nexmark WHERE event_type = 2 GROUP BY bid.auction;`,
  },
  'TUMBLE 10 s COUNT/MAX per auction': {
    table: nexmarkWatermarked,
    sql: `CREATE TEMPORARY TABLE out4 (auction BIGINT, window_start TIMESTAMP(3), c BIGINT, m BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO out4 SELECT bid.auction, window_start, COUNT(*), MAX(bid.price)
FROM TABLE(TUMBLE(TABLE nexmark, DESCRIPTOR(dateTime), INTERVAL '10' SECOND)) WHERE event_type = 2 GROUP BY bid.auction, window_start, window_end;`,
  },
  'regular join bids x auctions': {
    sql: `CREATE TEMPORARY TABLE out5 (auction BIGINT, price BIGINT, seller BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO out5 SELECT B.bid.auction, B.bid.price, A.auction.seller FROM nexmark AS B JOIN nexmark AS A ON B.bid.auction = A.auction.id
WHERE B.event_type = 2 AND A.event_type = 1;`,
  },
};
/** Jobs whose name contains one of the arguments after the numbers (all when none): `node bench/parallel-speedup.mjs 2000000 3 q1 GROUP`. */
const chosen = Object.entries(JOBS).filter(([name]) => args.length <= 2 || args.slice(2).some((a) => name.toLowerCase().includes(a.toLowerCase())));

const SETUPS = {
  p1: ["SET 'parallelism.default' = '1';", "SET 'execution.worker-threads' = 'off';"],
  p2: ["SET 'parallelism.default' = '2';", "SET 'execution.worker-threads' = '2';"],
};

const dir = mkdtempSync(join(tmpdir(), 'sluice-speedup-'));
/** Preloaded in every JavaScript thread (main and workers): prints its thread id, so the others are V8's and libuv's. */
const HOOK = join(dir, 'thread-id.cjs');
writeFileSync(HOOK, `process.stderr.write('@@JS-THREAD ' + require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0] + '\\n');\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The baseline measured in the same rounds: a plain JS loop (building small row-like objects and folding them,
 * about a second of work) on one thread, then the same loop on two worker threads at once. Its speed-up is what
 * this machine gives two busy JavaScript threads at that moment (shared caches and memory bandwidth, other
 * tenants of the host), the ceiling Sluice's wall speed-up is read against.
 */
const LOOP = join(dir, 'plain-loop.mjs');
writeFileSync(
  LOOP,
  `import { Worker, isMainThread, parentPort } from 'node:worker_threads';
function work() { let h = 0; const batch = []; for (let i = 0; i < 12_000_000; i++) { batch.push({ id: i, key: 'k' + (i & 1023), v: i * 0.5 }); if (batch.length === 1024) { for (const r of batch) h = (h * 31 + r.id + r.key.length + (r.v | 0)) | 0; batch.length = 0; } } return h; }
if (!isMainThread) { work(); parentPort.postMessage(0); }
else {
  const threads = Number(process.argv[2]);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: threads }, () => new Promise((r) => new Worker(new URL(import.meta.url)).on('message', r))));
  process.stdout.write(String((performance.now() - t0) / 1000));
}
`,
);
function plainLoop(threads) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LOOP, String(threads)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`plain loop exited ${code}`))));
  });
}

/** CPU and run-queue wait of every thread of `pid`, in seconds, keyed by thread id. */
function threadTimes(pid) {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const [cpu, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
    out.set(Number(tid), { cpu: cpu / 1e9, wait: wait / 1e9 });
  }
  return out;
}

/**
 * One CLI run: wall seconds, peak RSS in MB, and CPU per thread group, polled every 10 ms (a thread's
 * last value before it or the process ended; the last few ms of a run are not seen).
 */
function run(cli, file) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [...NODE_FLAGS, '--require', HOOK, cli, '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const seen = new Map();
    let rssKb = 0;
    const poll = () => {
      try {
        for (const [tid, t] of threadTimes(child.pid)) seen.set(tid, t);
        rssKb = Math.max(rssKb, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0));
      } catch {
        // The process is ending.
      }
    };
    const timer = setInterval(poll, 10);
    child.on('exit', (code) => {
      clearInterval(timer);
      const s = (performance.now() - t0) / 1000;
      if (code !== 0 || /\[ERROR\]|\[WARNING\]/.test(output)) {
        reject(new Error(`${file} failed:\n${output}`));
        return;
      }
      const main = seen.get(child.pid) ?? { cpu: 0, wait: 0 };
      const js = new Set([...output.matchAll(/@@JS-THREAD (\d+)/g)].map((m) => Number(m[1])));
      const others = [...seen.keys()].filter((t) => t !== child.pid && js.has(t));
      const helpers = [...seen.keys()].filter((t) => t !== child.pid && !js.has(t));
      const sum = (ts, k) => ts.reduce((n, t) => n + seen.get(t)[k], 0);
      const workers = sum(others, 'cpu');
      resolve({
        s,
        rssMb: rssKb / 1024,
        main: main.cpu,
        workers,
        v8: sum(helpers, 'cpu'),
        cpu: main.cpu + workers + sum(helpers, 'cpu'),
        wait: main.wait + sum(others, 'wait'),
        busiest: Math.max(main.cpu, ...others.map((t) => seen.get(t).cpu)),
      });
    });
  });
}

const fmt = (x) => x.toFixed(2);
const autogroup = (() => {
  try {
    return readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1' ? ', autogroup scheduling on' : '';
  } catch {
    return '';
  }
})();
console.log(`${EVENTS} nexmark events, ${ROUNDS} rounds, ${availableParallelism()} cores${autogroup}, load average before: ${loadavg().map(fmt).join(' ')}`);
/** One line per job and build for the table printed at the end. */
const summary = [];
try {
  for (const [job, { sql, table = nexmarkTable }] of chosen) {
    const results = {};
    const files = {};
    const startupFiles = {};
    for (const [setup, sets] of Object.entries(SETUPS)) {
      files[setup] = join(dir, `${job.replace(/\W+/g, '-')}-${setup}.sql`);
      writeFileSync(files[setup], [...sets, table(EVENTS), sql, ''].join('\n'));
      startupFiles[setup] = join(dir, `${job.replace(/\W+/g, '-')}-${setup}-startup.sql`);
      writeFileSync(startupFiles[setup], [...sets, table(STARTUP_EVENTS), sql, ''].join('\n'));
    }
    const startup = {};
    for (const build of Object.keys(BUILDS)) {
      for (const setup of Object.keys(SETUPS)) {
        results[`${build} ${setup}`] = [];
        startup[`${build} ${setup}`] = [];
      }
    }
    const loads = [];
    const loop = { p1: [], p2: [] };
    const halfFile = join(dir, `${job.replace(/\W+/g, '-')}-half.sql`);
    writeFileSync(halfFile, [...SETUPS.p1, table(EVENTS / 2), sql, ''].join('\n'));
    const apart = [];
    for (let i = 0; i < ROUNDS; i++) {
      loop.p1.push(await plainLoop(1));
      loop.p2.push(await plainLoop(2));
      const t0 = performance.now();
      await Promise.all([run(BUILDS.current, halfFile), run(BUILDS.current, halfFile)]);
      apart.push((performance.now() - t0) / 1000);
      for (const [build, cli] of Object.entries(BUILDS)) {
        for (const setup of Object.keys(SETUPS)) {
          results[`${build} ${setup}`].push(await run(cli, files[setup]));
          loads.push(loadavg()[0]);
          startup[`${build} ${setup}`].push((await run(cli, startupFiles[setup])).s);
        }
      }
    }
    console.log(`\n${job}  (1-min load average during: ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)})`);
    const med = {};
    for (const [key, rs] of Object.entries(results)) {
      const m = (k) => median(rs.map((r) => r[k]));
      med[key] = { s: m('s'), busiest: m('busiest'), cpu: m('cpu'), startup: median(startup[key]), rss: Math.max(...rs.map((r) => r.rssMb)) };
      console.log(
        `  ${key.padEnd(11)} wall ${fmt(m('s'))} s (${rs.map((r) => fmt(r.s)).join(', ')}; ${STARTUP_EVENTS} events: ${fmt(med[key].startup)} s)  CPU ${fmt(m('cpu'))} s = main ${fmt(m('main'))} + workers ${fmt(m('workers'))} + other threads (V8 GC, compilers; libuv) ${fmt(m('v8'))}  busiest thread ${fmt(m('busiest'))} s  run-queue wait ${fmt(m('wait'))} s  peak RSS ${Math.max(...rs.map((r) => r.rssMb)).toFixed(0)} MB`,
      );
    }
    // The loop's p2 does twice the work of its p1: its speed-up is 2 x p1 / p2.
    const machine = (2 * median(loop.p1)) / median(loop.p2);
    console.log(`  baseline: a plain JS loop on 2 threads runs ${machine.toFixed(2)}x as fast as on 1 (1 thread ${loop.p1.map(fmt).join(', ')} s; 2 threads, twice the work, ${loop.p2.map(fmt).join(', ')} s)`);
    const ceiling = med['current p1'].s / median(apart);
    console.log(`  shared-nothing: two processes at parallelism 1 over ${EVENTS / 2} events each, at once, take ${fmt(median(apart))} s (${apart.map(fmt).join(', ')}): ${ceiling.toFixed(2)}x the p1 run`);
    for (const build of Object.keys(BUILDS)) {
      const p1 = med[`${build} p1`];
      const p2 = med[`${build} p2`];
      const wall = p1.s / p2.s;
      const steady = (p1.s - p1.startup) / (p2.s - p2.startup);
      summary.push(`| ${job} | ${build} | ${fmt(p1.s)} s | ${fmt(p2.s)} s | ${wall.toFixed(2)}x | ${steady.toFixed(2)}x | ${ceiling.toFixed(2)}x | ${machine.toFixed(2)}x | ${p1.rss.toFixed(0)} / ${p2.rss.toFixed(0)} MB |`);
      console.log(
        `  ${build}: speed-up ${wall.toFixed(2)}x wall (${(wall / machine).toFixed(2)} of the baseline's), ${steady.toFixed(2)}x apart from start-up (wall minus the ${STARTUP_EVENTS}-event run's: ${fmt(p1.s - p1.startup)} s / ${fmt(p2.s - p2.startup)} s), ${(p1.busiest / p2.busiest).toFixed(2)}x busiest-thread CPU; p2 costs ${(p2.cpu / p1.cpu).toFixed(2)}x the CPU of p1`,
      );
    }
  }
  console.log(`\n| Job | Build | p1 wall | p2 wall | Speed-up | Apart from start-up | Shared-nothing ceiling | Plain-loop baseline | Peak RSS p1 / p2 |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n${summary.join('\n')}`);
  console.log(`load average after: ${loadavg().map(fmt).join(' ')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
