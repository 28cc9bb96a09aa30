import type { DataType, IntervalQualifier, RowField, TimeUnit } from '../ast/data-types.js';
import type { SourcePosition } from '../position.js';
import { ParserBase } from './parser-base.js';

/** The interval ranges SQL has (`start TO end`), by start unit. */
const INTERVAL_RANGES: Partial<Record<TimeUnit, readonly TimeUnit[]>> = {
  YEAR: ['MONTH'],
  DAY: ['HOUR', 'MINUTE', 'SECOND'],
  HOUR: ['MINUTE', 'SECOND'],
  MINUTE: ['SECOND'],
};

const TIME_UNITS: ReadonlySet<string> = new Set([
  'MILLENNIUM', 'CENTURY', 'DECADE', 'YEAR', 'QUARTER', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND',
  'MILLISECOND', 'MICROSECOND', 'NANOSECOND', 'DOW', 'DOY', 'ISODOW', 'ISOYEAR', 'EPOCH',
]);

/** Plural spellings Flink accepts (`INTERVAL '10' MINUTES`) map to the singular unit. */
export function timeUnitOf(word: string): TimeUnit | null {
  const u = word.toUpperCase();
  if (TIME_UNITS.has(u)) return u as TimeUnit;
  if (u.endsWith('S') && TIME_UNITS.has(u.slice(0, -1))) return u.slice(0, -1) as TimeUnit;
  return null;
}

const SIMPLE_TYPES: Readonly<Record<string, 'BOOLEAN' | 'TINYINT' | 'SMALLINT' | 'INT' | 'BIGINT' | 'FLOAT' | 'DOUBLE' | 'DATE' | 'VARIANT' | 'STRING' | 'BYTES'>> = {
  BOOLEAN: 'BOOLEAN',
  TINYINT: 'TINYINT',
  SMALLINT: 'SMALLINT',
  INT: 'INT',
  INTEGER: 'INT',
  BIGINT: 'BIGINT',
  FLOAT: 'FLOAT',
  REAL: 'FLOAT',
  DOUBLE: 'DOUBLE',
  DATE: 'DATE',
  VARIANT: 'VARIANT',
  STRING: 'STRING',
  BYTES: 'BYTES',
};

/** Parses Flink data types and interval qualifiers. */
export abstract class TypeParser extends ParserBase {
  /** A time unit word (plural allowed); records `<TIME UNIT>` as expected. */
  protected isTimeUnit(ahead = 0): boolean {
    if (ahead === 0) this.record('<TIME UNIT>');
    const t = this.peek(ahead);
    return t.type === 'word' && timeUnitOf(t.value) !== null;
  }

  protected parseTimeUnit(): TimeUnit {
    if (!this.isTimeUnit()) throw this.unexpected();
    return timeUnitOf(this.next().value)!;
  }

  /** `unit [(p [, f])] [TO unit [(f)]]` */
  protected parseIntervalQualifier(): IntervalQualifier {
    const start = this.parseTimeUnit();
    let startPrecision: number | null = null;
    let fractionalPrecision: number | null = null;
    if (this.acceptSymbol('(')) {
      startPrecision = this.parseUnsignedInteger();
      if (start === 'SECOND' && this.acceptSymbol(',')) fractionalPrecision = this.parseUnsignedInteger();
      this.expectSymbol(')');
    }
    let end: TimeUnit | null = null;
    // Only the pairs of Calcite's grammar form a range: in `CEIL(ts - INTERVAL '1' HOUR TO DAY)` the `TO DAY` is
    // CEIL's, as in Flink (a range HOUR TO DAY does not exist).
    const next = this.peek(1);
    const endUnit = next.type === 'word' ? timeUnitOf(next.value) : null;
    if (this.peek().type === 'word' && this.peek().value.toUpperCase() === 'TO' && endUnit !== null && INTERVAL_RANGES[start]?.includes(endUnit)) {
      this.next();
      end = this.parseTimeUnit();
      if (end === 'SECOND' && this.acceptSymbol('(')) {
        fractionalPrecision = this.parseUnsignedInteger();
        this.expectSymbol(')');
      }
    }
    return { start, startPrecision, end, fractionalPrecision };
  }

  private parseOptionalLength(): number | null {
    if (!this.acceptSymbol('(')) return null;
    const n = this.parseUnsignedInteger();
    this.expectSymbol(')');
    return n;
  }

  /** A data type with its postfix ARRAY / MULTISET and trailing NOT NULL / NULL. */
  parseDataType(): DataType {
    let type = this.parseBaseType();
    for (;;) {
      const pos = this.pos;
      if (this.acceptKeywords('ARRAY')) type = { kind: 'array', element: type, notNull: false, pos };
      else if (this.acceptKeywords('MULTISET')) type = { kind: 'multiset', element: type, notNull: false, pos };
      else break;
    }
    if (this.isKeyword('NOT') && this.isKeywordAt(1, 'NULL')) {
      this.i += 2;
      return { ...type, notNull: true };
    }
    // `NULL ON EMPTY` of JSON_VALUE(... RETURNING INT NULL ON EMPTY) is not a nullability.
    if (this.isKeyword('NULL') && !this.isKeywordAt(1, 'ON')) {
      this.next();
      return { ...type, notNull: false };
    }
    return type;
  }

