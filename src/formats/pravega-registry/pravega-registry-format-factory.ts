import type { ConfigOption } from '../../config/config-option.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { PravegaRegistryClient } from '../../connectors/pravega/registry/registry-client.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableFactoryContext } from '../../factories/dynamic-table-factory.js';
import type { DecodingFormat, DecodingFormatFactory, EncodingFormat, EncodingFormatFactory } from '../../factories/format.js';
import type { RowType } from '../../types/logical-type.js';
import { readJsonDecodeSettings, readJsonEncodeSettings } from '../json/json-options.js';
import { PravegaRegistryDecoder } from './pravega-registry-decoder.js';
import { PravegaRegistryEncoder } from './pravega-registry-encoder.js';
import { PravegaRegistryOptions as O, readRegistryLocation, type RegistryLocation } from './pravega-registry-options.js';

export const PRAVEGA_REGISTRY_FORMAT = 'pravega-registry';

/**
 * `'format' = 'pravega-registry'` (Flink's PravegaRegistryFormatFactory): events in the Pravega Schema Registry's
 * encoding (header with the writer's encoding id, then Avro binary or JSON), insert-only. The Pravega catalog sets it
 * on its tables; a plain `'connector' = 'pravega'` table can use it too, naming the registry, namespace and group.
 *
 * Only the pravega connector is accepted: its reader and writer await the format's registry lookups off the record
 * path (`prepare` and `open`), which other connectors do not.
 */
export class PravegaRegistryFormatFactory implements DecodingFormatFactory, EncodingFormatFactory {
  readonly factoryIdentifier = PRAVEGA_REGISTRY_FORMAT;
  readonly description = "Avro or JSON events in the Pravega Schema Registry's encoding (encoding id header); insert-only.";

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [O.URI, O.NAMESPACE, O.GROUP_ID];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return Object.values(O).filter((o) => o !== O.URI && o !== O.NAMESPACE && o !== O.GROUP_ID) as ConfigOption<unknown>[];
  }

  createDecodingFormat(ctx: DynamicTableFactoryContext, o: ReadableConfig): DecodingFormat {
    const at = location(ctx, o);
    const settings = readJsonDecodeSettings(o);
    return {
      createRuntimeDecoder: (physicalType: RowType) => new PravegaRegistryDecoder(physicalType, client(at), at.group, describe(at), settings),
      getChangelogMode: () => ChangelogMode.insertOnly(),
    };
  }

  createEncodingFormat(ctx: DynamicTableFactoryContext, o: ReadableConfig): EncodingFormat {
    const at = location(ctx, o);
    const settings = readJsonEncodeSettings(o);
    const format = o.get(O.FORMAT);
    return {
      createRuntimeEncoder: (physicalType: RowType) => new PravegaRegistryEncoder(physicalType, client(at), at.group, format, describe(at), settings),
      getChangelogMode: () => ChangelogMode.insertOnly(),
    };
  }
}

function location(ctx: DynamicTableFactoryContext, o: ReadableConfig): RegistryLocation {
  const connector = ctx.table.options['connector'];
  if (connector !== 'pravega') {
    throw new ValidationError(
      `The '${PRAVEGA_REGISTRY_FORMAT}' format works with the 'pravega' connector only, not '${connector}': its registry lookups are awaited by the Pravega reader and writer.`,
    );
  }
  const at = readRegistryLocation(o);
  if (!/^https?:\/\/[^/]+/.test(at.uri.trim())) {
    throw new ValidationError(`Option 'pravega-registry.uri' must be an http:// or https:// URL, not '${at.uri}'.`);
  }
  return at;
}

function client(at: RegistryLocation): PravegaRegistryClient {
  return new PravegaRegistryClient({ uri: at.uri, namespace: at.namespace, headers: at.headers });
}

function describe(at: RegistryLocation): string {
  return `group '${at.group}' (namespace '${at.namespace}') of the schema registry at ${at.uri}`;
}
