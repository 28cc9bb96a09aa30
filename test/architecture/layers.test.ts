// The layering of docs/architecture.md, checked on every source file's imports: the runtime knows
// nothing of SQL, and the SQL operators know nothing of the planner that builds them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** `file: imported folder` for every relative import of a file under `layer` that lands in a `forbidden` folder. */
function violations(layer: string, forbidden: readonly string[]): string[] {
  const out: string[] = [];
  for (const file of sourceFiles(join(src, layer))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:import|export)[^'"]*from\s+'(\.[^']+)'/g)) {
      const target = relative(src, resolve(dirname(file), m[1]!)).split('/')[0]!;
      if (forbidden.includes(target)) out.push(`${relative(src, file)}: ${m[1]}`);
    }
  }
  return out;
}

describe('layers', () => {
  it('runtime imports nothing from sql, catalog, planner, table-runtime, connectors, formats, api or cli', () => {
    expect(violations('runtime', ['sql', 'catalog', 'planner', 'table-runtime', 'connectors', 'formats', 'api', 'cli'])).toEqual([]);
  });

  it('table-runtime imports nothing from sql, catalog, planner, api or cli', () => {
    expect(violations('table-runtime', ['sql', 'catalog', 'planner', 'api', 'cli'])).toEqual([]);
  });
});
