import { ValidationError } from '../errors/sluice-error.js';
import type { Factory } from '../factories/factory.js';
import { describeStateValue } from '../runtime/state/state-path.js';

/**
 * Checks of the arguments of the public API (TableEnvironment, StatementSet, Table). TypeScript holds its callers to
 * the types; a JavaScript caller is not, and a wrong argument would otherwise fail deep inside the parser or a
 * connector with JavaScript's own error text. Each check names the method and says what it takes.
 */

/** `v` if it is a string, else an error naming `method`'s `what` argument. */
export function stringArgument(method: string, what: string, v: unknown): string {
  if (typeof v === 'string') return v;
  throw new ValidationError(`${method} takes ${what} as a string; it was given ${given(v)}.`);
}

/** `v` if it is an instance of `cls`, else an error saying how to make one. */
export function instanceArgument<T extends object>(method: string, what: string, cls: { readonly prototype: T }, how: string, v: unknown): T {
  // By prototype: a class whose constructor is private is not a constructor type to TypeScript.
  if (typeof v === 'object' && v !== null && Object.prototype.isPrototypeOf.call(cls.prototype, v)) return v as T;
  throw new ValidationError(`${method} takes ${what} (${how}); it was given ${given(v)}.`);
}

/** `v` if it looks like a factory (an object with a string `factoryIdentifier`). */
export function factoryArgument(method: string, v: unknown): Factory {
  const id = typeof v === 'object' && v !== null ? (v as { factoryIdentifier?: unknown }).factoryIdentifier : undefined;
  if (typeof id === 'string' && id !== '') return v as Factory;
  throw new ValidationError(
    `${method} takes a factory: an object with a non-empty string factoryIdentifier and the methods of a connector, format or catalog factory; it was given ${given(v)}${typeof v === 'object' && v !== null ? ' without one' : ''}.`,
  );
}

function given(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return 'a plain object';
  return describeStateValue(v);
}
