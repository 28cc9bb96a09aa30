import type { ConfigOption } from '../../config/config-option.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { Decimal, pow10 } from '../../types/decimal.js';
import type { LogicalType } from '../../types/logical-type.js';
import { typeToString } from '../../types/type-to-string.js';
import { fieldOption, type FieldOptionName } from './datagen-options.js';
import type { FastRandom } from './random.js';
import { RandomHexStrings } from './random-hex.js';

/** Produces one random value; `now` is the reader's clock for this batch (epoch ms), read once per batch. */
export type RandomValue = (rng: FastRandom, now: number) => unknown;

/**
 * How one top-level column is generated. A sequence column's value is a function of the row's index in
 * the table (`start + index`), which is what makes restored readers continue without gaps or repeats.
 */
export type FieldGenerator =
  | { readonly kind: 'random'; readonly next: RandomValue }
  | { readonly kind: 'sequence'; readonly count: number; readonly valueAt: (index: number) => unknown };

/** The generators of a table's columns and the concrete options they read (all of them are "supported"). */
export interface FieldGeneratorsPlan {
  readonly generators: readonly FieldGenerator[];
  readonly options: readonly ConfigOption<unknown>[];
}

const DEFAULT_STRING_LENGTH = 100;
const DEFAULT_COLLECTION_LENGTH = 3;
const MS_PER_DAY = 86_400_000;

/**
 * Builds the generators of every column, validating options against each column's type and kind with
 * Flink's messages. Throws ValidationError on the first problem.
 */
export function buildFieldGenerators(columns: readonly { name: string; type: LogicalType }[], options: ReadableConfig): FieldGeneratorsPlan {
  const used: ConfigOption<unknown>[] = [];
  const generators = columns.map((c) => {
    const kindOption = fieldOption(c.name, 'kind');
    used.push(kindOption);
    const kind = options.get(kindOption) as string;
    switch (kind) {
      case 'random': {
        validateRandomFieldOptions(c.name, c.type, options);
        return { kind: 'random', next: randomValue(c.name, c.type, options, used) } as const;
      }
      case 'sequence':
        return sequenceGenerator(c.name, c.type, options, used);
      default:
        throw new ValidationError(`Unsupported generator kind: ${kind}`);
    }
  });
  return { generators, options: used };
}

function opt<T>(field: string, name: FieldOptionName, options: ReadableConfig, used: ConfigOption<unknown>[]): T | undefined {
  const o = fieldOption(field, name);
  used.push(o);
  return options.getOptional(o) as T | undefined;
}

function validateRandomFieldOptions(name: string, type: LogicalType, options: ReadableConfig): void {
  const varLen = options.getOptional(fieldOption(name, 'var-len'));
  if (varLen === true && type.kind !== 'VARCHAR' && type.kind !== 'VARBINARY') {
    throw new ValidationError(
      `Only supports specifying 'fields.#.var-len' option for variable-length types (VARCHAR/STRING/VARBINARY/BYTES). The type of field '${name}' is not within this range.`,
    );
  }
  const length = options.getOptional(fieldOption(name, 'length')) as number | undefined;
  if (length === undefined) return;
  if (type.kind === 'CHAR' || type.kind === 'BINARY') {
    throw new ValidationError(`Custom length for fixed-length type (CHAR/BINARY) field '${name}' is not supported.`);
  }
  if ((type.kind === 'VARCHAR' || type.kind === 'VARBINARY') && length > type.length) {
    throw new ValidationError(
      `Custom length '${length}' for variable-length type (VARCHAR/STRING/VARBINARY/BYTES) field '${name}' should be shorter than '${type.length}' defined in the schema.`,
    );
  }
}

function unsupported(type: LogicalType): never {
  throw new ValidationError(`Unsupported type: ${typeToString(type)}`);
}

function parseBig(key: string, text: string): bigint {
  if (!/^\s*[+-]?\d+\s*$/.test(text)) throw new ValidationError(`Invalid value for option '${key}': '${text}'. Expected an integer.`);
  return BigInt(text.trim());
}

function parseNum(key: string, text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new ValidationError(`Invalid value for option '${key}': '${text}'. Expected a number.`);
  return n;
}

function checkRange(field: string, min: number | bigint, max: number | bigint): void {
  if (min > max) {
    throw new ValidationError(`Invalid range for field '${field}': 'fields.${field}.min' (${min}) must not be greater than 'fields.${field}.max' (${max}).`);
  }
}

function withNullRate(gen: RandomValue, nullRate: number): RandomValue {
  if (!(nullRate > 0)) return gen;
  return (rng, now) => (rng.next() < nullRate ? null : gen(rng, now));
}

const INT_RANGES = { TINYINT: [-128, 127], SMALLINT: [-32768, 32767], INT: [-2147483648, 2147483647] } as const;

/** Truncates epoch ms to the type's precision (TIMESTAMP(0) has whole seconds). */
function truncateToPrecision(ms: number, precision: number): number {
  if (precision >= 3) return ms;
  const unit = 10 ** (3 - precision);
  return Math.floor(ms / unit) * unit;
}

