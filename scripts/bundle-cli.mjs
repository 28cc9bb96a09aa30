// Bundles the `sluice` command (dist/cli/bin.js and everything it imports from dist/) into a few files
// under dist/bundle/, so starting the CLI resolves and loads a handful of modules instead of ~300:
// about a third of the startup time of `sluice -f` with one SELECT. Runtime dependencies stay
// external (loaded from node_modules, most of them lazily), and connectors loaded on first use stay
// separate chunks. The library entry (dist/index.js) is not bundled.
import { build } from 'esbuild';
import { copyFileSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'bundle');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

rmSync(out, { recursive: true, force: true });
await build({
  // The worker thread module of SQL jobs (`execution.worker-threads`) is an entry of its own, found next
  // to the chunks by `new URL('./sql-worker-main.js', import.meta.url)`; it shares their code.
  entryPoints: { bin: join(root, 'dist', 'cli', 'bin.js'), 'sql-worker-main': join(root, 'dist', 'api', 'sql-worker-main.js') },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: Object.keys(pkg.dependencies ?? {}),
  logLevel: 'warning',
});

// Assets found next to a module through `new URL('./x', import.meta.url)` must sit next to the chunks.
function copyAssets(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) copyAssets(path);
    else if (name.endsWith('.proto')) copyFileSync(path, join(out, name));
  }
}
copyAssets(join(root, 'src'));
