import { ValidationError } from '../../errors/sluice-error.js';
import type { FunctionDefinition } from './function-definition.js';

/**
 * Functions by upper-case name: the built-ins plus temporary system functions (UDFs). The binder calls
 * `lookup` once per call site; `register` is called by `TableEnvironment.createTemporarySystemFunction`.
 * Neither is on a per-row path.
 */
export interface FunctionLookup {
  /** The definition for `name` (any case), or undefined. */
  lookup(name: string): FunctionDefinition | undefined;
  /** Every name known, for a "did you mean" when a call names none of them. */
  names?(): readonly string[];
}

export class FunctionRegistry implements FunctionLookup {
  private readonly functions = new Map<string, FunctionDefinition>();

  /** A registry holding `definitions` under their own names (and optional aliases given as pairs). */
  constructor(definitions: Iterable<readonly [string, FunctionDefinition]> = []) {
    for (const [name, def] of definitions) this.functions.set(name.toUpperCase(), def);
  }

  lookup(name: string): FunctionDefinition | undefined {
    return this.functions.get(name.toUpperCase());
  }

  has(name: string): boolean {
    return this.functions.has(name.toUpperCase());
  }

  /**
   * Add or replace `name`. Built-in names may be shadowed only with `replace: true` (temporary system
   * functions replace built-ins in Flink only when explicitly asked).
   * @throws ValidationError when the name is taken and `replace` is not set.
   */
  register(name: string, definition: FunctionDefinition, options: { replace?: boolean } = {}): void {
    const key = name.toUpperCase();
    if (this.functions.has(key) && options.replace !== true) {
      throw new ValidationError(`Could not register temporary system function. A function named '${name}' does already exist.`);
    }
    this.functions.set(key, definition);
  }

  /** Remove `name`; true when it existed. */
  unregister(name: string): boolean {
    return this.functions.delete(name.toUpperCase());
  }

  /** All registered names, upper case, sorted (SHOW FUNCTIONS). */
  names(): string[] {
    return [...this.functions.keys()].sort();
  }

  /** An independent copy (each TableEnvironment owns one). */
  copy(): FunctionRegistry {
    return new FunctionRegistry(this.functions);
  }
}
