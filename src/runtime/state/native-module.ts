import { createRequire } from 'node:module';
import { ExecutionError } from '../../errors/sluice-error.js';

const loaded = new Map<string, unknown>();

/**
 * The native package behind an on-disk state backend, loaded on first use only (a job on the heap backend never
 * loads a native binding) and synchronously: a backend is created where the operator chain is, which is not
 * async. A package that does not load is an error naming the backend, the package and what else to use.
 */
export function loadNativeModule<T>(pkg: string, backend: string, otherwise: string): T {
  const have = loaded.get(pkg);
  if (have !== undefined) return have as T;
  let mod: T;
  try {
    mod = createRequire(import.meta.url)(pkg) as T;
  } catch (e) {
    throw new ExecutionError(
      `The ${backend} state backend (state.backend.type = '${backend.toLowerCase()}') could not load the '${pkg}' package and its native binding; install it (npm install ${pkg}) or use ${otherwise}.`,
      { cause: e },
    );
  }
  loaded.set(pkg, mod);
  return mod;
}
