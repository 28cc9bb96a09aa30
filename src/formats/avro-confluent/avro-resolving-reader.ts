import { Decimal } from '../../types/decimal.js';
import type { LogicalType } from '../../types/logical-type.js';
import { typeToString } from '../../types/type-to-string.js';
import { FieldValueError, withField } from '../format-error.js';
import type { AvroReader } from '../avro/avro-binary.js';
import { arrayReader, bytesToBigint, mapReader, readMicros, type Read } from '../avro/avro-row-codec.js';
import { avroSkipper, type ParsedAvroSchema, type Skip } from './avro-schema-model.js';

/** The writer's schema cannot be read as the table's type (Avro schema resolution fails). */
export class SchemaResolutionError extends FieldValueError {}

const utf8 = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

function mismatch(w: ParsedAvroSchema, t: LogicalType): SchemaResolutionError {
  return new SchemaResolutionError(`the writer's Avro type ${describe(w)} cannot be read as ${typeToString(t)}.`);
}

function describe(w: ParsedAvroSchema): string {
  switch (w.kind) {
    case 'record':
    case 'enum':
    case 'fixed':
      return `${w.kind} '${w.name}'`;
    case 'union':
      return `[${w.branches.map(describe).join(', ')}]`;
    case 'array':
      return `array<${describe(w.items)}>`;
    case 'map':
      return `map<${describe(w.values)}>`;
    default:
      return w.logicalType === undefined ? `'${w.kind}'` : `'${w.kind}' (${w.logicalType})`;
  }
}

/**
 * A reader of data written with the writer schema `w` that yields values of the table type `t` (the
 * reader schema `avroSchemaOf` derives), following Avro's schema resolution: fields matched by name
 * (or the writer's aliases), writer-only fields skipped, table fields the writer lacks read as their
 * default (NULL for a nullable column; a NOT NULL column has none, which fails), numeric promotions
 * int→long→float→double, string↔bytes, unions resolved branch by branch. Beyond the Avro spec, as
 * Flink's converters accept them: enums read as strings, fixed as bytes, timestamps/times in micros
 * converted to Sluice's milliseconds (every microsecond kept for TIMESTAMP(p > 3)).
 * @throws SchemaResolutionError when the schemas cannot be resolved (built once per writer schema id).
 */
export function resolvingReader(w: ParsedAvroSchema, t: LogicalType, skips: Map<ParsedAvroSchema, Skip> = new Map()): Read {
  if (w.kind === 'union') {
    let usable = 0;
    const branches = w.branches.map((b): Read => {
      try {
        const read = resolvingReader(b, t, skips);
        usable++;
        return read;
      } catch (e) {
        if (!(e instanceof SchemaResolutionError)) throw e;
        // Avro fails only when such a value is actually met: a writer may declare branches it never uses
        // (a NULL in a union read as a NOT NULL column). A fresh error each time, as callers add the path.
        const message = e.message;
        return () => {
          throw new SchemaResolutionError(message);
        };
      }
    });
    if (usable === 0) throw mismatch(w, t);
    return (r) => {
      const i = r.readInt();
      const b = branches[i];
      if (!b) throw new FieldValueError(`union branch ${i} is out of range (${branches.length} branches).`);
      return b(r);
    };
  }
  if (w.kind === 'null') {
    if (t.nullable) return () => null;
    throw mismatch(w, t);
  }
  return resolveValue(w, t, skips);
}

