import { fileURLToPath } from 'node:url';
import { formatDuration, formatMemorySize, parseDuration, parseMemorySize } from './units.js';
import { formatList, formatMap, parseList, parseMap } from './structured-options.js';

/**
 * The value type of a `ConfigOption`: how a string from DDL `WITH (...)`, `SET` or a config file is
 * parsed and coerced and how a typed value is written back as a string.
 */
export type OptionTypeDescriptor =
  | { readonly kind: 'string' }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'int' }
  | { readonly kind: 'long' }
  | { readonly kind: 'float' }
  | { readonly kind: 'double' }
  | { readonly kind: 'duration' }
  | { readonly kind: 'memory' }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'map' }
  | { readonly kind: 'list'; readonly element: OptionTypeDescriptor };

/** Outcome of parsing one raw value. */
export type ParseResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false };

/** A value type: the descriptor plus its parser and formatter. */
export interface OptionType<T> {
  readonly descriptor: OptionTypeDescriptor;
  /** Parse a raw string (or a value already of the right JS type, as given to `Configuration.set`). */
  parse(raw: unknown): ParseResult<T>;
  /** The canonical string form stored in a `Configuration`. */
  format(value: T): string;
  /** What is allowed, for error messages: "a duration such as '10 s', '5 min' or '500 ms'". */
  expectation(): string;
}

/**
 * A value type from a parser. The parsers are plain code, not a schema library: parsing an option value
 * is on every CLI run's and every worker thread's start-up path (the first `SET` or connector option), and
 * loading zod there cost 70-150 ms per thread, longer than planning the job.
 */
function fromParser<T>(descriptor: OptionTypeDescriptor, parse: (raw: unknown) => T | undefined, format: (v: T) => string, expectation: string): OptionType<T> {
  return {
    descriptor,
    parse(raw) {
      const value = parse(raw);
      return value === undefined ? { ok: false } : { ok: true, value };
    },
    format,
    expectation: () => expectation,
  };
}

const INT_TEXT = /^[+-]?\d+$/;
const FLOAT_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(Infinity|NaN)$/;

/** A finite number given as a number (not text): what a typed `Configuration.set` passes. */
function finite(raw: unknown): number | undefined {
  return typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined;
}

/** An integer given as a number or as decimal digits (surrounding blanks allowed), within [min, max]. */
function integer(raw: unknown, min: number, max: number): number | undefined {
  const n = typeof raw === 'string' ? (INT_TEXT.test(raw.trim()) ? Number(raw.trim()) : undefined) : finite(raw);
  return n !== undefined && Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
}

/** A finite number, or number text (which may spell Infinity or NaN, as Java's `Double.parseDouble` reads them). */
function decimal(raw: unknown): number | undefined {
  if (typeof raw !== 'string') return finite(raw);
  const s = raw.trim();
  return FLOAT_TEXT.test(s) ? Number(s) : undefined;
}

/** A non-negative integer number, or text `parseText` reads (a duration, a memory size). */
function amount(raw: unknown, parseText: (s: string) => number | undefined): number | undefined {
  if (typeof raw === 'string') return parseText(raw);
  const n = finite(raw);
  return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

export const OptionTypes = {
  string: fromParser<string>({ kind: 'string' }, (raw) => (typeof raw === 'string' ? raw : undefined), (v) => v, 'a string'),

  /**
   * A file or directory on the local file system, written as a path or as a `file:` URI (Flink's usual
   * spelling, `file:///tmp/checkpoints`), returned as a path. Another scheme (`s3://`, `hdfs://`) is refused:
   * Sluice reads and writes local disks only, and a URI taken for a relative path would read or write
   * somewhere the user never looks.
   */
  localPath: fromParser<string>(
    { kind: 'string' },
    (raw) => {
      if (typeof raw !== 'string') return undefined;
      const s = raw.trim();
      if (/^file:/i.test(s)) {
        try {
          return fileURLToPath(s);
        } catch {
          return undefined;
        }
      }
      return /^[a-z][a-z0-9+.-]+:\/\//i.test(s) ? undefined : raw;
    },
    (v) => v,
    "a local path or a 'file:///...' URI (other file systems, such as s3:// or hdfs://, are not supported)",
  ),

  boolean: fromParser<boolean>(
    { kind: 'boolean' },
    (raw) => {
      if (typeof raw === 'boolean') return raw;
      if (typeof raw !== 'string') return undefined;
      const s = raw.trim().toLowerCase();
      return s === 'true' ? true : s === 'false' ? false : undefined;
    },
    String,
    "'true' or 'false'",
  ),

  int: fromParser<number>({ kind: 'int' }, (raw) => integer(raw, -(2 ** 31), 2 ** 31 - 1), String, 'an integer between -2147483648 and 2147483647'),

  long: fromParser<number>(
    { kind: 'long' },
    (raw) => integer(raw, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    String,
    'an integer between -9007199254740991 and 9007199254740991',
  ),

  float: fromParser<number>({ kind: 'float' }, (raw) => decimal(raw), String, 'a number'),

  double: fromParser<number>({ kind: 'double' }, (raw) => decimal(raw), String, 'a number'),

  duration: fromParser<number>(
    { kind: 'duration' },
    (raw) => amount(raw, parseDuration),
    formatDuration,
    "a duration such as '10 s', '5 min', '500 ms', '1 h' or '2 d' (a bare number is milliseconds)",
  ),

  memory: fromParser<number>(
    { kind: 'memory' },
    (raw) => amount(raw, parseMemorySize),
    formatMemorySize,
    "a memory size such as '64 kb', '128 mb' or '1 gb' (a bare number is bytes)",
  ),

  map: fromParser<Readonly<Record<string, string>>>(
    { kind: 'map' },
    (raw) => {
      if (typeof raw === 'string') return parseMap(raw);
      if (!isPlainObject(raw)) return undefined;
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(raw)) {
        if (typeof v !== 'string') return undefined;
        out[k] = v;
      }
      return out;
    },
    formatMap,
    "a map such as 'k1:v1,k2:v2'",
  ),

  /** Enum values match case-insensitively and come back in their canonical spelling. */
  enumOf<const V extends readonly string[]>(values: V): OptionType<V[number]> {
    const byLower = new Map(values.map((v) => [v.toLowerCase(), v]));
    return fromParser<V[number]>(
      { kind: 'enum', values },
      (raw) => (typeof raw === 'string' ? byLower.get(raw.trim().toLowerCase()) : undefined),
      (v) => v,
      `one of [${values.join(', ')}]`,
    );
  },

  /** `a;b;c`, each element parsed by `element`; an array of elements is accepted as is. */
  listOf<T>(element: OptionType<T>): OptionType<readonly T[]> {
    return {
      descriptor: { kind: 'list', element: element.descriptor },
      parse(raw) {
        const parts = Array.isArray(raw) ? (raw as unknown[]) : typeof raw === 'string' ? parseList(raw) : undefined;
        if (parts === undefined) return { ok: false };
        const out: T[] = [];
        for (const p of parts) {
          const r = element.parse(p);
          if (!r.ok) return { ok: false };
          out.push(r.value);
        }
        return { ok: true, value: out };
      },
      format: (values) => formatList(values.map((v) => element.format(v))),
      expectation: () => `a list separated by ';' of ${element.expectation()}`,
    };
  },
} as const;
