// `npm run bench`: runs every bench/*.mjs in turn (each prints its own medians and ratios against a
// baseline measured in the same run) and a summary line per file. A bench that needs a server it cannot
// reach says so and is skipped; a failing bench makes the whole run exit non-zero.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
// Crash trials kill jobs for an hour or more (100 kills per operator), and flink-vs-sluice runs each job in a fresh
// JVM and Node process several times over millions of rows: run only when named (`npm run bench crash-trials`).
const longRunning = new Set(['crash-trials.mjs', 'flink-vs-sluice.mjs']);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && !f.endsWith('-util.mjs'))
  .filter((f) => (only.length === 0 ? !longRunning.has(f) : only.some((o) => f.includes(o))))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f} ===`);
  const r = spawnSync(process.execPath, [join(dir, f)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`!!! ${f} exited with ${r.status}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
