// tsc compiles only .ts; runtime assets beside the sources (the Pravega controller's .proto) are copied
// into dist/ at the same relative path so the published package is self-contained.
import { cpSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const ASSETS = /\.(proto)$/;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (ASSETS.test(name)) cpSync(path, join(dist, relative(src, path)));
  }
}
walk(src);
