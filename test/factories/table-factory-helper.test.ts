import { describe, expect, it } from 'vitest';
import { ConfigOptions } from '../../src/config/config-options.js';
import type { ReadableConfig } from '../../src/config/configuration.js';
import { ChangelogMode } from '../../src/factories/changelog-mode.js';
import { createDynamicTableSink, createDynamicTableSource } from '../../src/factories/create-table-source-sink.js';
import type { DynamicTableFactoryContext, DynamicTableSourceFactory } from '../../src/factories/dynamic-table-factory.js';
import type { DynamicTableSource } from '../../src/factories/dynamic-table-source.js';
import { FactoryOptions } from '../../src/factories/factory-options.js';
import { FactoryRegistry } from '../../src/factories/factory-registry.js';
import type { DecodingFormat, DecodingFormatFactory } from '../../src/factories/format.js';
import { createTableFactoryHelper } from '../../src/factories/table-factory-helper.js';
import { Configuration } from '../../src/config/configuration.js';
import { DataTypes } from '../../src/types/data-types.js';
import { ResolvedSchema } from '../../src/types/schema.js';

const TOPIC = ConfigOptions.key('topic').stringType().noDefaultValue();
const MODE = ConfigOptions.key('scan.startup.mode').enumType(['earliest-offset', 'latest-offset'] as const).defaultValue('latest-offset');
const PASSWORD = ConfigOptions.key('properties.sasl.password').stringType().noDefaultValue();
const OLD = ConfigOptions.key('new-key').stringType().noDefaultValue().withDeprecatedKeys('old-key');
const IGNORE = ConfigOptions.key('ignore-parse-errors').booleanType().defaultValue(false);

let seenFormatOptions: ReadableConfig | undefined;
const fakeFormat: DecodingFormatFactory = {
  factoryIdentifier: 'fakejson',
  requiredOptions: () => [],
  optionalOptions: () => [IGNORE],
  createDecodingFormat(_ctx, options): DecodingFormat {
    seenFormatOptions = options;
    return { createRuntimeDecoder: () => ({ deserialize: () => {}, skippedRecords: 0 }), getChangelogMode: () => ChangelogMode.insertOnly() };
  },
};

const fakeSource: DynamicTableSourceFactory = {
  factoryIdentifier: 'fake',
  requiredOptions: () => [TOPIC],
  optionalOptions: () => [MODE, OLD, FactoryOptions.VALUE_FORMAT],
  prefixesPassedThrough: () => ['properties.'],
  createDynamicTableSource(ctx): DynamicTableSource {
    const helper = createTableFactoryHelper(this, ctx);
    helper.discoverOptionalDecodingFormat(FactoryOptions.VALUE_FORMAT);
    helper.validate();
    return {
      kind: 'scan-source',
      getChangelogMode: () => ChangelogMode.insertOnly(),
      getScanRuntimeProvider: () => {
        throw new Error('not used in this test');
      },
      asSummaryString: () => `fake(${helper.options.get(TOPIC)}, ${helper.options.get(MODE)})`,
    };
  },
};

function ctx(options: Record<string, string>): DynamicTableFactoryContext {
  return {
    identifier: { catalog: 'default_catalog', database: 'default_database', object: 't' },
    table: {
      kind: 'table',
      schema: ResolvedSchema.of([{ kind: 'physical', name: 'a', type: DataTypes.INT() }]),
      partitionKeys: [],
      options,
    },
    configuration: new Configuration(),
    isTemporary: false,
    factories: new FactoryRegistry([fakeSource, fakeFormat]),
  };
}

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

