import { ExecutionError } from '../errors/sluice-error.js';
import type { UdfInput } from '../planner/functions/udf.js';

/** Where a worker thread can load something registered in code (`createTemporarySystemFunction`, `registerFactory`). */
export interface CodeModuleOptions {
  /**
   * The module and export a worker thread imports to get the same function or factory: `'file.js#export'`
   * (a path relative to the session's `baseDir`, a `file:` URL such as
   * `new URL('./udfs.js', import.meta.url).href + '#twice'`, or a package name; without `#`, the default
   * export), as `CREATE FUNCTION name AS '...'` takes it. Without one, the operators using it run on the
   * main thread when the job runs on worker threads (`execution.worker-threads`).
   */
  readonly module?: string;
}

/** A function registered in code: its value, and the module a worker imports it from, if the caller said. */
export interface CodeFunction {
  readonly udf: UdfInput;
  readonly module: string | undefined;
}

/**
 * What a worker thread needs of a function registered in code (structured-clonable): the module to
 * import it from, or the UDF's data (types, flags) and the names of its methods, from which the worker
 * builds a stand-in that plans exactly as the function does but is never called there.
 */
export type CodeFunctionSpec =
  | { readonly name: string; readonly module: string }
  | { readonly name: string; readonly plain: boolean; readonly data: Readonly<Record<string, unknown>>; readonly methods: readonly string[] };

/**
 * Why the operators calling `name` stay on the main thread; the same text on the main thread and in a
 * worker, as it is part of the job graph both compare.
 */
export function codeFunctionPin(name: string): string {
  return `function '${name}' is registered in code without a module`;
}

/** How a pinned job is made to run fully on workers: said once per warning. */
export const CODE_FUNCTION_ADVICE =
  "To run them on worker threads, give such a function or connector a module a worker can import: createTemporarySystemFunction(name, fn, { module: 'file.js#export' }) or CREATE FUNCTION name AS 'file.js#export' for a function, registerFactory(factory, { module: 'file.js#export' }) for a connector.";

export function codeFunctionSpec(name: string, f: CodeFunction): CodeFunctionSpec {
  if (f.module !== undefined) return { name, module: f.module };
  const u = f.udf;
  if (typeof u === 'function') return { name, plain: true, data: {}, methods: [] };
  const data: Record<string, unknown> = {};
  const methods: string[] = [];
  // Own and inherited members alike: an aggregate written as a class instance keeps its methods on the prototype.
  for (const key of memberNames(u)) {
    const v = (u as unknown as Record<string, unknown>)[key];
    if (typeof v === 'function') methods.push(key);
    else if (v !== undefined) data[key] = v;
  }
  return { name, plain: false, data, methods };
}

function memberNames(o: object): string[] {
  const names = new Set<string>();
  for (let p: object | null = o; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const k of Object.getOwnPropertyNames(p)) if (k !== 'constructor') names.add(k);
  }
  return [...names];
}

/**
 * The stand-in a worker registers for a function registered in code without a module: the same types and
 * methods, so the planner takes the same decisions (a window aggregate's two phases ask whether it can
 * merge), but each method reports a call. The operators calling it are pinned to the main thread, so no
 * worker calls it at run time; `called` hears of a call while planning (a constant argument folded).
 */
export function standInUdf(spec: Extract<CodeFunctionSpec, { plain: boolean }>, called: (name: string) => void): UdfInput {
  const fail = (): never => {
    called(spec.name);
    throw new ExecutionError(`${codeFunctionPin(spec.name)} and cannot be called in a worker thread.`);
  };
  if (spec.plain) return fail;
  const standIn: Record<string, unknown> = { ...spec.data };
  for (const m of spec.methods) standIn[m] = fail;
  return standIn as unknown as UdfInput;
}
