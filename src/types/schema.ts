import { ValidationError } from '../errors/sluice-error.js';
import { isPersisted } from './column.js';
import type { Column, UniqueConstraint, WatermarkSpec } from './column.js';
import { columnToString, defaultPrimaryKeyName } from './column.js';
import { withNullability, withoutTimeAttribute } from './logical-type.js';
import type { LogicalType, RowField, RowType } from './logical-type.js';
import { quoteIdentifier, typeToString } from './type-to-string.js';

export type { Column, ComputedColumn, MetadataColumn, PhysicalColumn, UniqueConstraint, WatermarkSpec } from './column.js';
export { Columns, columnToString, defaultPrimaryKeyName, isPersisted } from './column.js';

/**
 * A table schema with every column type known: Flink's `ResolvedSchema`. Immutable.
 *
 * `ResolvedSchema.of` validates and normalizes as Flink does: column names are unique, the watermark's
 * rowtime column exists and is a TIMESTAMP(p) / TIMESTAMP_LTZ(p) with p <= 3 and gets marked
 * `*ROWTIME*`, primary key columns exist, are physical, are not repeated, and become NOT NULL.
 *
 * @example
 * const s = ResolvedSchema.of(
 *   [Columns.physical('id', DataTypes.BIGINT()), Columns.physical('ts', DataTypes.TIMESTAMP(3))],
 *   [{ rowtimeAttribute: 'ts', expression: "ts - INTERVAL '5' SECOND" }],
 *   { name: 'PK_id', columns: ['id'] },
 * );
 * typeToString(s.findColumn('ts')!.type); // 'TIMESTAMP(3) *ROWTIME*'
 */
export class ResolvedSchema {
  private readonly indexByName: ReadonlyMap<string, number>;

  private constructor(
    readonly columns: readonly Column[],
    readonly watermarkSpecs: readonly WatermarkSpec[],
    readonly primaryKey: UniqueConstraint | undefined,
  ) {
    this.indexByName = new Map(columns.map((c, i) => [c.name, i]));
  }

  /** Validate and normalize; see the class comment. @throws ValidationError naming the column and rule. */
  static of(columns: readonly Column[], watermarkSpecs: readonly WatermarkSpec[] = [], primaryKey?: UniqueConstraint): ResolvedSchema {
    const names = new Map<string, number>();
    columns.forEach((c, i) => {
      if (names.has(c.name)) throw new ValidationError(`Schema must not contain duplicate column names; '${c.name}' appears twice.`);
      names.set(c.name, i);
    });
    const out = [...columns];
    if (watermarkSpecs.length > 1) throw new ValidationError('Multiple watermark definitions are not supported yet.');
    for (const w of watermarkSpecs) {
      const i = names.get(w.rowtimeAttribute);
      if (i === undefined) {
        throw new ValidationError(
          `Invalid column name '${w.rowtimeAttribute}' for rowtime attribute in watermark declaration. Available columns are: [${[...names.keys()].join(', ')}]`,
        );
      }
      const c = out[i]!;
      if ((c.type.kind !== 'TIMESTAMP' && c.type.kind !== 'TIMESTAMP_LTZ') || c.type.precision > 3) {
        throw new ValidationError(
          `Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the time field type is ${typeToString(c.type)}`,
        );
      }
      out[i] = { ...c, type: { ...c.type, timeAttribute: 'ROWTIME' } };
    }
    if (primaryKey !== undefined) {
      const seen = new Set<string>();
      for (const name of primaryKey.columns) {
        const i = names.get(name);
        if (i === undefined) {
          throw new ValidationError(`Invalid primary key '${primaryKey.name}'. Column '${name}' does not exist.`);
        }
        const c = out[i]!;
        if (c.kind !== 'physical') {
          throw new ValidationError(`Invalid primary key '${primaryKey.name}'. Column '${name}' is not a physical column.`);
        }
        if (seen.has(name)) throw new ValidationError(`Invalid primary key '${primaryKey.name}'. A primary key must not contain duplicate columns. Found: [${name}]`);
        seen.add(name);
        out[i] = { ...c, type: withNullability(c.type, false) };
      }
    }
    return new ResolvedSchema(out, watermarkSpecs, primaryKey);
  }

