// Test helpers: a factory context for a Kafka table and a few canned schemas.
import { Configuration } from '../../../src/config/configuration.js';
import { FactoryRegistry } from '../../../src/factories/factory-registry.js';
import type { DynamicTableFactoryContext } from '../../../src/factories/dynamic-table-factory.js';
import { JsonFormatFactory } from '../../../src/formats/json/json-format-factory.js';
import type { Column } from '../../../src/types/schema.js';
import { Columns, ResolvedSchema } from '../../../src/types/schema.js';
import { kafkaConnectorFactories } from '../../../src/connectors/kafka/index.js';

export function kafkaContext(columns: readonly Column[], options: Record<string, string>, primaryKey?: readonly string[]): DynamicTableFactoryContext {
  return {
    identifier: { catalog: 'default_catalog', database: 'default_database', object: 't' },
    table: {
      kind: 'table',
      schema: ResolvedSchema.of(columns, [], primaryKey ? ResolvedSchema.primaryKey(primaryKey) : undefined),
      partitionKeys: [],
      options,
    },
    configuration: new Configuration(),
    isTemporary: true,
    factories: new FactoryRegistry([...kafkaConnectorFactories, new JsonFormatFactory()]),
  };
}

export { Columns };
