import type { DayTimeResolution, LogicalType, YearMonthResolution } from '../types/logical-type.js';
import { MAX_LENGTH } from '../types/logical-type.js';

/** A column type as the SQL Gateway's REST API serializes it (Flink's LogicalTypeJsonSerializer). */
export interface FlinkTypeJson {
  readonly type: string;
  readonly nullable?: boolean;
  readonly length?: number;
  readonly precision?: number;
  readonly scale?: number;
  readonly resolution?: string;
  readonly fractionalPrecision?: number;
  readonly elementType?: FlinkTypeJson;
  readonly keyType?: FlinkTypeJson;
  readonly valueType?: FlinkTypeJson;
  readonly fields?: readonly { readonly name: string; readonly fieldType: FlinkTypeJson; readonly description?: string }[];
}

const DAY_TIME: Readonly<Record<string, DayTimeResolution>> = {
  DAY: 'DAY',
  DAY_TO_HOUR: 'DAY_TO_HOUR',
  DAY_TO_MINUTE: 'DAY_TO_MINUTE',
  DAY_TO_SECOND: 'DAY_TO_SECOND',
  HOUR: 'HOUR',
  HOUR_TO_MINUTE: 'HOUR_TO_MINUTE',
  HOUR_TO_SECOND: 'HOUR_TO_SECOND',
  MINUTE: 'MINUTE',
  MINUTE_TO_SECOND: 'MINUTE_TO_SECOND',
  SECOND: 'SECOND',
};

/**
 * Sluice's type for a column of a gateway result, so the result printers format cluster rows as they
 * format local ones. A type Sluice has no counterpart for (RAW, structured, ...) becomes STRING: its
 * JSON text is shown.
 */
export function fromFlinkType(t: FlinkTypeJson): LogicalType {
  const nullable = t.nullable !== false;
  switch (t.type) {
    case 'BOOLEAN':
    case 'TINYINT':
    case 'SMALLINT':
    case 'BIGINT':
    case 'FLOAT':
    case 'DOUBLE':
    case 'DATE':
    case 'NULL':
      return { kind: t.type, nullable };
    case 'INTEGER':
      return { kind: 'INT', nullable };
    case 'DECIMAL':
      return { kind: 'DECIMAL', precision: t.precision ?? 10, scale: t.scale ?? 0, nullable };
    case 'CHAR':
    case 'VARCHAR':
    case 'BINARY':
    case 'VARBINARY':
      return { kind: t.type, length: t.length ?? MAX_LENGTH, nullable };
    case 'TIME_WITHOUT_TIME_ZONE':
      return { kind: 'TIME', precision: t.precision ?? 0, nullable };
    case 'TIMESTAMP_WITHOUT_TIME_ZONE':
      return { kind: 'TIMESTAMP', precision: t.precision ?? 6, nullable };
    case 'TIMESTAMP_WITH_LOCAL_TIME_ZONE':
      return { kind: 'TIMESTAMP_LTZ', precision: t.precision ?? 6, nullable };
    case 'INTERVAL_YEAR_MONTH':
      return { kind: 'INTERVAL_YEAR_MONTH', resolution: (t.resolution as YearMonthResolution | undefined) ?? 'YEAR_TO_MONTH', yearPrecision: t.precision ?? 2, nullable };
    case 'INTERVAL_DAY_TIME':
      return {
        kind: 'INTERVAL_DAY_TIME',
        resolution: DAY_TIME[t.resolution ?? ''] ?? 'DAY_TO_SECOND',
        dayPrecision: t.precision ?? 2,
        fractionalPrecision: t.fractionalPrecision ?? 6,
        nullable,
      };
    case 'ARRAY':
    case 'MULTISET':
      return { kind: t.type, element: fromFlinkType(t.elementType ?? { type: 'VARCHAR' }), nullable };
    case 'MAP':
      return { kind: 'MAP', key: fromFlinkType(t.keyType ?? { type: 'VARCHAR' }), value: fromFlinkType(t.valueType ?? { type: 'VARCHAR' }), nullable };
    case 'ROW':
      return { kind: 'ROW', fields: (t.fields ?? []).map((f) => ({ name: f.name, type: fromFlinkType(f.fieldType) })), nullable };
    default:
      return { kind: 'VARCHAR', length: MAX_LENGTH, nullable };
  }
}
