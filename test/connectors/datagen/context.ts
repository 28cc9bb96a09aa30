import { Configuration } from '../../../src/config/configuration.js';
import { FactoryRegistry } from '../../../src/factories/factory-registry.js';
import type { DynamicTableFactoryContext } from '../../../src/factories/dynamic-table-factory.js';
import type { Factory } from '../../../src/factories/factory.js';
import { Columns, ResolvedSchema } from '../../../src/types/schema.js';
import type { LogicalType } from '../../../src/types/logical-type.js';
import { defaultRuntimeConfig, executeJob, type AnySink, type AnySource, type JobGraph, type RuntimeConfig, type WatermarkStrategy } from '../../../src/runtime/index.js';
import type { Row } from '../../../src/types/row.js';
import type { Sink, SinkWriter } from '../../../src/runtime/index.js';

/** A factory context for a table with the given physical columns and options (tests only). */
export function tableContext(
  columns: ReadonlyArray<readonly [string, LogicalType]>,
  options: Record<string, string>,
  factories: Factory[] = [],
  partitionKeys: string[] = [],
): DynamicTableFactoryContext {
  return {
    identifier: { catalog: 'default_catalog', database: 'default_database', object: 't' },
    table: {
      kind: 'table',
      schema: ResolvedSchema.of(columns.map(([n, t]) => Columns.physical(n, t))),
      partitionKeys,
      options,
    },
    configuration: new Configuration(),
    isTemporary: true,
    factories: new FactoryRegistry(factories),
  };
}

/** An at-least-once sink keeping rows in memory. */
export class MemorySink implements Sink<Row> {
  readonly rows: Row[] = [];
  createWriter(): SinkWriter<Row> {
    return {
      write: (b) => void this.rows.push(...b),
      flush: async () => {},
      close: async () => {},
    };
  }
}

/** source -> sink, forward when parallelisms match, rebalance otherwise. */
export function pipe(source: AnySource<Row>, sink: AnySink<Row>, p = 1, sinkP = p, watermarkStrategy?: WatermarkStrategy<Row>): JobGraph {
  return {
    jobName: 'connector-test',
    vertices: [
      { kind: 'source', id: 'src', name: 'src', parallelism: p, source, ...(watermarkStrategy ? { watermarkStrategy } : {}) },
      { kind: 'sink', id: 'snk', name: 'snk', parallelism: sinkP, sink },
    ],
    edges: [{ from: 'src', to: 'snk', partitioner: p === sinkP ? { kind: 'forward' } : { kind: 'rebalance' } }],
  };
}

export async function runToEnd(graph: JobGraph, config: Partial<RuntimeConfig> = {}): Promise<void> {
  const client = executeJob(graph, defaultRuntimeConfig(config));
  await client.waitForCompletion();
}
