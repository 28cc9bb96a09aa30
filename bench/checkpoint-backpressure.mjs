// How long a checkpoint takes under backpressure, aligned against unaligned (issue #19 item 3). A keyed GROUP BY
// at parallelism 2 on worker threads feeds a function that spends SPIN_US microseconds a row, so the keyed task
// is the bottleneck and the channels into it stay full. An aligned barrier waits behind every batch queued in
// those channels; an unaligned one overtakes them (the task snapshots as soon as it is queued) and the rows it
// overtook travel with the checkpoint. Both modes run the same job in a fresh process each, alternately, and
// report how many checkpoints completed and, over all of them, the median and largest time from trigger to the
// last task's acknowledgement (what the barriers took through the job: Flink's latest acknowledgement) and to
// completion (after the checkpoint is written, from the main thread, which also runs subtask 0: every step of
// the write waits for that subtask's current batch), and the job's wall time, next to the same job without
// checkpoints (the baseline measured in the same run).
// Run after `npm run build`: node bench/checkpoint-backpressure.mjs [rows=150000] [rounds=3]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROWS = Number(process.argv[2] ?? 150_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const SPIN_US = Number(process.env.SPIN_US ?? 20);
const INTERVAL_MS = 200;

if (process.argv[2] === '--child') {
  const spec = JSON.parse(process.argv[3]);
  const { TableEnvironment } = await import(new URL('../dist/index.js', import.meta.url).href);
  const env = TableEnvironment.create({ mode: 'streaming' });
  const set = (k, v) => env.executeSql(`SET '${k}' = '${v}'`);
  await set('parallelism.default', '2');
  await set('execution.worker-threads', '2');
  if (spec.mode !== 'none') {
    await set('execution.checkpointing.interval', `${INTERVAL_MS} ms`);
    await set('execution.checkpointing.dir', join(spec.dir, 'checkpoints'));
    await set('execution.checkpointing.unaligned.enabled', String(spec.mode === 'unaligned'));
  }
  await env.executeSql(`CREATE TEMPORARY FUNCTION spin AS '${spec.udf}#spin'`);
  await env.executeSql(`CREATE TABLE gen (i BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000000000',
    'fields.i.kind' = 'sequence', 'fields.i.start' = '0', 'fields.i.end' = '${spec.rows - 1}')`);
  await env.executeSql(`CREATE TABLE out_t (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole')`);
  const t0 = performance.now();
  const result = await env.executeSql('INSERT INTO out_t SELECT k, spin(c) FROM (SELECT i % 1000 AS k, COUNT(*) AS c FROM gen GROUP BY i % 1000)');
  const client = result.getJobClient();
  const seen = new Map();
  const sample = () => {
    for (const c of client.metrics().checkpointHistory) if (c.status === 'COMPLETED' && !c.isSavepoint) seen.set(c.id, [c.acknowledgedMs, c.durationMs]);
  };
  const timer = setInterval(sample, 50);
  await result.await();
  clearInterval(timer);
  sample();
  const wallMs = performance.now() - t0;
  console.log(JSON.stringify({ wallMs, acked: [...seen.values()].map((x) => x[0]), durations: [...seen.values()].map((x) => x[1]) }));
  await env.close();
  process.exit(0);
}

const median = (xs) => (xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
const dir = mkdtempSync(join(tmpdir(), 'sluice-cp-bp-'));
const udf = join(dir, 'spin.mjs');
writeFileSync(
  udf,
  `export const spin = { eval: (x) => { const end = performance.now() + ${SPIN_US / 1000}; while (performance.now() < end) {} return x; }, resultType: 'BIGINT', argumentTypes: ['BIGINT'] };\n`,
);
const results = { none: [], aligned: [], unaligned: [] };
try {
  console.log(`${ROWS} rows, GROUP BY i % 1000 into a function of ${SPIN_US} us a row, parallelism 2 on worker threads, checkpoints every ${INTERVAL_MS} ms; ${ROUNDS} rounds, node ${process.version}`);
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  for (let r = 0; r < ROUNDS; r++) {
    for (const mode of ['none', 'aligned', 'unaligned']) {
      const runDir = join(dir, `${mode}-${r}`);
      const spec = { mode, rows: ROWS, dir: runDir, udf };
      const p = spawnSync(process.execPath, [new URL(import.meta.url).pathname, '--child', JSON.stringify(spec)], { encoding: 'utf8', maxBuffer: 1 << 24 });
      const line = p.stdout.trim().split('\n').pop() ?? '';
      if (p.status !== 0 || !line.startsWith('{')) throw new Error(`${mode} run failed (${p.status}): ${p.stderr.slice(-2000)}`);
      results[mode].push(JSON.parse(line));
      rmSync(runDir, { recursive: true, force: true });
    }
  }
  const fmt = (x) => (Number.isNaN(x) ? '-' : `${Math.round(x)} ms`);
  const max = (xs) => (xs.length === 0 ? NaN : Math.max(...xs));
  console.log(`${'mode'.padEnd(10)} ${'job wall'.padStart(10)} ${'checkpoints'.padStart(12)} ${'to last ack: median'.padStart(20)} ${'largest'.padStart(8)} ${'to completion: median'.padStart(22)} ${'largest'.padStart(8)}`);
  for (const [mode, runs] of Object.entries(results)) {
    const acked = runs.flatMap((x) => x.acked);
    const durations = runs.flatMap((x) => x.durations);
    const counts = runs.map((x) => x.durations.length);
    console.log(
      `${mode.padEnd(10)} ${fmt(median(runs.map((x) => x.wallMs))).padStart(10)} ${String(median(counts)).padStart(12)} ${fmt(median(acked)).padStart(20)} ${fmt(max(acked)).padStart(8)} ${fmt(median(durations)).padStart(22)} ${fmt(max(durations)).padStart(8)}`,
    );
  }
  const ratio = (key) => (median(results.aligned.flatMap((x) => x[key])) / median(results.unaligned.flatMap((x) => x[key]))).toFixed(1);
  console.log(`aligned / unaligned, medians: to the last acknowledgement ${ratio('acked')}x, to completion ${ratio('durations')}x; load average at end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
