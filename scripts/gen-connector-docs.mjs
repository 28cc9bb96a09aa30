// Writes docs/connectors/<identifier>.md from the factories' options classes (the same source that
// `sluice connectors <name>` prints). `--check` only compares and exits 1 if a file is stale; CI runs the
// equivalent check in test/docs/connector-docs.test.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectorDocs } from '../dist/cli/option-docs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'docs', 'connectors');
const check = process.argv.includes('--check');
mkdirSync(out, { recursive: true });
let stale = 0;
for (const [file, text] of await connectorDocs()) {
  const path = join(out, file);
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {}
  if (current === text) continue;
  if (check) {
    console.error(`stale: docs/connectors/${file}`);
    stale++;
  } else {
    writeFileSync(path, text);
    console.log(`wrote docs/connectors/${file}`);
  }
}
process.exit(stale > 0 ? 1 : 0);
