import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ValidationError } from '../errors/sluice-error.js';
import type { Factory } from './factory.js';

/**
 * Factories contributed by installed npm packages (the counterpart of Flink's `META-INF/services` files).
 * A package declares them in its package.json:
 *
 * ```json
 * { "name": "sluice-connector-x", "sluice": { "factories": "./dist/factories.js" } }
 * ```
 *
 * The module's `factories` export (or default export) is an array of factories. Only the top level of
 * `<dir>/node_modules` (and its `@scope/` folders) is read, so the cost is one small file per package.
 */
export async function discoverPackageFactories(dir: string): Promise<Factory[]> {
  const root = join(dir, 'node_modules');
  const packages: string[] = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) {
      for (const sub of await readdir(join(root, name)).catch(() => [] as string[])) packages.push(join(root, name, sub));
    } else packages.push(join(root, name));
  }
  const found: Factory[] = [];
  for (const pkgDir of packages) {
    let manifest: { name?: string; sluice?: { factories?: string | string[] } };
    try {
      manifest = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8')) as typeof manifest;
    } catch {
      continue;
    }
    const entries = manifest.sluice?.factories;
    if (entries === undefined) continue;
    for (const entry of Array.isArray(entries) ? entries : [entries]) {
      const mod = (await import(pathToFileURL(resolve(pkgDir, entry)).href)) as { factories?: unknown; default?: unknown };
      const list = mod.factories ?? mod.default;
      if (!Array.isArray(list) || !list.every(isFactory)) {
        throw new ValidationError(
          `Package '${manifest.name ?? pkgDir}' declares factories in '${entry}', but that module exports no array of factories as 'factories' or default.`,
        );
      }
      found.push(...list);
    }
  }
  return found;
}

function isFactory(x: unknown): x is Factory {
  const f = x as Partial<Factory> | null;
  return typeof f === 'object' && f !== null && typeof f.factoryIdentifier === 'string' && typeof f.requiredOptions === 'function' && typeof f.optionalOptions === 'function';
}
