import { maskSecrets } from '../config/secrets.js';
import { identifierToString } from '../catalog/object-identifier.js';
import { ConnectorError, ValidationError } from '../errors/sluice-error.js';
import { FactoryNotLoadedError } from './lazy-factory.js';
import { isSinkFactory, isSourceFactory, type DynamicTableFactoryContext } from './dynamic-table-factory.js';
import type { DynamicTableSink } from './dynamic-table-sink.js';
import type { DynamicTableSource } from './dynamic-table-source.js';

/**
 * Finds the connector's factory and builds a source, wrapping any failure in Flink's
 * "Unable to create a source for reading table ..." message that lists the (masked) options.
 */
export function createDynamicTableSource(ctx: DynamicTableFactoryContext): DynamicTableSource {
  return wrap(ctx, 'source', () => {
    const id = connectorIdentifier(ctx);
    const factory = ctx.factories.find(isSourceFactory, id);
    if (!factory && ctx.factories.find(isSinkFactory, id)) {
      throw new ValidationError(`Connector '${id}' can only be used as a sink. It cannot be used as a source.`);
    }
    return ctx.factories.discover('DynamicTableSourceFactory', isSourceFactory, id).createDynamicTableSource(ctx);
  });
}

export function createDynamicTableSink(ctx: DynamicTableFactoryContext): DynamicTableSink {
  return wrap(ctx, 'sink', () => {
    const id = connectorIdentifier(ctx);
    const factory = ctx.factories.find(isSinkFactory, id);
    if (!factory && ctx.factories.find(isSourceFactory, id)) {
      throw new ValidationError(`Connector '${id}' can only be used as a source. It cannot be used as a sink.`);
    }
    return ctx.factories.discover('DynamicTableSinkFactory', isSinkFactory, id).createDynamicTableSink(ctx);
  });
}

function connectorIdentifier(ctx: DynamicTableFactoryContext): string {
  const id = ctx.table.options['connector'];
  if (id === undefined) {
    throw new ValidationError(
      `Table options do not contain an option key 'connector' for discovering a connector. Sluice has no managed tables: add 'connector' = '...' to the WITH clause.`,
    );
  }
  return id;
}

function wrap<T>(ctx: DynamicTableFactoryContext, what: 'source' | 'sink', create: () => T): T {
  try {
    return create();
  } catch (e) {
    if (e instanceof FactoryNotLoadedError) throw e;
    const options = Object.entries(maskSecrets(ctx.table.options))
      .map(([k, v]) => `'${k}'='${v}'`)
      .join('\n');
    const head =
      what === 'source'
        ? `Unable to create a source for reading table '${identifierToString(ctx.identifier)}'.`
        : `Unable to create a sink for writing table '${identifierToString(ctx.identifier)}'.`;
    const reason = e instanceof Error ? e.message : String(e);
    // Keep the category the user sees: a broker that refused stays a connector error.
    const Err = e instanceof ConnectorError ? ConnectorError : ValidationError;
    throw new Err(`${head}\n\nTable options are:\n\n${options}\n\nCaused by: ${reason}`, { cause: e });
  }
}
