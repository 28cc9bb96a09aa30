import type { LogicalType } from './logical-type.js';
import { quoteIdentifier, quoteString, typeToString } from './type-to-string.js';

/** A column stored by the source / written by the sink. */
export interface PhysicalColumn {
  readonly kind: 'physical';
  readonly name: string;
  readonly type: LogicalType;
  readonly comment?: string;
}

/** `name AS expression`: computed from other columns at read time, never written. */
export interface ComputedColumn {
  readonly kind: 'computed';
  readonly name: string;
  /** The type of the expression, as resolved by the planner. */
  readonly type: LogicalType;
  /** The expression as SQL text, as written in the DDL. */
  readonly expression: string;
  readonly comment?: string;
}

/** `name TYPE METADATA [FROM 'key'] [VIRTUAL]`: a value the connector or format exposes (Kafka offset, ...). */
export interface MetadataColumn {
  readonly kind: 'metadata';
  readonly name: string;
  readonly type: LogicalType;
  /** The connector's metadata key when it differs from the column name. */
  readonly metadataKey?: string;
  /** VIRTUAL columns are read-only: excluded when writing to a sink. */
  readonly virtual: boolean;
  readonly comment?: string;
}

export type Column = PhysicalColumn | ComputedColumn | MetadataColumn;

/** `WATERMARK FOR rowtimeAttribute AS expression`. */
export interface WatermarkSpec {
  readonly rowtimeAttribute: string;
  /** The watermark strategy as SQL text, e.g. `ts - INTERVAL '5' SECOND`. */
  readonly expression: string;
}

/** A primary key; always NOT ENFORCED, as Flink. */
export interface UniqueConstraint {
  readonly name: string;
  readonly columns: readonly string[];
}

export const Columns = {
  physical(name: string, type: LogicalType, comment?: string): PhysicalColumn {
    return comment === undefined ? { kind: 'physical', name, type } : { kind: 'physical', name, type, comment };
  },
  computed(name: string, type: LogicalType, expression: string, comment?: string): ComputedColumn {
    return comment === undefined
      ? { kind: 'computed', name, type, expression }
      : { kind: 'computed', name, type, expression, comment };
  },
  metadata(name: string, type: LogicalType, metadataKey?: string, virtual = false, comment?: string): MetadataColumn {
    const base: MetadataColumn = metadataKey === undefined
      ? { kind: 'metadata', name, type, virtual }
      : { kind: 'metadata', name, type, metadataKey, virtual };
    return comment === undefined ? base : { ...base, comment };
  },
} as const;

/** True for columns a sink writes: physical and non-virtual metadata columns. */
export function isPersisted(c: Column): boolean {
  return c.kind === 'physical' || (c.kind === 'metadata' && !c.virtual);
}

/** Flink's `Column.toString()`: `` `a` INT``, `` `b` INT AS a + 1``, `` `o` BIGINT METADATA FROM 'offset' VIRTUAL``. */
export function columnToString(c: Column): string {
  let s = `${quoteIdentifier(c.name)} ${typeToString(c.type)}`;
  switch (c.kind) {
    case 'physical':
      break;
    case 'computed':
      s += ` AS ${c.expression}`;
      break;
    case 'metadata':
      s += ' METADATA';
      if (c.metadataKey !== undefined) s += ` FROM ${quoteString(c.metadataKey)}`;
      if (c.virtual) s += ' VIRTUAL';
      break;
    default: {
      const never: never = c;
      return never;
    }
  }
  return c.comment === undefined ? s : `${s} COMMENT ${quoteString(c.comment)}`;
}

/** The default name Flink gives an unnamed primary key: `PK_a_b`. */
export function defaultPrimaryKeyName(columns: readonly string[]): string {
  return `PK_${columns.join('_')}`;
}
