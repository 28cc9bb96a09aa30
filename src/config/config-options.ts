import { ConfigOption } from './config-option.js';
import { OptionTypes } from './option-type.js';
import type { OptionType } from './option-type.js';

/** Step 2 of the builder: the value type is known; choose a default or none, or make it a list. */
export class TypedConfigOptionBuilder<T> {
  constructor(
    private readonly key: string,
    private readonly type: OptionType<T>,
  ) {}

  defaultValue(value: T): ConfigOption<T> {
    return new ConfigOption<T>(this.key, this.type as OptionType<Exclude<T, undefined>>, value, true);
  }

  noDefaultValue(): ConfigOption<T | undefined> {
    return new ConfigOption<T | undefined>(this.key, this.type as OptionType<Exclude<T, undefined>>, undefined, false);
  }

  /** Values written `a;b;c`. */
  asList(): ListConfigOptionBuilder<T> {
    return new ListConfigOptionBuilder(this.key, OptionTypes.listOf(this.type));
  }
}

/** Step 2 for list options. */
export class ListConfigOptionBuilder<T> {
  constructor(
    private readonly key: string,
    private readonly type: OptionType<readonly T[]>,
  ) {}

  defaultValues(...values: T[]): ConfigOption<readonly T[]> {
    return new ConfigOption<readonly T[]>(this.key, this.type, values, true);
  }

  noDefaultValue(): ConfigOption<readonly T[] | undefined> {
    return new ConfigOption<readonly T[] | undefined>(this.key, this.type, undefined, false);
  }
}

/** Step 1 of the builder: the key is known; choose the value type. */
export class OptionBuilder {
  constructor(private readonly key: string) {}

  stringType(): TypedConfigOptionBuilder<string> {
    return new TypedConfigOptionBuilder(this.key, OptionTypes.string);
  }
  /** A local file or directory, written as a path or a `file:` URI; read as a path. */
  localPathType(): TypedConfigOptionBuilder<string> {
    return new TypedConfigOptionBuilder(this.key, OptionTypes.localPath);
  }
  booleanType(): TypedConfigOptionBuilder<boolean> {
    return new TypedConfigOptionBuilder(this.key, OptionTypes.boolean);
  }
  /** 32-bit integer, range-checked. */
  intType(): TypedConfigOptionBuilder<number> {
    return new TypedConfigOptionBuilder(this.key, OptionTypes.int);
  }
  /** Integer up to 2^53-1 (a `number`: Flink's long options are counts, sizes and epoch ms). */
  longType(): TypedConfigOptionBuilder<number> {
    return new TypedConfigOptionBuilder(this.key, OptionTypes.long);
  }
  floatType(): TypedConfigOptionBuilder<number> {
    return new TypedConfigOptionBuilder(this.key, OptionTypes.float);
  }
  doubleType(): TypedConfigOptionBuilder<number> {
    return new TypedConfigOptionBuilder(this.key, OptionTypes.double);
  }
  /** Milliseconds; written `30 s`, `5 min`, `500ms`, `1 h`, `2 d` or a bare number of ms. */
  durationType(): TypedConfigOptionBuilder<number> {
    return new TypedConfigOptionBuilder(this.key, OptionTypes.duration);
  }
  /** Bytes; written `64 kb`, `128 mb`, `1g` or a bare number of bytes. */
  memoryType(): TypedConfigOptionBuilder<number> {
    return new TypedConfigOptionBuilder(this.key, OptionTypes.memory);
  }
  /** One of `values`, matched case-insensitively, returned canonical; typed as their literal union. */
  enumType<const V extends readonly string[]>(values: V): TypedConfigOptionBuilder<V[number]> {
    return new TypedConfigOptionBuilder(this.key, OptionTypes.enumOf(values));
  }
  /** `k1:v1,k2:v2`. */
  mapType(): TypedConfigOptionBuilder<Readonly<Record<string, string>>> {
    return new TypedConfigOptionBuilder(this.key, OptionTypes.map);
  }
}

/**
 * Entry point for declaring options, as Flink's `ConfigOptions`.
 *
 * @example
 * const SCAN_STARTUP_MODE = ConfigOptions.key('scan.startup.mode')
 *   .enumType(['earliest-offset', 'latest-offset', 'group-offsets', 'timestamp', 'specific-offsets'])
 *   .defaultValue('group-offsets')
 *   .withDescription('Where a Kafka source starts reading.');
 * // ConfigOption<'earliest-offset' | 'latest-offset' | 'group-offsets' | 'timestamp' | 'specific-offsets'>
 */
export const ConfigOptions = {
  key(key: string): OptionBuilder {
    return new OptionBuilder(key);
  },
} as const;
