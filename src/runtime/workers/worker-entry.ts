import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ExecutionError } from '../../errors/sluice-error.js';

/**
 * The JavaScript file a worker runs for a recipe's entry URL. Workers cannot load TypeScript, so an entry
 * in `src/` (the tests run the sources) maps to its build in `dist/`.
 */
export function resolveWorkerEntry(entry: string): URL {
  const path = fileURLToPath(entry);
  if (existsSync(path) && !path.endsWith('.ts')) return new URL(entry);
  const built = path.replace(/([\\/])src([\\/])(?!.*[\\/]src[\\/])/, '$1dist$2').replace(/\.ts$/, '.js');
  if (existsSync(built)) return pathToFileURL(built);
  throw new ExecutionError(`The worker thread module ${path} is missing${built !== path ? ` (nor is ${built} built; run 'npm run build')` : ''}.`);
}