describe('table factory validation', () => {
  it('builds a source when the options are right, reading typed values', () => {
    const s = createDynamicTableSource(ctx({ connector: 'fake', topic: 'orders', 'scan.startup.mode': 'EARLIEST-OFFSET' }));
    expect(s.asSummaryString()).toBe('fake(orders, earliest-offset)');
  });

  it('names the unknown connector and lists the available identifiers', () => {
    const m = errorOf(() => createDynamicTableSource(ctx({ connector: 'kafak' })));
    expect(m).toContain("Unable to create a source for reading table 'default_catalog.default_database.t'.");
    expect(m).toContain("Could not find any factory for identifier 'kafak' that implements 'DynamicTableSourceFactory'");
    expect(m).toContain('Available factory identifiers are:\n\nfake');
  });

  it('refuses a source-only connector as a sink', () => {
    expect(errorOf(() => createDynamicTableSink(ctx({ connector: 'fake', topic: 'x' })))).toContain(
      "Connector 'fake' can only be used as a source. It cannot be used as a sink.",
    );
  });

  it('lists every missing required option', () => {
    expect(errorOf(() => createDynamicTableSource(ctx({ connector: 'fake' })))).toContain(
      'One or more required options are missing.\n\nMissing required options are:\n\ntopic',
    );
  });

  it('rejects an unknown option, suggests the near miss and lists the supported ones', () => {
    const m = errorOf(() => createDynamicTableSource(ctx({ connector: 'fake', topic: 'x', 'scan.startup.mdoe': 'earliest-offset' })));
    expect(m).toContain("Unsupported options found for 'fake'.\n\nUnsupported options:\n\nscan.startup.mdoe");
    expect(m).toContain("did you mean 'scan.startup.mode'?");
    expect(m).toContain('Supported options:\n\n');
    expect(m).toContain('old-key (deprecated)');
    expect(m).toContain('topic');
  });

  it('names the option, the value and the allowed values for a bad enum', () => {
    const m = errorOf(() => createDynamicTableSource(ctx({ connector: 'fake', topic: 'x', 'scan.startup.mode': 'earliest' })));
    expect(m).toContain("Invalid value for option 'scan.startup.mode': 'earliest'");
    expect(m).toContain('earliest-offset');
  });

  it('passes prefixed keys through and masks secrets in every message', () => {
    const m = errorOf(() =>
      createDynamicTableSource(ctx({ connector: 'fake', 'properties.sasl.password': 'hunter2', 'properties.anything': 'ok' })),
    );
    expect(m).toContain("'properties.sasl.password'='******'");
    expect(m).not.toContain('hunter2');
    expect(m).toContain('Missing required options');
    expect(PASSWORD.secret).toBe(true);
  });

  it('reads format options under the format prefix and rejects unknown ones there', () => {
    createDynamicTableSource(ctx({ connector: 'fake', topic: 'x', format: 'fakejson', 'fakejson.ignore-parse-errors': 'true' }));
    expect(seenFormatOptions?.get(IGNORE)).toBe(true);
    const m = errorOf(() => createDynamicTableSource(ctx({ connector: 'fake', topic: 'x', 'value.format': 'fakejson', 'value.fakejson.ignore-parse-error': 'true' })));
    expect(m).toContain('value.fakejson.ignore-parse-error');
    expect(m).toContain("did you mean 'value.fakejson.ignore-parse-errors'?");
  });

  it('validates format option values with the prefixed key in the message', () => {
    const m = errorOf(() => createDynamicTableSource(ctx({ connector: 'fake', topic: 'x', format: 'fakejson', 'fakejson.ignore-parse-errors': 'maybe' })));
    expect(m).toContain("Invalid value for option 'fakejson.ignore-parse-errors': 'maybe'");
  });

  it('names an unknown format', () => {
    const m = errorOf(() => createDynamicTableSource(ctx({ connector: 'fake', topic: 'x', format: 'avro' })));
    expect(m).toContain("Could not find any factory for identifier 'avro' that implements 'DecodingFormatFactory'");
  });

  it('requires both alignment options together', () => {
    const m = errorOf(() => createDynamicTableSource(ctx({ connector: 'fake', topic: 'x', 'scan.watermark.alignment.group': 'g' })));
    expect(m).toContain("'scan.watermark.alignment.group' and 'scan.watermark.alignment.max-drift' must be set");
  });

  it('explains a table without a connector', () => {
    expect(errorOf(() => createDynamicTableSource(ctx({ topic: 'x' })))).toContain("do not contain an option key 'connector'");
  });
});
