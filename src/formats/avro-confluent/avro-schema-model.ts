import { FieldValueError } from '../format-error.js';
import type { AvroReader } from '../avro/avro-binary.js';

type Primitive = 'null' | 'boolean' | 'int' | 'long' | 'float' | 'double' | 'bytes' | 'string';
const PRIMITIVES: ReadonlySet<string> = new Set<Primitive>(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);

/** Logical-type annotations that change how a value is read (decimal scale, time units). */
export interface LogicalAnnotation {
  readonly logicalType?: string;
  readonly precision?: number;
  readonly scale?: number;
}

export interface AvroField {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly type: ParsedAvroSchema;
}

/**
 * An Avro schema as a tree, named types resolved to their definitions (a recursive record refers to
 * itself, so the tree may be cyclic). Built from a writer schema a registry returned.
 */
export type ParsedAvroSchema =
  | ({ readonly kind: Primitive } & LogicalAnnotation)
  | ({ readonly kind: 'fixed'; readonly name: string; readonly size: number } & LogicalAnnotation)
  | { readonly kind: 'enum'; readonly name: string; readonly symbols: readonly string[] }
  | { readonly kind: 'array'; readonly items: ParsedAvroSchema }
  | { readonly kind: 'map'; readonly values: ParsedAvroSchema }
  | { readonly kind: 'record'; readonly name: string; readonly fields: AvroField[] }
  | { readonly kind: 'union'; readonly branches: readonly ParsedAvroSchema[] };

/** Thrown for schema text that is not a valid Avro schema. */
export class AvroSchemaParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AvroSchemaParseError';
  }
}

