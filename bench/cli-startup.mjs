// Whole-process startup of the installed `sluice` bin (not through npx): a file with one `SELECT 1`,
// and the time until the REPL prompt appears, next to a bare `node -e 0` measured in the same run.
// Targets (issue #8): SELECT 1 under 0.3 s wall and 80 MB peak RSS; the prompt under 0.3 s.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'dist', 'bundle', 'bin.js');
const RUNS = Number(process.env.RUNS ?? 7);
const tmp = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
const file = join(tmp, 'select1.sql');
writeFileSync(file, 'SELECT 1;\n');
// Reports the child's own peak RSS on exit, without a wrapper process.
const RSS_HOOK = 'data:text/javascript,process.on("exit",()=>process.stderr.write("@@RSS "+process.resourceUsage().maxRSS+"\\n"))';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timeRun(args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', RSS_HOOK, ...args], { cwd: tmp, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  const rssKb = Number(/@@RSS (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  return { ms, rssMb: rssKb / 1024 };
}

function promptTime() {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, '--catalog-dir', join(tmp, 'cat')], { cwd: tmp, env: { ...process.env, SLUICE_HISTORY_FILE: join(tmp, 'hist') } });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Sluice SQL> ')) {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        child.stdin.end('QUIT;\n');
        child.on('exit', () => resolve(ms));
      }
    });
    child.on('error', reject);
  });
}

const node0 = [];
const select1 = [];
const rss = [];
const prompt = [];
for (let i = 0; i < RUNS; i++) {
  node0.push(timeRun(['-e', '0']).ms);
  const s = timeRun([bin, '-f', file, '--catalog-dir', join(tmp, 'cat')]);
  select1.push(s.ms);
  rss.push(s.rssMb);
  prompt.push(await promptTime());
}
const m0 = median(node0);
console.log(`node -e 0            median ${m0.toFixed(0)} ms`);
console.log(`sluice -f SELECT 1   median ${median(select1).toFixed(0)} ms (${(median(select1) / m0).toFixed(1)}x node -e 0), peak RSS median ${median(rss).toFixed(0)} MB  [target < 300 ms, < 80 MB]`);
console.log(`REPL prompt          median ${median(prompt).toFixed(0)} ms (${(median(prompt) / m0).toFixed(1)}x node -e 0)  [target < 300 ms]`);