function randomValue(name: string, type: LogicalType, options: ReadableConfig, used: ConfigOption<unknown>[]): RandomValue {
  const nullRate = (opt<number>(name, 'null-rate', options, used) ?? 0) as number;
  return withNullRate(baseRandomValue(name, type, options, used), type.nullable ? nullRate : 0);
}

function baseRandomValue(name: string, type: LogicalType, options: ReadableConfig, used: ConfigOption<unknown>[]): RandomValue {
  switch (type.kind) {
    case 'BOOLEAN':
      return (rng) => rng.next() < 0.5;
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT': {
      const [lo, hi] = INT_RANGES[type.kind];
      const minText = opt<string>(name, 'min', options, used);
      const maxText = opt<string>(name, 'max', options, used);
      const min = minText === undefined ? lo : Number(parseBig(`fields.${name}.min`, minText));
      const max = maxText === undefined ? hi : Number(parseBig(`fields.${name}.max`, maxText));
      checkRange(name, min, max);
      return (rng) => rng.nextIntBetween(min, max);
    }
    case 'BIGINT': {
      const minText = opt<string>(name, 'min', options, used);
      const maxText = opt<string>(name, 'max', options, used);
      const min = minText === undefined ? -(2n ** 63n) : parseBig(`fields.${name}.min`, minText);
      const max = maxText === undefined ? 2n ** 63n - 1n : parseBig(`fields.${name}.max`, maxText);
      checkRange(name, min, max);
      if (max - min < 2n ** 53n) {
        const lo = Number(min);
        const span = Number(max - min);
        return (rng) => BigInt(lo + rng.nextIntBetween(0, span));
      }
      return (rng) => rng.nextBigIntBetween(min, max);
    }
    case 'FLOAT':
    case 'DOUBLE': {
      // Flink's defaults are Float/Double.MIN_VALUE..MAX_VALUE: positive values over the whole range.
      const minText = opt<string>(name, 'min', options, used);
      const maxText = opt<string>(name, 'max', options, used);
      const big = type.kind === 'FLOAT' ? 3.4028234663852886e38 : Number.MAX_VALUE;
      const min = minText === undefined ? 0 : parseNum(`fields.${name}.min`, minText);
      const max = maxText === undefined ? big : parseNum(`fields.${name}.max`, maxText);
      checkRange(name, min, max);
      return type.kind === 'FLOAT' ? (rng) => Math.fround(min + rng.next() * (max - min)) : (rng) => min + rng.next() * (max - min);
    }
    case 'DECIMAL': {
      const minText = opt<string>(name, 'min', options, used);
      const maxText = opt<string>(name, 'max', options, used);
      const limit = pow10(type.precision) - 1n;
      const toUnscaled = (key: string, text: string): bigint => {
        const d = Decimal.parse(text).rescale(type.scale);
        const u = d.unscaled;
        if (u > limit || u < -limit) throw new ValidationError(`Invalid value for option '${key}': '${text}' does not fit ${typeToString(type)}.`);
        return u;
      };
      const min = minText === undefined ? 0n : toUnscaled(`fields.${name}.min`, minText);
      const max = maxText === undefined ? limit : toUnscaled(`fields.${name}.max`, maxText);
      checkRange(name, min, max);
      const scale = type.scale;
      return (rng) => new Decimal(rng.nextBigIntBetween(min, max), scale);
    }
    case 'CHAR':
    case 'VARCHAR':
    case 'BINARY':
    case 'VARBINARY': {
      const fixed = type.kind === 'CHAR' || type.kind === 'BINARY';
      const lengthOpt = opt<number>(name, 'length', options, used);
      const varLen = opt<boolean>(name, 'var-len', options, used) === true;
      const length = fixed ? type.length : (lengthOpt ?? Math.min(DEFAULT_STRING_LENGTH, type.length));
      const binary = type.kind === 'BINARY' || type.kind === 'VARBINARY';
      if (binary) {
        return (rng) => {
          const n = varLen ? rng.nextIntBetween(1, length) : length;
          const out = new Uint8Array(n);
          for (let i = 0; i < n; i++) out[i] = rng.nextInt(256);
          return out;
        };
      }
      const strings = new RandomHexStrings();
      return varLen ? (rng) => strings.next(rng, rng.nextIntBetween(1, length)) : (rng) => strings.next(rng, length);
    }
    case 'DATE': {
      const maxPast = opt<number>(name, 'max-past', options, used) ?? 0;
      const days = Math.floor(maxPast / MS_PER_DAY);
      return (rng, now) => Math.floor(now / MS_PER_DAY) - rng.nextIntBetween(0, days);
    }
    case 'TIME':
      return (rng) => truncateToPrecision(rng.nextInt(MS_PER_DAY), type.precision);
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ': {
      const maxPast = opt<number>(name, 'max-past', options, used) ?? 0;
      const p = type.precision;
      return maxPast > 0 ? (rng, now) => truncateToPrecision(now - rng.nextIntBetween(0, maxPast), p) : (_rng, now) => truncateToPrecision(now, p);
    }
    case 'ARRAY': {
      const length = opt<number>(name, 'length', options, used) ?? DEFAULT_COLLECTION_LENGTH;
      const element = randomValue(`${name}.element`, type.element, options, used);
      return (rng, now) => {
        const out = new Array<unknown>(length);
        for (let i = 0; i < length; i++) out[i] = element(rng, now);
        return out;
      };
    }
    case 'MULTISET': {
      const length = opt<number>(name, 'length', options, used) ?? DEFAULT_COLLECTION_LENGTH;
      const element = randomValue(`${name}.element`, type.element, options, used);
      return (rng, now) => {
        const out = new Map<unknown, number>();
        for (let i = 0; i < length; i++) {
          const e = element(rng, now);
          out.set(e, (out.get(e) ?? 0) + 1);
        }
        return out;
      };
    }
    case 'MAP': {
      const length = opt<number>(name, 'length', options, used) ?? DEFAULT_COLLECTION_LENGTH;
      const key = randomValue(`${name}.key`, type.key, options, used);
      const value = randomValue(`${name}.value`, type.value, options, used);
      return (rng, now) => {
        const out = new Map<unknown, unknown>();
        for (let i = 0; i < length; i++) out.set(key(rng, now), value(rng, now));
        return out;
      };
    }
    case 'ROW': {
      const fields = type.fields.map((f) => randomValue(`${name}.${f.name}`, f.type, options, used));
      return (rng, now) => fields.map((g) => g(rng, now));
    }
    case 'NULL':
      return () => null;
    case 'INTERVAL_YEAR_MONTH':
    case 'INTERVAL_DAY_TIME':
    case 'VARIANT':
      return unsupported(type);
    default: {
      const never: never = type;
      return unsupported(never);
    }
  }
}