/** Parses Avro schema JSON text (Avro's `Schema.Parser`), resolving named-type references and namespaces. */
export function parseAvroSchema(text: string): ParsedAvroSchema {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new AvroSchemaParseError(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return parseNode(json, '', new Map());
}

function fullName(name: string, namespace: string | undefined, enclosing: string): string {
  if (name.includes('.')) return name;
  const ns = namespace ?? enclosing;
  return ns === '' ? name : `${ns}.${name}`;
}

function annotation(o: Record<string, unknown>): LogicalAnnotation {
  return {
    ...(typeof o['logicalType'] === 'string' ? { logicalType: o['logicalType'] } : {}),
    ...(typeof o['precision'] === 'number' ? { precision: o['precision'] } : {}),
    ...(typeof o['scale'] === 'number' ? { scale: o['scale'] } : {}),
  };
}

function parseNode(node: unknown, ns: string, named: Map<string, ParsedAvroSchema>): ParsedAvroSchema {
  if (typeof node === 'string') {
    if (PRIMITIVES.has(node)) return { kind: node as Primitive };
    const found = named.get(fullName(node, undefined, ns)) ?? named.get(node);
    if (!found) throw new AvroSchemaParseError(`unknown type '${node}'.`);
    return found;
  }
  if (Array.isArray(node)) return { kind: 'union', branches: node.map((b) => parseNode(b, ns, named)) };
  if (node === null || typeof node !== 'object') throw new AvroSchemaParseError(`not a schema: ${JSON.stringify(node)}.`);
  const o = node as Record<string, unknown>;
  const type = o['type'];
  if (typeof type !== 'string') return parseNode(type, ns, named);
  const nameOf = (): { name: string; inner: string } => {
    if (typeof o['name'] !== 'string') throw new AvroSchemaParseError(`a ${type} needs a name.`);
    const name = fullName(o['name'], typeof o['namespace'] === 'string' ? o['namespace'] : undefined, ns);
    return { name, inner: name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : '' };
  };
  switch (type) {
    case 'record':
    case 'error': {
      const { name, inner } = nameOf();
      const fields: AvroField[] = [];
      const rec: ParsedAvroSchema = { kind: 'record', name, fields };
      // Registered before its fields so a field can refer to the record itself.
      named.set(name, rec);
      if (!Array.isArray(o['fields'])) throw new AvroSchemaParseError(`record '${name}' has no fields array.`);
      for (const f of o['fields'] as unknown[]) {
        const fo = f as Record<string, unknown>;
        if (typeof fo['name'] !== 'string') throw new AvroSchemaParseError(`a field of record '${name}' has no name.`);
        const aliases = Array.isArray(fo['aliases']) ? (fo['aliases'] as unknown[]).filter((a): a is string => typeof a === 'string') : [];
        fields.push({ name: fo['name'], aliases, type: parseNode(fo['type'], inner, named) });
      }
      return rec;
    }
    case 'enum': {
      const { name } = nameOf();
      const symbols = Array.isArray(o['symbols']) ? (o['symbols'] as unknown[]).map(String) : [];
      const e: ParsedAvroSchema = { kind: 'enum', name, symbols };
      named.set(name, e);
      return e;
    }
    case 'fixed': {
      const { name } = nameOf();
      if (typeof o['size'] !== 'number') throw new AvroSchemaParseError(`fixed '${name}' has no size.`);
      const f: ParsedAvroSchema = { kind: 'fixed', name, size: o['size'], ...annotation(o) };
      named.set(name, f);
      return f;
    }
    case 'array':
      return { kind: 'array', items: parseNode(o['items'], ns, named) };
    case 'map':
      return { kind: 'map', values: parseNode(o['values'], ns, named) };
    default:
      if (PRIMITIVES.has(type)) return { kind: type as Primitive, ...annotation(o) };
      return parseNode(type, ns, named);
  }
}

/**
 * The binary layout of a schema, ignoring everything that does not change the bytes (names, docs,
 * defaults, aliases): two schemas with the same layout read and write each other's data unchanged.
 */
export function avroLayout(s: ParsedAvroSchema, seen: Set<ParsedAvroSchema> = new Set()): string {
  switch (s.kind) {
    case 'fixed':
      return `fixed(${s.size})`;
    case 'enum':
      return `enum(${s.symbols.length})`;
    case 'array':
      return `array(${avroLayout(s.items, seen)})`;
    case 'map':
      return `map(${avroLayout(s.values, seen)})`;
    case 'union':
      return `union(${s.branches.map((b) => avroLayout(b, seen)).join(',')})`;
    case 'record': {
      if (seen.has(s)) return `ref(${s.name})`;
      seen.add(s);
      const out = `record(${s.fields.map((f) => avroLayout(f.type, seen)).join(',')})`;
      seen.delete(s);
      return out;
    }
    default: {
      // Time units and decimal scales change what the bytes mean, so they are part of the layout.
      const { logicalType, scale } = s;
      return logicalType === undefined ? s.kind : `${s.kind}:${logicalType}${scale === undefined ? '' : `/${scale}`}`;
    }
  }
}

export type Skip = (r: AvroReader) => void;

/** A function that reads past one value written with `s` (a writer field the table does not have). */
export function avroSkipper(s: ParsedAvroSchema, memo: Map<ParsedAvroSchema, Skip> = new Map()): Skip {
  const known = memo.get(s);
  if (known) return known;
  let impl: Skip = () => undefined;
  // Registered before it is built, so a recursive record's skipper calls itself.
  const skip: Skip = (r) => impl(r);
  memo.set(s, skip);
  impl = buildSkipper(s, memo);
  return skip;
}

function buildSkipper(s: ParsedAvroSchema, memo: Map<ParsedAvroSchema, Skip>): Skip {
  switch (s.kind) {
    case 'null':
      return () => undefined;
    case 'boolean':
      return (r) => void r.readBoolean();
    case 'int':
    case 'long':
    case 'enum':
      return (r) => void r.readLong();
    case 'float':
      return (r) => void r.readFixed(4);
    case 'double':
      return (r) => void r.readFixed(8);
    case 'bytes':
    case 'string':
      return (r) => void r.readBytes();
    case 'fixed': {
      const n = s.size;
      return (r) => void r.readFixed(n);
    }
    case 'array': {
      const item = avroSkipper(s.items, memo);
      return (r) => {
        for (let n = r.readBlockCount(); n > 0; n = r.readBlockCount()) for (let i = 0; i < n; i++) item(r);
      };
    }
    case 'map': {
      const value = avroSkipper(s.values, memo);
      return (r) => {
        for (let n = r.readBlockCount(); n > 0; n = r.readBlockCount()) {
          for (let i = 0; i < n; i++) {
            r.readBytes();
            value(r);
          }
        }
      };
    }
    case 'record': {
      const fields = s.fields.map((f) => avroSkipper(f.type, memo));
      return (r) => {
        for (const f of fields) f(r);
      };
    }
    case 'union': {
      const branches = s.branches.map((b) => avroSkipper(b, memo));
      return (r) => {
        const i = r.readInt();
        const b = branches[i];
        if (!b) throw new FieldValueError(`union branch ${i} is out of range (${branches.length} branches).`);
        b(r);
      };
    }
  }
}
