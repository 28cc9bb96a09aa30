// Bundles the browser dashboard (src/web/ui/) with esbuild into one script beside its HTML and CSS, at build
// time, so `sluice --web` serves three static files and loads nothing from the network at run time. The
// result goes to dist/web/ui/ (found by dist/web/web-server.js) and dist/bundle/ui/ (found by the bundled CLI).
// Run after bundle-cli.mjs, which clears dist/bundle/.
import { build } from 'esbuild';
import { copyFileSync, cpSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src', 'web', 'ui');
const out = join(root, 'dist', 'web', 'ui');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(src, 'main.ts')],
  outfile: join(out, 'app.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome100', 'firefox100', 'safari15'],
  minify: true,
  // The dagre licence goes beside the bundle as a file of its own (below), not into the minified script.
  legalComments: 'none',
  logLevel: 'warning',
});
for (const f of ['index.html', 'style.css']) copyFileSync(join(src, f), join(out, f));
copyFileSync(join(root, 'node_modules', '@dagrejs', 'dagre', 'LICENSE'), join(out, 'LICENSE-dagre.txt'));
cpSync(out, join(root, 'dist', 'bundle', 'ui'), { recursive: true });