  /** A schema of physical columns only, from a ROW type (e.g. a query's result). */
  static fromRowType(rowType: RowType): ResolvedSchema {
    return ResolvedSchema.of(
      rowType.fields.map((f) =>
        f.description === undefined
          ? { kind: 'physical', name: f.name, type: f.type }
          : { kind: 'physical', name: f.name, type: f.type, comment: f.description },
      ),
    );
  }

  /** Primary key with Flink's default name `PK_<cols>`. */
  static primaryKey(columns: readonly string[], name = defaultPrimaryKeyName(columns)): UniqueConstraint {
    return { name, columns };
  }

  get columnCount(): number {
    return this.columns.length;
  }

  columnNames(): string[] {
    return this.columns.map((c) => c.name);
  }

  columnTypes(): LogicalType[] {
    return this.columns.map((c) => c.type);
  }

  findColumn(name: string): Column | undefined {
    const i = this.indexByName.get(name);
    return i === undefined ? undefined : this.columns[i];
  }

  /** Index of the column among all columns, or -1. */
  findColumnIndex(name: string): number {
    return this.indexByName.get(name) ?? -1;
  }

  physicalColumns(): Column[] {
    return this.columns.filter((c) => c.kind === 'physical');
  }

  /** Physical and non-virtual metadata columns: what a sink receives. */
  persistedColumns(): Column[] {
    return this.columns.filter(isPersisted);
  }

  /** Physical and metadata columns in declaration order: what a source produces before computed columns. */
  sourceColumns(): Column[] {
    return this.columns.filter((c) => c.kind !== 'computed');
  }

  /** ROW of the physical columns: Flink's `toPhysicalRowDataType()`, what formats (de)serialize. */
  toPhysicalRowType(): RowType {
    return rowTypeOf(this.physicalColumns());
  }

  /** ROW of all columns, as a query over the table sees them. */
  toRowType(): RowType {
    return rowTypeOf(this.columns);
  }

  /** ROW of the persisted columns: what a sink is given. */
  toSinkRowType(): RowType {
    return rowTypeOf(this.persistedColumns());
  }

  /** Name of the rowtime column of the watermark, if any. */
  rowtimeAttribute(): string | undefined {
    return this.watermarkSpecs[0]?.rowtimeAttribute;
  }

  /** Indexes of the primary key columns among all columns; empty without a key. */
  primaryKeyIndexes(): number[] {
    return (this.primaryKey?.columns ?? []).map((n) => this.indexByName.get(n)!);
  }

  /** Indexes of the primary key columns among the physical columns (Flink's factory-context indexes). */
  physicalPrimaryKeyIndexes(): number[] {
    const physical = this.physicalColumns().map((c) => c.name);
    return (this.primaryKey?.columns ?? []).map((n) => physical.indexOf(n));
  }

  /**
   * Flink's `ResolvedSchema.toString()`:
   * ```
   * (
   *   `id` BIGINT NOT NULL,
   *   `ts` TIMESTAMP(3) *ROWTIME*,
   *   WATERMARK FOR `ts`: TIMESTAMP(3) AS ts - INTERVAL '5' SECOND,
   *   CONSTRAINT `PK_id` PRIMARY KEY (`id`) NOT ENFORCED
   * )
   * ```
   */
  toString(): string {
    const parts = this.columns.map(columnToString);
    for (const w of this.watermarkSpecs) {
      const t = this.findColumn(w.rowtimeAttribute)!.type;
      parts.push(`WATERMARK FOR ${quoteIdentifier(w.rowtimeAttribute)}: ${typeToString(withoutTimeAttribute(t))} AS ${w.expression}`);
    }
    if (this.primaryKey !== undefined) {
      parts.push(
        `CONSTRAINT ${quoteIdentifier(this.primaryKey.name)} PRIMARY KEY (${this.primaryKey.columns.map(quoteIdentifier).join(', ')}) NOT ENFORCED`,
      );
    }
    return parts.length === 0 ? '(\n)' : `(\n  ${parts.join(',\n  ')}\n)`;
  }
}

function rowTypeOf(columns: readonly Column[]): RowType {
  const fields: RowField[] = columns.map((c) => ({ name: c.name, type: c.type }));
  return { kind: 'ROW', fields, nullable: false };
}
