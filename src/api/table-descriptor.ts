import { ValidationError } from '../errors/sluice-error.js';
import type { Column, UniqueConstraint, WatermarkSpec } from '../types/column.js';
import { ResolvedSchema } from '../types/schema.js';
import { describeStateValue } from '../runtime/state/state-path.js';
import { parseLogicalType } from '../types/parse-logical-type.js';
import type { LogicalType } from '../types/logical-type.js';
import type { CatalogTable } from '../catalog/catalog-table.js';

/**
 * A table defined in code rather than DDL (Flink's `TableDescriptor`).
 *
 * @example
 * ```ts
 * env.createTemporaryTable('orders', TableDescriptor.forConnector('datagen')
 *   .schema(Schema.newBuilder().column('id', 'BIGINT').column('price', 'DECIMAL(10, 2)').build())
 *   .option('number-of-rows', '10')
 *   .build());
 * ```
 */
export class TableDescriptor {
  private constructor(
    readonly schema: ResolvedSchema,
    readonly options: Readonly<Record<string, string>>,
    readonly partitionKeys: readonly string[],
    readonly comment: string | undefined,
  ) {}

  static forConnector(connector: string): TableDescriptorBuilder {
    return new TableDescriptorBuilder(connector);
  }

  /** The catalog form. */
  toCatalogTable(): CatalogTable {
    return {
      kind: 'table',
      schema: this.schema,
      options: this.options,
      partitionKeys: this.partitionKeys,
      ...(this.comment === undefined ? {} : { comment: this.comment }),
    };
  }

  /** @internal */
  static create(schema: ResolvedSchema, options: Record<string, string>, partitionKeys: string[], comment: string | undefined): TableDescriptor {
    return new TableDescriptor(schema, options, partitionKeys, comment);
  }
}

export class TableDescriptorBuilder {
  private tableSchema: ResolvedSchema | undefined;
  private readonly opts: Record<string, string>;
  private partitions: string[] = [];
  private text: string | undefined;

  constructor(connector: string) {
    this.opts = { connector };
  }

  schema(schema: ResolvedSchema): this {
    // A JavaScript caller is not held to the type: say what to give rather than fail later inside a connector.
    if (!(schema instanceof ResolvedSchema)) {
      const given = (schema as unknown) instanceof SchemaBuilder ? 'a SchemaBuilder: call .build() on it' : describeStateValue(schema);
      throw new ValidationError(
        `TableDescriptor.schema() for connector '${this.opts['connector']}' takes the schema Schema.newBuilder()...build() returns, e.g. Schema.newBuilder().column('id', 'BIGINT').build(); it was given ${given}.`,
      );
    }
    this.tableSchema = schema;
    return this;
  }

  option(key: string, value: string | number | boolean): this {
    this.opts[key] = String(value);
    return this;
  }

  /** `'format' = id`, and format options given without their `<id>.` prefix. */
  format(id: string, options: Record<string, string> = {}): this {
    this.opts['format'] = id;
    for (const [k, v] of Object.entries(options)) this.opts[`${id}.${k}`] = v;
    return this;
  }

  partitionedBy(...columns: string[]): this {
    this.partitions = columns;
    return this;
  }

  comment(text: string): this {
    this.text = text;
    return this;
  }

  build(): TableDescriptor {
    if (!this.tableSchema) throw new ValidationError(`A TableDescriptor for connector '${this.opts['connector']}' needs a schema: call .schema(Schema.newBuilder()...build()).`);
    return TableDescriptor.create(this.tableSchema, { ...this.opts }, [...this.partitions], this.text);
  }
}

/**
 * Builds a table schema in code (Flink's `Schema.newBuilder()`); types are given as Flink type strings
 * or LogicalTypes.
 */
export class Schema {
  static newBuilder(): SchemaBuilder {
    return new SchemaBuilder();
  }
}

export class SchemaBuilder {
  private readonly columns: Column[] = [];
  private readonly watermarks: WatermarkSpec[] = [];
  private pk: UniqueConstraint | undefined;

  column(name: string, type: string | LogicalType): this {
    this.columns.push({ kind: 'physical', name, type: typeof type === 'string' ? parseLogicalType(type) : type });
    return this;
  }

  columnByMetadata(name: string, type: string | LogicalType, key?: string, isVirtual = false): this {
    this.columns.push({
      kind: 'metadata',
      name,
      type: typeof type === 'string' ? parseLogicalType(type) : type,
      virtual: isVirtual,
      ...(key === undefined ? {} : { metadataKey: key }),
    });
    return this;
  }

  watermark(column: string, expression: string): this {
    this.watermarks.push({ rowtimeAttribute: column, expression });
    return this;
  }

  primaryKey(...columns: string[]): this {
    this.pk = ResolvedSchema.primaryKey(columns);
    return this;
  }

  build(): ResolvedSchema {
    return ResolvedSchema.of(this.columns, this.watermarks, this.pk);
  }
}