function sequenceGenerator(name: string, type: LogicalType, options: ReadableConfig, used: ConfigOption<unknown>[]): FieldGenerator {
  const startText = opt<string>(name, 'start', options, used);
  const endText = opt<string>(name, 'end', options, used);
  const requireBoth = (): [string, string] => {
    if (startText === undefined) throw new ValidationError(`Could not find required property 'fields.${name}.start' for sequence generator.`);
    if (endText === undefined) throw new ValidationError(`Could not find required property 'fields.${name}.end' for sequence generator.`);
    return [startText, endText];
  };
  const countOf = (span: bigint): number => {
    if (span < 0n) {
      throw new ValidationError(`Invalid sequence for field '${name}': 'fields.${name}.end' must not be smaller than 'fields.${name}.start'.`);
    }
    const n = span + 1n;
    return n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n);
  };
  switch (type.kind) {
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT': {
      const [s, e] = requireBoth();
      const start = parseBig(`fields.${name}.start`, s);
      const end = parseBig(`fields.${name}.end`, e);
      const [lo, hi] = INT_RANGES[type.kind];
      for (const [k, v] of [['start', start], ['end', end]] as const) {
        if (v < BigInt(lo) || v > BigInt(hi)) throw new ValidationError(`Invalid value for option 'fields.${name}.${k}': '${v}' is out of the range of ${type.kind}.`);
      }
      const s0 = Number(start);
      return { kind: 'sequence', count: countOf(end - start), valueAt: (i) => s0 + i };
    }
    case 'BIGINT': {
      const [s, e] = requireBoth();
      const start = parseBig(`fields.${name}.start`, s);
      const end = parseBig(`fields.${name}.end`, e);
      if (start >= -(2n ** 53n) && end <= 2n ** 53n) {
        const s0 = Number(start);
        return { kind: 'sequence', count: countOf(end - start), valueAt: (i) => BigInt(s0 + i) };
      }
      return { kind: 'sequence', count: countOf(end - start), valueAt: (i) => start + BigInt(i) };
    }
    case 'FLOAT':
    case 'DOUBLE': {
      const [s, e] = requireBoth();
      const start = parseNum(`fields.${name}.start`, s);
      const end = parseNum(`fields.${name}.end`, e);
      const count = countOf(BigInt(Math.floor(end - start)));
      return { kind: 'sequence', count, valueAt: type.kind === 'FLOAT' ? (i) => Math.fround(start + i) : (i) => start + i };
    }
    case 'DECIMAL': {
      const [s, e] = requireBoth();
      const start = Decimal.parse(s).rescale(type.scale);
      const end = Decimal.parse(e).rescale(type.scale);
      const step = pow10(type.scale);
      const count = countOf((end.unscaled - start.unscaled) / step);
      return { kind: 'sequence', count, valueAt: (i) => new Decimal(start.unscaled + BigInt(i) * step, type.scale) };
    }
    case 'CHAR':
    case 'VARCHAR': {
      const [s, e] = requireBoth();
      const start = parseBig(`fields.${name}.start`, s);
      const end = parseBig(`fields.${name}.end`, e);
      return { kind: 'sequence', count: countOf(end - start), valueAt: (i) => String(start + BigInt(i)) };
    }
    default:
      return unsupported(type);
  }
}