function resolveValue(w: Exclude<ParsedAvroSchema, { kind: 'union' | 'null' }>, t: LogicalType, skips: Map<ParsedAvroSchema, Skip>): Read {
  switch (t.kind) {
    case 'NULL':
    case 'VARIANT':
      throw mismatch(w, t);
    case 'BOOLEAN':
      if (w.kind === 'boolean') return (r) => r.readBoolean();
      throw mismatch(w, t);
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'DATE':
      if (w.kind === 'int') return (r) => r.readInt();
      throw mismatch(w, t);
    case 'TIME':
      if (w.kind === 'int') return (r) => r.readInt();
      if (w.kind === 'long' && w.logicalType === 'time-micros') return (r) => Number(r.readLong() / 1000n);
      throw mismatch(w, t);
    case 'BIGINT':
      if (w.kind === 'long') return (r) => r.readLong();
      if (w.kind === 'int') return (r) => BigInt(r.readInt());
      throw mismatch(w, t);
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      if (w.kind === 'long') {
        if (w.logicalType === 'timestamp-micros' || w.logicalType === 'local-timestamp-micros') {
          return readMicros(t.precision);
        }
        return (r) => Number(r.readLong());
      }
      throw mismatch(w, t);
    case 'FLOAT':
      if (w.kind === 'float') return (r) => r.readFloat();
      if (w.kind === 'int') return (r) => Math.fround(r.readInt());
      if (w.kind === 'long') return (r) => Math.fround(Number(r.readLong()));
      throw mismatch(w, t);
    case 'DOUBLE':
      if (w.kind === 'double') return (r) => r.readDouble();
      if (w.kind === 'float') return (r) => r.readFloat();
      if (w.kind === 'int') return (r) => r.readInt();
      if (w.kind === 'long') return (r) => Number(r.readLong());
      throw mismatch(w, t);
    case 'CHAR':
    case 'VARCHAR':
      if (w.kind === 'string') return (r) => r.readString();
      if (w.kind === 'bytes') return (r) => utf8.decode(r.readBytes());
      if (w.kind === 'enum') {
        const symbols = w.symbols;
        return (r) => {
          const i = r.readInt();
          const s = symbols[i];
          if (s === undefined) throw new FieldValueError(`enum index ${i} is out of range (${symbols.length} symbols).`);
          return s;
        };
      }
      throw mismatch(w, t);
    case 'BINARY':
    case 'VARBINARY':
      if (w.kind === 'bytes') return (r) => r.readBytes();
      if (w.kind === 'string') return (r) => utf8Encoder.encode(r.readString());
      if (w.kind === 'fixed') {
        const n = w.size;
        return (r) => r.readFixed(n);
      }
      throw mismatch(w, t);
    case 'DECIMAL': {
      const { precision, scale } = t;
      // The writer's scale says what the unscaled digits mean; toPrecision brings them to the table's.
      const ws = 'scale' in w && w.scale !== undefined ? w.scale : 0;
      if (w.kind === 'bytes' && w.logicalType === 'decimal') return (r) => Decimal.of(bytesToBigint(r.readBytes()), ws).toPrecision(precision, scale);
      if (w.kind === 'fixed' && w.logicalType === 'decimal') {
        const n = w.size;
        return (r) => Decimal.of(bytesToBigint(r.readFixed(n)), ws).toPrecision(precision, scale);
      }
      throw mismatch(w, t);
    }
    case 'ARRAY': {
      if (w.kind !== 'array') throw mismatch(w, t);
      return arrayReader(inField(() => resolvingReader(w.items, t.element, skips), '[]'));
    }
    case 'MAP':
    case 'MULTISET': {
      if (w.kind !== 'map') throw mismatch(w, t);
      const valueType: LogicalType = t.kind === 'MAP' ? t.value : { kind: 'INT', nullable: false };
      return mapReader(inField(() => resolvingReader(w.values, valueType, skips), '{}'));
    }
    case 'ROW':
      if (w.kind !== 'record') throw mismatch(w, t);
      return recordReader(w, t, skips);
    case 'INTERVAL_YEAR_MONTH':
    case 'INTERVAL_DAY_TIME':
      throw mismatch(w, t);
  }
}

type Step = { readonly target: number; readonly read: Read } | { readonly target: -1; readonly skip: Skip };

function recordReader(w: Extract<ParsedAvroSchema, { kind: 'record' }>, t: Extract<LogicalType, { kind: 'ROW' }>, skips: Map<ParsedAvroSchema, Skip>): Read {
  const matched = new Set<number>();
  const steps: Step[] = w.fields.map((wf): Step => {
    const i = t.fields.findIndex((tf) => tf.name === wf.name || wf.aliases.includes(tf.name));
    if (i < 0 || matched.has(i)) return { target: -1, skip: avroSkipper(wf.type, skips) };
    matched.add(i);
    const tf = t.fields[i]!;
    return { target: i, read: inField(() => resolvingReader(wf.type, tf.type, skips), tf.name) };
  });
  for (let i = 0; i < t.fields.length; i++) {
    const tf = t.fields[i]!;
    if (!matched.has(i) && !tf.type.nullable) {
      throw withField(
        new SchemaResolutionError(`the writer's record '${w.name}' has no field '${tf.name}', and the NOT NULL column has no default.`),
        tf.name,
      );
    }
  }
  const width = t.fields.length;
  return (r: AvroReader) => {
    // Table columns the writer lacks keep their default: NULL.
    const out = new Array<unknown>(width).fill(null);
    for (const s of steps) {
      if (s.target < 0) (s as { skip: Skip }).skip(r);
      else {
        try {
          out[s.target] = (s as { read: Read }).read(r);
        } catch (e) {
          throw withField(e, t.fields[s.target]!.name);
        }
      }
    }
    return out;
  };
}

function inField(build: () => Read, field: string): Read {
  try {
    return build();
  } catch (e) {
    throw withField(e, field);
  }
}
