import { ValidationError } from '../errors/sluice-error.js';
import { ConfigOption, type OptionValue } from './config-option.js';
import { maskSecrets } from './secrets.js';

/** Where deprecation warnings go; the CLI injects its own, tests inject a collector. */
export interface ConfigLogger {
  /** Called synchronously, at most once per deprecated key and `Configuration` instance. */
  warn(message: string): void;
}

const CONSOLE_LOGGER: ConfigLogger = { warn: (m) => console.warn(m) };

/**
 * Read access to typed options (Flink's `ReadableConfig`). Factories, formats and the runtime receive
 * this; reads are synchronous and cheap, but parse on every call, so read once at setup and keep the value,
 * never per record.
 */
export interface ReadableConfig {
  /**
   * The option's value: the first key set among key, fallback keys, deprecated keys; else its default
   * (`undefined` when it has none, which its type says).
   * @throws ValidationError "Invalid value for option 'k': ..." when the stored string does not parse.
   */
  get<T>(option: ConfigOption<T>): T;
  /** The value only if set under one of the option's keys; the default is not applied. */
  getOptional<T>(option: ConfigOption<T>): OptionValue<T> | undefined;
  /** True when the option is set under any of its keys. */
  contains(option: ConfigOption<unknown>): boolean;
  /** All entries as raw strings (secrets not masked; use `maskSecrets` before showing). */
  toMap(): Record<string, string>;
}

/**
 * A mutable map of string keys to string values with typed access through `ConfigOption`s, as Flink's
 * `Configuration`. Typed values are stored in their canonical string form (`30 s`, `a;b`).
 *
 * @example
 * const conf = new Configuration({ 'execution.checkpointing.interval': '10 s' });
 * conf.get(CheckpointingOptions.CHECKPOINTING_INTERVAL); // 10000
 */
export class Configuration implements ReadableConfig {
  private readonly entries: Map<string, string>;
  private readonly warned = new Set<string>();
  private readonly logger: ConfigLogger;

  constructor(initial?: Readonly<Record<string, string>> | ReadonlyMap<string, string>, options: { logger?: ConfigLogger } = {}) {
    this.entries = new Map(initial instanceof Map ? initial : Object.entries(initial ?? {}));
    this.logger = options.logger ?? CONSOLE_LOGGER;
  }

  /**
   * Set a typed value (validated, then stored in canonical form) or a raw string under a key (stored as is,
   * validated when read).
   * @throws ValidationError when a typed value is not acceptable for the option.
   */
  set<T>(option: ConfigOption<T>, value: OptionValue<T>): this;
  set(key: string, value: string): this;
  set(optionOrKey: ConfigOption<unknown> | string, value: unknown): this {
    if (typeof optionOrKey === 'string') {
      this.entries.set(optionOrKey, String(value));
    } else if (!(optionOrKey instanceof ConfigOption)) {
      // A JavaScript caller is not held to the types.
      throw new ValidationError(`Configuration.set() takes an option key as a string (or a ConfigOption); it was given ${optionOrKey === null ? 'null' : typeof optionOrKey}.`);
    } else {
      const parsed = optionOrKey.parseValue(value);
      this.entries.set(optionOrKey.key, optionOrKey.formatValue(parsed as never));
    }
    return this;
  }

  get<T>(option: ConfigOption<T>): T {
    const v = this.getOptional(option);
    return v === undefined ? option.defaultValue : v;
  }

  getOptional<T>(option: ConfigOption<T>): OptionValue<T> | undefined {
    const found = this.findKey(option);
    if (found === undefined) return undefined;
    return option.parseValue(this.entries.get(found)!, found);
  }

  /** The raw string under exactly `key`. */
  getString(key: string): string | undefined {
    return this.entries.get(key);
  }

  contains(optionOrKey: ConfigOption<unknown> | string): boolean {
    if (typeof optionOrKey === 'string') return this.entries.has(optionOrKey);
    return optionOrKey.allKeys().some((k) => this.entries.has(k));
  }

  /** Remove the option under all of its keys (or exactly `key`); true if anything was removed. */
  remove(optionOrKey: ConfigOption<unknown> | string): boolean {
    const keys = typeof optionOrKey === 'string' ? [optionOrKey] : optionOrKey.allKeys();
    let removed = false;
    for (const k of keys) removed = this.entries.delete(k) || removed;
    return removed;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  toMap(): Record<string, string> {
    return Object.fromEntries(this.entries);
  }

  /** `toMap()` with secret values replaced by `******`, for `SET;` listings and logs. */
  toMaskedMap(): Record<string, string> {
    return maskSecrets(this.toMap());
  }

  get size(): number {
    return this.entries.size;
  }

  /** An independent copy with the same logger. */
  clone(): Configuration {
    return new Configuration(this.entries, { logger: this.logger });
  }

  /** Copy every entry of `other` into this one, each key prefixed with `prefix`; later wins. */
  addAll(other: ReadableConfig | Readonly<Record<string, string>>, prefix = ''): this {
    const map = isReadableConfig(other) ? other.toMap() : other;
    for (const [k, v] of Object.entries(map)) this.entries.set(prefix + k, v);
    return this;
  }

  /** The entries whose key starts with `prefix`, with the prefix removed (format options: `json.`). */
  subConfiguration(prefix: string): Configuration {
    const out = new Configuration(undefined, { logger: this.logger });
    for (const [k, v] of this.entries) if (k.startsWith(prefix)) out.entries.set(k.slice(prefix.length), v);
    return out;
  }

  private findKey(option: ConfigOption<unknown>): string | undefined {
    if (this.entries.has(option.key)) return option.key;
    for (const k of option.fallbackKeys) if (this.entries.has(k)) return k;
    for (const k of option.deprecatedKeys) {
      if (this.entries.has(k)) {
        if (!this.warned.has(k)) {
          this.warned.add(k);
          this.logger.warn(`Config uses deprecated configuration key '${k}' instead of proper key '${option.key}'`);
        }
        return k;
      }
    }
    return undefined;
  }
}

function isReadableConfig(v: unknown): v is ReadableConfig {
  return typeof (v as ReadableConfig).toMap === 'function' && typeof (v as ReadableConfig).get === 'function';
}
