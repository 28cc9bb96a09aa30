import { Decimal } from '../../types/decimal.js';
import { assertNever } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import { typeToString } from '../../types/type-to-string.js';
import { formatDouble, formatFloat } from '../../types/values/number-format.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { FieldValueError, withField } from '../format-error.js';
import { jacksonDecimalText } from '../common/java-text.js';
import { MS_PER_DAY, formatFlinkTimestamp, formatIsoDate, formatTimeOfDay, parseFlinkTimestampValue, parseIsoDate, parseSqlTime } from '../common/temporal-text.js';
import type { TimestampValue } from '../../types/values/precise-timestamp.js';
import type { CsvSettings } from './csv-options.js';

/** Reads one field's text (never the null literal) into a value. */
export type CsvFieldReader = (text: string) => unknown;

/**
 * Writes one non-null value. `quoteChecked` false marks numbers and booleans, which Jackson writes
 * without considering quotes; everything else goes through its string path and may be quoted.
 */
export interface CsvFieldWriter {
  readonly write: (value: unknown) => string;
  readonly quoteChecked: boolean;
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const MIN_LONG = -(2n ** 63n);
const MAX_LONG = 2n ** 63n - 1n;

function bad(text: string, type: LogicalType): FieldValueError {
  return new FieldValueError(`cannot read '${text.length > 80 ? `${text.slice(0, 80)}...` : text}' as ${typeToString(type)}.`);
}

/**
 * The value of `t[start, end)` when it is an optionally signed run of 1 to 15 decimal digits (exact as a
 * double), or NaN. A char-code loop: the regex test plus Number() it replaces was the largest cost of
 * reading a CSV line. Offsets let the fast decoder read a field in place, without slicing it out.
 */
export function smallIntegerAt(t: string, start: number, end: number): number {
  let i = start;
  let neg = false;
  const c0 = t.charCodeAt(i);
  if (c0 === 45 || c0 === 43) {
    neg = c0 === 45;
    i++;
  }
  if (end === i || end - i > 15) return NaN;
  let v = 0;
  for (; i < end; i++) {
    const d = t.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return neg ? -v : v;
}

function intReader(type: LogicalType, min: number, max: number): CsvFieldReader {
  return (text) => {
    let v = smallIntegerAt(text, 0, text.length);
    if (Number.isNaN(v)) {
      const t = text.trim();
      if (t === '') return null;
      if (!INTEGER_TEXT.test(t)) throw bad(text, type);
      v = Number(t);
    }
    if (v < min || v > max) throw bad(text, type);
    return v;
  };
}

function parseJavaDouble(t: string): number | undefined {
  if (t === 'NaN') return NaN;
  if (t === 'Infinity' || t === '+Infinity') return Infinity;
  if (t === '-Infinity') return -Infinity;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?$/.test(t)) return undefined;
  return Number(t.replace(/[fFdD]$/, ''));
}

function temporalReader(type: LogicalType, parse: (t: string) => TimestampValue): CsvFieldReader {
  return (text) => {
    const t = text.trim();
    if (t === '') return null;
    const v = parse(t);
    if (typeof v === 'number' && Number.isNaN(v)) throw bad(text, type);
    return v;
  };
}

function unsupported(type: LogicalType, where: string): never {
  throw new ValidationError(`CSV format doesn't support ${typeToString(type)}${where}; use json or arrow for nested collections.`);
}

/**
 * Reader of a field of `type` (Flink's CsvToRowDataConverters). An empty field of a non-string type reads
 * as NULL, since that is how NULL is written when no null literal is set; except BOOLEAN, which Flink
 * reads with Boolean.parseBoolean, so empty is FALSE (checked against Flink 1.20.3 reading its own
 * file: test/formats/flink-goldens/read-csv-default.tsv). `nested` is true for ARRAY
 * elements and nested ROW fields, which cannot themselves be collections.
 */
export function createCsvFieldReader(type: LogicalType, settings: CsvSettings, nested = false): CsvFieldReader {
  switch (type.kind) {
    case 'NULL':
      return () => null;
    case 'BOOLEAN':
      return (text) => {
        const t = text.trim();
        return t.toLowerCase() === 'true';
      };
    case 'TINYINT':
      return intReader(type, -128, 127);
    case 'SMALLINT':
      return intReader(type, -32768, 32767);
    case 'INT':
    case 'INTERVAL_YEAR_MONTH':
      return intReader(type, -2147483648, 2147483647);
    case 'INTERVAL_DAY_TIME':
      return intReader(type, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    case 'BIGINT':
      return (text) => {
        const small = smallIntegerAt(text, 0, text.length);
        if (!Number.isNaN(small)) return BigInt(small);
        const t = text.trim();
        if (t === '') return null;
        if (!INTEGER_TEXT.test(t)) throw bad(text, type);
        const v = BigInt(t);
        if (v < MIN_LONG || v > MAX_LONG) throw bad(text, type);
        return v;
      };
    case 'FLOAT':
    case 'DOUBLE': {
      const single = type.kind === 'FLOAT';
      return (text) => {
        const t = text.trim();
        if (t === '') return null;
        const v = parseJavaDouble(t);
        if (v === undefined) throw bad(text, type);
        return single ? Math.fround(v) : v;
      };
    }
    case 'DECIMAL': {
      const { precision, scale } = type;
      return (text) => {
        const t = text.trim();
        if (t === '') return null;
        const d = Decimal.tryParse(t);
        if (d === null) throw bad(text, type);
        return d.toPrecision(precision, scale);
      };
    }
    case 'CHAR':
    case 'VARCHAR':
      return (text) => text;
    case 'BINARY':
    case 'VARBINARY':
      return (text) => new Uint8Array(Buffer.from(text.trim(), 'base64'));
    case 'DATE':
      return temporalReader(type, parseIsoDate);
    case 'TIME':
      return temporalReader(type, parseSqlTime);
    case 'TIMESTAMP':
      return temporalReader(type, (t) => {
        const v = parseFlinkTimestampValue(t, 'SQL', false, type.precision);
        return Number.isNaN(v) ? parseFlinkTimestampValue(t, 'ISO-8601', false, type.precision) : v;
      });
    case 'TIMESTAMP_LTZ':
      return temporalReader(type, (t) => {
        const v = parseFlinkTimestampValue(t, 'SQL', true, type.precision);
        return Number.isNaN(v) ? parseFlinkTimestampValue(t, 'ISO-8601', true, type.precision) : v;
      });
    case 'ARRAY': {
      if (nested) unsupported(type, ' inside an ARRAY or ROW');
      const element = createCsvFieldReader(type.element, settings, true);
      const { arrayElementDelimiter: sep, nullLiteral } = settings;
      return (text) => {
        if (text === '') return [];
        return text.split(sep).map((e, i) => {
          if (e === nullLiteral) return null;
          try {
            return element(e);
          } catch (err) {
            // As Flink's nullable converters: with ignore-parse-errors a bad element reads as NULL.
            if (settings.ignoreParseErrors) return null;
            throw withField(err, `[${i}]`);
          }
        });
      };
    }
    case 'ROW': {
      if (nested) unsupported(type, ' inside an ARRAY or ROW');
      const readers = type.fields.map((f) => createCsvFieldReader(f.type, settings, true));
      const names = type.fields.map((f) => f.name);
      const { arrayElementDelimiter: sep, nullLiteral } = settings;
      return (text) => {
        const parts = text.split(sep);
        // Flink checks a nested row's arity only without ignore-parse-errors; with it, missing fields are
        // NULL and extra parts are ignored.
        if (parts.length !== readers.length && !settings.ignoreParseErrors) {
          throw new FieldValueError(`Row length mismatch. ${readers.length} fields expected but was ${parts.length}.`);
        }
        return readers.map((read, i) => {
          const e = parts[i];
          if (e === undefined || e === nullLiteral) return null;
          try {
            return read(e);
          } catch (err) {
            if (settings.ignoreParseErrors) return null;
            throw withField(err, names[i]!);
          }
        });
      };
    }
    case 'MAP':
    case 'MULTISET':
    case 'VARIANT':
      return unsupported(type, '');
    default:
      return assertNever(type, 'logical type');
  }
}

const raw = (write: (value: unknown) => string): CsvFieldWriter => ({ write, quoteChecked: false });
const str = (write: (value: unknown) => string): CsvFieldWriter => ({ write, quoteChecked: true });

/** Writer of a field of `type`, producing the text Flink's CsvRowDataSerializationSchema writes. */
export function createCsvFieldWriter(type: LogicalType, settings: CsvSettings, nested = false): CsvFieldWriter {
  switch (type.kind) {
    case 'NULL':
      return raw(() => '');
    case 'BOOLEAN':
      return raw((v) => ((v as boolean) ? 'true' : 'false'));
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'INTERVAL_YEAR_MONTH':
    case 'INTERVAL_DAY_TIME':
      return raw((v) => String(v as number));
    case 'BIGINT':
      return raw((v) => (v as bigint).toString());
    case 'FLOAT':
      return raw((v) => formatFloat(v as number));
    case 'DOUBLE':
      return raw((v) => formatDouble(v as number));
    case 'DECIMAL':
      // Flink 2.x writes BigDecimal as a number, never quoted (1.20's Jackson took its string path and quoted long ones).
      return settings.writeBigDecimalInScientificNotation ? raw((v) => jacksonDecimalText(v as Decimal, false)) : raw((v) => jacksonDecimalText(v as Decimal, true));
    case 'CHAR':
    case 'VARCHAR':
      return str((v) => v as string);
    case 'BINARY':
    case 'VARBINARY':
      return str((v) => {
        const b = v as Uint8Array;
        return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
      });
    case 'DATE':
      return str((v) => formatIsoDate(v as number));
    case 'TIME':
      return str((v) => formatTimeOfDay((((v as number) % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY, true));
    case 'TIMESTAMP':
      return str((v) => formatFlinkTimestamp(v as TimestampValue, 'SQL', false));
    case 'TIMESTAMP_LTZ':
      return str((v) => formatFlinkTimestamp(v as TimestampValue, 'SQL', true));
    case 'ARRAY': {
      if (nested) unsupported(type, ' inside an ARRAY or ROW');
      const element = createCsvFieldWriter(type.element, settings, true).write;
      const { arrayElementDelimiter: sep } = settings;
      const nullText = settings.nullLiteral ?? '';
      return str((v) => (v as readonly unknown[]).map((e) => (e === null || e === undefined ? nullText : element(e))).join(sep));
    }
    case 'ROW': {
      if (nested) unsupported(type, ' inside an ARRAY or ROW');
      const writers = type.fields.map((f) => createCsvFieldWriter(f.type, settings, true).write);
      const { arrayElementDelimiter: sep } = settings;
      const nullText = settings.nullLiteral ?? '';
      return str((v) => (v as readonly unknown[]).map((e, i) => (e === null || e === undefined ? nullText : writers[i]!(e))).join(sep));
    }
    case 'MAP':
    case 'MULTISET':
    case 'VARIANT':
      return unsupported(type, '');
    default:
      return assertNever(type, 'logical type');
  }
}
