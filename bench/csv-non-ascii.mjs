// A CSV scan of text that is not all ASCII (issue #20): the same bids twice, once all ASCII and once with a
// non-ASCII char on one line in a hundred (an accented name in a URL), which puts one in nearly every chunk the
// file source reads. Each file is read through the built CLI at parallelism 1 into a blackhole table (a q0-style
// projection), interleaved, and a plain JS loop reads each file (readFileSync as UTF-8, split into lines and
// fields): the baseline measured in the same run. Medians of CPU seconds (user + system of the whole process),
// the non-ASCII / ASCII ratio for Sluice and for the loop, and the load average.
//
// Such chunks are decoded line by line (the file source reads an all-ASCII chunk in windows of lines instead).
// Decoding them in windows too was tried: no gain in an alternating same-process A/B on a quiet moment (1.15 vs
// 1.15 s, 1.25 vs 1.27 s of CPU), and one non-ASCII char turns a whole window into a two-byte string, so every
// field cut from it, kept in state or not, takes twice the memory.
// Run after `npm run build`: node bench/csv-non-ascii.mjs [rows=1500000] [rounds=5] [--compare=<other bin.js>]
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const ROWS = Number(args[0] ?? 1_500_000);
const ROUNDS = Number(args[1] ?? 5);
const compare = process.argv.find((a) => a.startsWith('--compare='))?.slice('--compare='.length);
const BUILDS = { current: fileURLToPath(new URL('../dist/bundle/bin.js', import.meta.url)), ...(compare ? { compared: compare } : {}) };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => x.toFixed(2);

const dir = mkdtempSync(join(tmpdir(), 'sluice-csv-non-ascii-'));
const files = { ascii: join(dir, 'ascii.csv'), 'non-ASCII': join(dir, 'utf8.csv') };
for (const [kind, path] of Object.entries(files)) {
  const fd = openSync(path, 'w');
  let lines = [];
  for (let i = 0; i < ROWS; i++) {
    const place = kind !== 'ascii' && i % 100 === 0 ? 'café' : 'cafe';
    const ts = `2026-01-01 10:${String(Math.floor(i / 60_000) % 60).padStart(2, '0')}:${String(Math.floor(i / 1000) % 60).padStart(2, '0')}.${String(i % 1000).padStart(3, '0')}`;
    lines.push(`${i % 10_000},${i % 77_777},${(i * 7) % 100_000},channel-${i % 5},https://www.nexmark.com/${place}/item.htm?query=${i},${ts},${'x'.repeat(40)}`);
    if (lines.length === 10_000) {
      writeSync(fd, `${lines.join('\n')}\n`);
      lines = [];
    }
  }
  if (lines.length > 0) writeSync(fd, `${lines.join('\n')}\n`);
  closeSync(fd);
}

const job = (path) => {
  const f = join(dir, `${path.endsWith('ascii.csv') ? 'ascii' : 'utf8'}.sql`);
  writeFileSync(
    f,
    `SET 'parallelism.default' = '1';
CREATE TEMPORARY TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, date_time TIMESTAMP(3), extra STRING)
  WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = 'csv');
CREATE TEMPORARY TABLE out0 (auction BIGINT, bidder BIGINT, price BIGINT, url STRING, date_time TIMESTAMP(3), extra STRING) WITH ('connector' = 'blackhole');
INSERT INTO out0 SELECT auction, bidder, price, url, date_time, extra FROM bids;
`,
  );
  return f;
};

const LOOP = join(dir, 'loop.mjs');
writeFileSync(
  LOOP,
  `import { readFileSync } from 'node:fs';
let n = 0;
for (const line of readFileSync(process.argv[2], 'utf8').split('\\n')) if (line !== '') n += line.split(',').length;
if (n === 0) process.exit(1);
`,
);

/** CPU seconds (user + system) of one child process. */
function cpuOf(cmd) {
  const t = '/usr/bin/time';
  const r = spawnSync(t, ['-f', '%U %S', process.execPath, ...cmd], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed:\n${r.stderr}`);
  const [u, s] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return u + s;
}

console.log(`${ROWS} rows per file, ${ROUNDS} rounds, load average before: ${loadavg().map(fmt).join(' ')}`);
const cpu = {};
const jobs = Object.fromEntries(Object.entries(files).map(([k, p]) => [k, job(p)]));
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const [kind, path] of Object.entries(files)) {
      (cpu[`loop ${kind}`] ??= []).push(cpuOf([LOOP, path]));
      for (const [build, cli] of Object.entries(BUILDS)) (cpu[`${build} ${kind}`] ??= []).push(cpuOf([cli, '-f', jobs[kind]]));
    }
  }
  for (const [key, xs] of Object.entries(cpu)) console.log(`  ${key.padEnd(22)} CPU ${fmt(median(xs))} s (${xs.map(fmt).join(', ')})`);
  for (const who of ['loop', ...Object.keys(BUILDS)]) {
    console.log(`  ${who}: non-ASCII / ASCII CPU ${(median(cpu[`${who} non-ASCII`]) / median(cpu[`${who} ascii`])).toFixed(2)}x`);
  }
  if (compare) console.log(`  current / compared on the non-ASCII file: ${(median(cpu['current non-ASCII']) / median(cpu['compared non-ASCII'])).toFixed(2)}x CPU`);
  console.log(`load average after: ${loadavg().map(fmt).join(' ')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
