import type { z as Z } from 'zod';
import { lazyRequire } from '../util/lazy-require.js';
import { formatDuration, formatMemorySize, parseDuration, parseMemorySize } from './units.js';
import { formatList, formatMap, parseList, parseMap } from './structured-options.js';

/**
 * The value type of a `ConfigOption`: how a string from DDL `WITH (...)`, `SET` or a config file is
 * parsed and coerced (with zod) and how a typed value is written back as a string.
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

type ZodApi = typeof Z;

/**
 * zod is loaded on the first value that needs parsing, not at startup: an option left at its default
 * is never parsed, and a CLI run that sets nothing should not pay for loading the library.
 */
const zodApi = lazyRequire<{ z: ZodApi }>('zod');

function fromSchema<T>(
  descriptor: OptionTypeDescriptor,
  buildSchema: (z: ZodApi) => Z.ZodType<T>,
  format: (v: T) => string,
  expectation: string,
): OptionType<T> {
  let schema: Z.ZodType<T> | undefined;
  return {
    descriptor,
    parse(raw) {
      schema ??= buildSchema(zodApi().z);
      const r = schema.safeParse(raw);
      return r.success ? { ok: true, value: r.data } : { ok: false };
    },
    format,
    expectation: () => expectation,
  };
}

/** A string input, or a value already of the target type passed through. */
function stringOr<T>(z: ZodApi, typed: Z.ZodType<T>, parseText: Z.ZodType<T, string>): Z.ZodType<T> {
  return z.union([typed, z.string().pipe(parseText)]) as unknown as Z.ZodType<T>;
}

const INT_TEXT = /^[+-]?\d+$/;
const FLOAT_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(Infinity|NaN)$/;

export const OptionTypes = {
  string: fromSchema<string>({ kind: 'string' }, (z) => z.string(), (v) => v, 'a string'),

  boolean: fromSchema<boolean>(
    { kind: 'boolean' },
    (z) => stringOr(z, z.boolean(), z.string().trim().toLowerCase().pipe(z.enum(['true', 'false'])).transform((v) => v === 'true')),
    String,
    "'true' or 'false'",
  ),

  int: fromSchema<number>(
    { kind: 'int' },
    (z) => stringOr(
      z,
      z.number().int().min(-(2 ** 31)).max(2 ** 31 - 1),
      z.string().trim().regex(INT_TEXT).transform(Number).pipe(z.number().int().min(-(2 ** 31)).max(2 ** 31 - 1)),
    ),
    String,
    'an integer between -2147483648 and 2147483647',
  ),

  long: fromSchema<number>(
    { kind: 'long' },
    (z) => stringOr(
      z,
      z.number().int().refine(Number.isSafeInteger),
      z.string().trim().regex(INT_TEXT).transform(Number).pipe(z.number().refine(Number.isSafeInteger)),
    ),
    String,
    'an integer between -9007199254740991 and 9007199254740991',
  ),

  float: fromSchema<number>(
    { kind: 'float' },
    (z) => stringOr(z, z.number(), z.string().trim().regex(FLOAT_TEXT).transform(Number)),
    String,
    'a number',
  ),

  double: fromSchema<number>(
    { kind: 'double' },
    (z) => stringOr(z, z.number(), z.string().trim().regex(FLOAT_TEXT).transform(Number)),
    String,
    'a number',
  ),

  duration: fromSchema<number>(
    { kind: 'duration' },
    (z) => stringOr(
      z,
      z.number().int().nonnegative(),
      z.string().transform((s, ctx) => {
        const ms = parseDuration(s);
        if (ms === undefined) {
          ctx.addIssue({ code: 'custom', message: 'not a duration' });
          return z.NEVER;
        }
        return ms;
      }),
    ),
    formatDuration,
    "a duration such as '10 s', '5 min', '500 ms', '1 h' or '2 d' (a bare number is milliseconds)",
  ),

  memory: fromSchema<number>(
    { kind: 'memory' },
    (z) => stringOr(
      z,
      z.number().int().nonnegative(),
      z.string().transform((s, ctx) => {
        const bytes = parseMemorySize(s);
        if (bytes === undefined) {
          ctx.addIssue({ code: 'custom', message: 'not a memory size' });
          return z.NEVER;
        }
        return bytes;
      }),
    ),
    formatMemorySize,
    "a memory size such as '64 kb', '128 mb' or '1 gb' (a bare number is bytes)",
  ),

  map: fromSchema<Readonly<Record<string, string>>>(
    { kind: 'map' },
    (z) => stringOr(
      z,
      z.record(z.string(), z.string()),
      z.string().transform((s, ctx) => {
        const m = parseMap(s);
        if (m === undefined) {
          ctx.addIssue({ code: 'custom', message: 'not a map' });
          return z.NEVER;
        }
        return m;
      }),
    ),
    formatMap,
    "a map such as 'k1:v1,k2:v2'",
  ),

  /** Enum values match case-insensitively and come back in their canonical spelling. */
  enumOf<const V extends readonly string[]>(values: V): OptionType<V[number]> {
    const byLower = new Map(values.map((v) => [v.toLowerCase(), v]));
    return fromSchema<V[number]>(
      { kind: 'enum', values },
      (z) => z.string().transform((s, ctx) => {
        const v = byLower.get(s.trim().toLowerCase());
        if (v === undefined) {
          ctx.addIssue({ code: 'custom', message: 'not an enum value' });
          return z.NEVER;
        }
        return v;
      }),
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
