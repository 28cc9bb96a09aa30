import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * A CommonJS package loaded synchronously on first use instead of at import time, for libraries a run
 * may not need at all. Returns the same module object on every call.
 */
export function lazyRequire<T>(id: string): () => T {
  let cached: T | undefined;
  return () => (cached ??= requireHere(id) as T);
}