  private parseBaseType(): DataType {
    const pos = this.pos;
    this.record('<DATA TYPE>');
    const t = this.peek();
    if (t.type === 'quoted-ident') {
      const name = this.parseObjectName();
      return { kind: 'user-defined', names: name.parts, notNull: false, pos };
    }
    if (t.type !== 'word') throw this.unexpected();
    const word = t.upper;
    const simple = SIMPLE_TYPES[word];
    if (simple !== undefined) {
      this.next();
      if (simple === 'DOUBLE') this.acceptKeywords('PRECISION');
      return { kind: 'simple', name: simple, notNull: false, pos };
    }
    switch (word) {
      case 'CHAR':
      case 'CHARACTER': {
        this.next();
        const varying = this.acceptKeywords('VARYING');
        return { kind: 'char', name: varying ? 'VARCHAR' : 'CHAR', length: this.parseOptionalLength(), notNull: false, pos };
      }
      case 'VARCHAR':
        this.next();
        return { kind: 'char', name: 'VARCHAR', length: this.parseOptionalLength(), notNull: false, pos };
      case 'BINARY': {
        this.next();
        const varying = this.acceptKeywords('VARYING');
        return { kind: 'binary', name: varying ? 'VARBINARY' : 'BINARY', length: this.parseOptionalLength(), notNull: false, pos };
      }
      case 'VARBINARY':
        this.next();
        return { kind: 'binary', name: 'VARBINARY', length: this.parseOptionalLength(), notNull: false, pos };
      case 'DECIMAL':
      case 'DEC':
      case 'NUMERIC': {
        this.next();
        let precision: number | null = null;
        let scale: number | null = null;
        if (this.acceptSymbol('(')) {
          precision = this.parseUnsignedInteger();
          if (this.acceptSymbol(',')) scale = this.parseUnsignedInteger();
          this.expectSymbol(')');
        }
        return { kind: 'decimal', precision, scale, notNull: false, pos };
      }
      case 'TIME': {
        this.next();
        const precision = this.parseOptionalLength();
        this.acceptKeywords('WITHOUT', 'TIME', 'ZONE');
        return { kind: 'time', precision, notNull: false, pos };
      }
      case 'TIMESTAMP': {
        this.next();
        const precision = this.parseOptionalLength();
        if (this.acceptKeywords('WITH', 'LOCAL', 'TIME', 'ZONE')) {
          return { kind: 'timestamp', precision, withLocalTimeZone: true, notNull: false, pos };
        }
        this.acceptKeywords('WITHOUT', 'TIME', 'ZONE');
        return { kind: 'timestamp', precision, withLocalTimeZone: false, notNull: false, pos };
      }
      case 'TIMESTAMP_LTZ':
        this.next();
        return { kind: 'timestamp', precision: this.parseOptionalLength(), withLocalTimeZone: true, notNull: false, pos };
      case 'INTERVAL':
        this.next();
        return { kind: 'interval', qualifier: this.parseIntervalQualifier(), notNull: false, pos };
      case 'ARRAY':
      case 'MULTISET': {
        this.next();
        this.expectSymbol('<');
        const element = this.parseDataType();
        this.expectSymbol('>');
        return word === 'ARRAY' ? { kind: 'array', element, notNull: false, pos } : { kind: 'multiset', element, notNull: false, pos };
      }
      case 'MAP': {
        this.next();
        this.expectSymbol('<');
        const key = this.parseDataType();
        this.expectSymbol(',');
        const value = this.parseDataType();
        this.expectSymbol('>');
        return { kind: 'map', key, value, notNull: false, pos };
      }
      case 'ROW':
        this.next();
        return this.parseRowType(pos);
      case 'RAW': {
        this.next();
        this.expectSymbol('(');
        const className = this.parseString();
        const serializerSnapshot = this.acceptSymbol(',') ? this.parseString() : null;
        this.expectSymbol(')');
        return { kind: 'raw', className, serializerSnapshot, notNull: false, pos };
      }
      default: {
        const name = this.parseObjectName();
        return { kind: 'user-defined', names: name.parts, notNull: false, pos };
      }
    }
  }

  private parseRowType(pos: SourcePosition): DataType {
    if (this.acceptSymbol('<>')) return { kind: 'row', fields: [], notNull: false, pos };
    const close = this.isSymbol('(') ? ')' : '>';
    if (close === '>') this.expectSymbol('<');
    else this.next();
    const fields: RowField[] = [];
    if (!this.acceptSymbol(close)) {
      do {
        const fpos = this.pos;
        const name = this.parseNamePart();
        const type = this.parseDataType();
        const description = this.peek().type === 'string' ? this.next().value : null;
        fields.push({ name, type, description, pos: fpos });
      } while (this.acceptSymbol(','));
      this.expectSymbol(close);
    }
    return { kind: 'row', fields, notNull: false, pos };
  }
}
