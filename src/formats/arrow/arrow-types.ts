import { ValidationError } from '../../errors/sluice-error.js';
import * as A from 'apache-arrow';
import { assertNever } from '../../types/logical-type.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';

/**
 * The Arrow type Sluice writes for a logical type (Flink's ArrowUtils where it has one):
 * BIGINT -> Int64, DECIMAL(p, s) -> Decimal128(p, s), DATE -> Date32 (days), TIME -> Time32[ms],
 * TIMESTAMP(p<=3) -> Timestamp[ms], TIMESTAMP(4..6) -> Timestamp[us], TIMESTAMP(7..9) -> Timestamp[ns] (every
 * digit kept, nested ones too: arrow-nested-timestamps.ts), TIMESTAMP_LTZ -> the same with time zone UTC, INTERVAL YEAR TO MONTH -> Int32 months, INTERVAL DAY TO SECOND -> Duration[ms],
 * ARRAY -> List, MAP -> Map, MULTISET -> Map<element, Int32>, ROW -> Struct.
 */
export function toArrowType(t: LogicalType): A.DataType {
  switch (t.kind) {
    case 'NULL':
      return new A.Null();
    case 'BOOLEAN':
      return new A.Bool();
    case 'TINYINT':
      return new A.Int8();
    case 'SMALLINT':
      return new A.Int16();
    case 'INT':
    case 'INTERVAL_YEAR_MONTH':
      return new A.Int32();
    case 'BIGINT':
      return new A.Int64();
    case 'FLOAT':
      return new A.Float32();
    case 'DOUBLE':
      return new A.Float64();
    case 'DECIMAL':
      return new A.Decimal(t.scale, t.precision, 128);
    case 'CHAR':
    case 'VARCHAR':
      return new A.Utf8();
    case 'BINARY':
    case 'VARBINARY':
      return new A.Binary();
    case 'DATE':
      return new A.DateDay();
    case 'TIME':
      return new A.TimeMillisecond();
    case 'TIMESTAMP':
      return t.precision <= 3 ? new A.TimestampMillisecond() : t.precision <= 6 ? new A.TimestampMicrosecond() : new A.TimestampNanosecond();
    case 'TIMESTAMP_LTZ':
      return t.precision <= 3 ? new A.TimestampMillisecond('UTC') : t.precision <= 6 ? new A.TimestampMicrosecond('UTC') : new A.TimestampNanosecond('UTC');
    case 'INTERVAL_DAY_TIME':
      return new A.DurationMillisecond();
    case 'ARRAY':
      return new A.List(new A.Field('element', toArrowType(t.element), true));
    case 'MULTISET':
      return mapType(t.element, { kind: 'INT', nullable: false });
    case 'MAP':
      return mapType(t.key, t.value);
    case 'ROW':
      return new A.Struct(arrowFields(t));
    case 'VARIANT':
      throw new ValidationError('The Arrow format does not support the VARIANT type yet.');
    default:
      return assertNever(t, 'logical type');
  }
}

function mapType(key: LogicalType, value: LogicalType): A.DataType {
  const entries = new A.Struct([new A.Field('key', toArrowType(key), false), new A.Field('value', toArrowType(value), true)]);
  return new A.Map_(new A.Field('entries', entries, false));
}

export function arrowFields(rowType: RowType): A.Field[] {
  return rowType.fields.map((f) => new A.Field(f.name, toArrowType(f.type), f.type.nullable));
}

export function toArrowSchema(rowType: RowType): A.Schema {
  return new A.Schema(arrowFields(rowType));
}
