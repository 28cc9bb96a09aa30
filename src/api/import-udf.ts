import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ValidationError } from '../errors/sluice-error.js';
import type { UdfInput } from '../planner/functions/udf.js';
import { looksLikeJavaClass } from './statements/function-language.js';

/**
 * `'path/to/module.js#exportName'` (default export without `#`), resolved against the session's base
 * directory, as `CREATE FUNCTION f AS '...'` names a JavaScript function.
 */
export async function importUdf(identifier: string, baseDir: string): Promise<{ value: UdfInput; path: string; exportName: string }> {
  // What the export holds is checked, with the module and export named, by createTemporarySystemFunction.
  const { value, path, exportName } = await importExport(identifier, baseDir, 'function');
  return { value: value as UdfInput, path, exportName };
}

/**
 * The export `'path/to/module.js#exportName'` names (default export without `#`); a path is resolved against
 * `baseDir`, a `file:` URL or package name is imported as is. `what` names the export's role in errors.
 */
export async function importExport(identifier: string, baseDir: string, what = 'factory'): Promise<{ value: unknown; path: string; exportName: string }> {
  const hash = identifier.lastIndexOf('#');
  const path = hash < 0 ? identifier : identifier.slice(0, hash);
  const exportName = hash < 0 ? 'default' : identifier.slice(hash + 1);
  const isPath = path.startsWith('.') || isAbsolute(path);
  const specifier = isPath ? pathToFileURL(resolve(baseDir, path)).href : path;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(specifier)) as Record<string, unknown>;
  } catch (e) {
    // Flink's default language is Java: a class name here most likely meant a Java function.
    const java = what === 'function' && looksLikeJavaClass(identifier) ? ` If '${identifier}' is a Java class, declare it LANGUAGE JAVA and run it on a Flink cluster with --endpoint.` : '';
    throw new ValidationError(`Could not load the ${what} module '${path}': ${(e as Error).message}${java}`, { cause: e });
  }
  const value = mod[exportName];
  if (value === undefined) throw new ValidationError(`Module '${path}' has no export named '${exportName}'.`);
  return { value, path, exportName };
}
