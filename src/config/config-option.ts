import { ValidationError } from '../errors/sluice-error.js';
import type { OptionType, OptionTypeDescriptor } from './option-type.js';
import { isSecretKey, SECRET_MASK } from './secrets.js';

/** The value an option holds once set: T without the `undefined` of an option that has no default. */
export type OptionValue<T> = Exclude<T, undefined>;

/**
 * A typed, documented configuration key, Flink's `ConfigOption<T>` (FLIP-122). Immutable; build one with
 * `ConfigOptions.key(...)`. `T` includes `undefined` when the option has no default, so
 * `configuration.get(option)` is typed exactly.
 *
 * Lookup order when reading: `key`, then `fallbackKeys` (silently), then `deprecatedKeys` (with one warning
 * naming the new key).
 */
export class ConfigOption<T> {
  /** True when values must be masked (`******`) in errors and listings; derived from the key. */
  readonly secret: boolean;

  constructor(
    readonly key: string,
    readonly type: OptionType<OptionValue<T>>,
    /** The default, or `undefined` when `hasDefaultValue` is false. */
    readonly defaultValue: T,
    readonly hasDefaultValue: boolean,
    readonly description: string = '',
    readonly fallbackKeys: readonly string[] = [],
    readonly deprecatedKeys: readonly string[] = [],
  ) {
    this.secret = isSecretKey(key);
  }

  get typeDescriptor(): OptionTypeDescriptor {
    return this.type.descriptor;
  }

  /** Every key the option may be read from, in lookup order. */
  allKeys(): string[] {
    return [this.key, ...this.fallbackKeys, ...this.deprecatedKeys];
  }

  withDescription(description: string): ConfigOption<T> {
    return new ConfigOption(this.key, this.type, this.defaultValue, this.hasDefaultValue, description, this.fallbackKeys, this.deprecatedKeys);
  }

  /** Alternative keys read silently when `key` is absent (e.g. `state.checkpoints.dir`). */
  withFallbackKeys(...keys: string[]): ConfigOption<T> {
    return new ConfigOption(this.key, this.type, this.defaultValue, this.hasDefaultValue, this.description, [...this.fallbackKeys, ...keys], this.deprecatedKeys);
  }

  /** Old keys still read when `key` is absent, with a warning naming `key`. */
  withDeprecatedKeys(...keys: string[]): ConfigOption<T> {
    return new ConfigOption(this.key, this.type, this.defaultValue, this.hasDefaultValue, this.description, this.fallbackKeys, [...this.deprecatedKeys, ...keys]);
  }

  /**
   * Parse and coerce a raw value (a string, or a value of the option's JS type).
   * @param foundUnder the key the value was found under, named in the error.
   * @throws ValidationError "Invalid value for option 'k': 'v'. Expected ..." (value masked if secret).
   */
  parseValue(raw: unknown, foundUnder: string = this.key): OptionValue<T> {
    const r = this.type.parse(raw);
    if (r.ok) return r.value;
    const shown = this.secret || isSecretKey(foundUnder) ? SECRET_MASK : typeof raw === 'string' ? raw : JSON.stringify(raw);
    throw new ValidationError(`Invalid value for option '${foundUnder}': '${shown}'. Expected ${this.type.expectation()}.`);
  }

  /** The canonical string of a typed value (`30 s`, `128 mb`, `a;b`). */
  formatValue(value: OptionValue<T>): string {
    return this.type.format(value);
  }

  toString(): string {
    return `Key: '${this.key}' , default: ${this.hasDefaultValue ? String(this.defaultValue) : 'none'} (fallback keys: [${this.fallbackKeys.join(', ')}], deprecated keys: [${this.deprecatedKeys.join(', ')}])`;
  }
}
