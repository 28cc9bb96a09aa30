import { describe, expect, it } from 'vitest';
import { Configuration } from '../../../src/config/configuration.js';
import { pravegaConnectorFactories, PravegaDynamicSource, readPravegaSinkConfig, readPravegaSourceConfig } from '../../../src/connectors/pravega/index.js';
import { streamCutToText } from '../../../src/connectors/pravega/client/index.js';
import { createPravegaSink } from '../../../src/connectors/pravega/sink/pravega-sink.js';
import { eventPointerBytes } from '../../../src/connectors/pravega/source/event-pointer.js';
import type { DynamicTableFactoryContext, DynamicTableSinkFactory, DynamicTableSourceFactory } from '../../../src/factories/dynamic-table-factory.js';
import { FactoryRegistry } from '../../../src/factories/factory-registry.js';
import { JsonFormatFactory } from '../../../src/formats/json/json-format-factory.js';
import { DataTypes } from '../../../src/types/data-types.js';
import { ResolvedSchema } from '../../../src/types/schema.js';

const factory = pravegaConnectorFactories[0] as DynamicTableSourceFactory & DynamicTableSinkFactory;
const BASE = { connector: 'pravega', 'controller-uri': 'tcp://localhost:9090', scope: 'sc', format: 'json' };

function ctx(options: Record<string, string>): DynamicTableFactoryContext {
  return {
    identifier: { catalog: 'default_catalog', database: 'default_database', object: 't' },
    table: {
      kind: 'table',
      schema: ResolvedSchema.of([
        { kind: 'physical', name: 'k', type: DataTypes.STRING() },
        { kind: 'physical', name: 'n', type: DataTypes.INT() },
        { kind: 'metadata', name: 'ptr', type: DataTypes.BYTES(), metadataKey: 'event_pointer', virtual: true },
      ]),
      partitionKeys: [],
      options,
    },
    configuration: new Configuration(),
    isTemporary: false,
    factories: new FactoryRegistry([factory, new JsonFormatFactory()]),
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

const cut = (stream: string, positions: [number, number][]): string => streamCutToText({ kind: 'cut', scope: 'sc', stream, positions: new Map(positions) });

describe('pravega table options', () => {
  it('reports the missing required options as Flink does', () => {
    const m = errorOf(() => factory.createDynamicTableSource(ctx({ connector: 'pravega' })));
    expect(m).toContain('One or more required options are missing.\n\nMissing required options are:\n\ncontroller-uri\nformat\nscope');
  });

  it('requires scan.streams for a source and sink.stream for a sink', () => {
    expect(errorOf(() => factory.createDynamicTableSource(ctx(BASE)))).toBe("'scan.streams' is required but missing");
    expect(errorOf(() => factory.createDynamicTableSink(ctx(BASE)))).toBe("'sink.stream' is required but missing");
  });

  it('rejects unsupported execution types and semantics with the supported list, case-sensitively', () => {
    expect(errorOf(() => factory.createDynamicTableSource(ctx({ ...BASE, 'scan.streams': 's', 'scan.execution.type': 'Batch' })))).toBe(
      "Unsupported value 'Batch' for 'scan.execution.type'. Supported values are ['streaming', 'batch'].",
    );
    expect(errorOf(() => factory.createDynamicTableSink(ctx({ ...BASE, 'sink.stream': 's', 'sink.semantic': 'exactly_once' })))).toBe(
      "Unsupported value 'exactly_once' for 'sink.semantic'. Supported values are ['at-least-once', 'exactly-once', 'best-effort'].",
    );
  });

  it('checks the number of start and end stream cuts against the streams', () => {
    const opts = { ...BASE, 'scan.streams': 'a;b', 'scan.start-streamcuts': cut('a', [[0, 0]]) };
    expect(errorOf(() => factory.createDynamicTableSource(ctx(opts)))).toBe('Start stream cuts are not matching the number of streams, having 1, expected 2');
    const ends = { ...BASE, 'scan.streams': 'a', 'scan.end-streamcuts': `${cut('a', [[0, 5]])};UNBOUNDED` };
    expect(errorOf(() => factory.createDynamicTableSource(ctx(ends)))).toBe('End stream cuts are not matching the number of streams, having 2, expected 1');
  });

  it('rejects a non-positive max outstanding checkpoint request', () => {
    const m = errorOf(() => factory.createDynamicTableSource(ctx({ ...BASE, 'scan.streams': 's', 'scan.reader-group.max-outstanding-checkpoint-request': '0' })));
    expect(m).toBe("'scan.reader-group.max-outstanding-checkpoint-request' requires a positive integer, received 0");
  });

  it('accepts every Flink key, including the reader-group ones that have no effect here', () => {
    const src = factory.createDynamicTableSource(
      ctx({
        ...BASE,
        'scan.streams': 's',
        'scan.uid': 'u',
        'scan.reader-group.name': 'rg',
        'scan.reader-group.refresh.interval': '5 s',
        'scan.reader-group.checkpoint-initiate-timeout.interval': '1 s',
        'scan.event-read.timeout.interval': '200 ms',
        'security.validate-hostname': 'false',
      }),
    );
    expect(src).toBeInstanceOf(PravegaDynamicSource);
    expect((src as PravegaDynamicSource).listReadableMetadata().get('event_pointer')?.kind).toBe('VARBINARY');
    const m = errorOf(() => factory.createDynamicTableSource(ctx({ ...BASE, 'scan.streams': 's', 'scan.stream': 'x' })));
    expect(m).toContain("Unsupported options found for 'pravega'.");
    expect(m).toContain('scan.streams');
  });

  it('is bounded for batch execution or when every stream has an end cut', () => {
    const c = (o: Record<string, string>) => readPravegaSourceConfig(new Configuration({ ...BASE, ...o }));
    expect(c({ 'scan.streams': 'a' }).bounded).toBe(false);
    expect(c({ 'scan.streams': 'a', 'scan.execution.type': 'batch' }).bounded).toBe(true);
    expect(c({ 'scan.streams': 'a;b', 'scan.end-streamcuts': `${cut('a', [[0, 5]])};UNBOUNDED` }).bounded).toBe(false);
    const both = c({ 'scan.streams': 'a;other/b', 'scan.end-streamcuts': `${cut('a', [[0, 5]])};${streamCutToText({ kind: 'cut', scope: 'other', stream: 'b', positions: new Map([[0, 1]]) })}` });
    expect(both.bounded).toBe(true);
    expect(both.streams.map((s) => `${s.scope}/${s.stream}`)).toEqual(['sc/a', 'other/b']);
    expect(errorOf(() => c({ 'scan.streams': 'a', 'scan.start-streamcuts': cut('zzz', [[0, 0]]) }))).toContain("is for 'sc/zzz'");
  });

  it('validates the routing key column and the exactly-once lease', () => {
    expect(errorOf(() => factory.createDynamicTableSink(ctx({ ...BASE, 'sink.stream': 's', 'sink.routing-key.field.name': 'nope' })))).toBe("Key field 'nope' not found");
    expect(errorOf(() => factory.createDynamicTableSink(ctx({ ...BASE, 'sink.stream': 's', 'sink.routing-key.field.name': 'n' })))).toContain('must be of type STRING');
    expect(errorOf(() => readPravegaSinkConfig(new Configuration({ ...BASE, 'sink.stream': 's', 'sink.semantic': 'exactly-once', 'sink.txn-lease-renewal.interval': '1 s' })))).toContain(
      'between 10 s and 600 s',
    );
    const ok = readPravegaSinkConfig(new Configuration({ ...BASE, 'sink.stream': 's', 'sink.semantic': 'exactly-once' }));
    expect(ok.txnLeaseMs).toBe(30_000);
    expect(factory.createDynamicTableSink(ctx({ ...BASE, 'sink.stream': 's', 'sink.routing-key.field.name': 'k' })).asSummaryString()).toBe('pravega(stream=sc/s, semantic=at-least-once)');
  });

  it("reads 'sink.commit.on-lost-transaction' (fail by default) into the exactly-once sink's lost-committable policy", () => {
    const sinkCfg = (o: Record<string, string>) => readPravegaSinkConfig(new Configuration({ ...BASE, 'sink.stream': 's', 'sink.semantic': 'exactly-once', ...o }));
    expect(sinkCfg({}).onLostTransaction).toBe('fail');
    expect(sinkCfg({ 'sink.commit.on-lost-transaction': 'warn' }).onLostTransaction).toBe('warn');
    expect(errorOf(() => sinkCfg({ 'sink.commit.on-lost-transaction': 'ignore' }))).toBe(
      "Unsupported value 'ignore' for 'sink.commit.on-lost-transaction'. Supported values are ['fail', 'warn'].",
    );
    const sink = createPravegaSink({ config: sinkCfg({ 'sink.commit.on-lost-transaction': 'warn' }), createSerializer: () => ({ serialize: () => new Uint8Array() }) });
    expect(sink.lostCommittables).toEqual({ action: 'warn', option: 'sink.commit.on-lost-transaction' });
  });

  it('reads the security options: credentials only as a pair, trust store and host-name check passed on', () => {
    const sink = (o: Record<string, string>) => readPravegaSinkConfig(new Configuration({ ...BASE, 'sink.stream': 's', ...o }));
    expect(sink({}).security).toEqual({ validateHostname: true });
    const full = sink({
      'controller-uri': 'tls://h:9090',
      'security.auth-type': 'Basic',
      'security.auth-token': 'YWRtaW46eA==',
      'security.trust-store': '/ca.pem',
      'security.validate-hostname': 'false',
    });
    expect(full.controllerUri).toBe('tls://h:9090');
    expect(full.security).toEqual({ auth: { type: 'Basic', token: 'YWRtaW46eA==' }, trustStore: '/ca.pem', validateHostname: false });
    expect(errorOf(() => sink({ 'security.auth-type': 'Basic' }))).toBe("'security.auth-type' and 'security.auth-token' go together; only 'security.auth-type' is set");
    const src = readPravegaSourceConfig(new Configuration({ ...BASE, 'scan.streams': 'a', 'security.auth-type': 'Bearer', 'security.auth-token': 't' }));
    expect(src.security.auth).toEqual({ type: 'Bearer', token: 't' });
  });
});

describe('event pointer', () => {
  it('encodes the Java EventPointer layout: format, version, revision count and id, length, UTF name, compact offset and length', () => {
    const b = Buffer.from(eventPointerBytes({ scope: 'sc', stream: 'st', segmentId: 2 ** 32 + 3 }, 100, 10));
    const name = 'sc/st/3.#epoch.1';
    // As pravega-client 0.13.0's EventPointer.toBytes() (compared live in test/integration/pravega/java-interop.test.ts).
    expect([...b.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    expect(b.readInt32BE(4)).toBe(b.length - 8);
    expect(b.readUInt16BE(8)).toBe(name.length);
    expect(b.subarray(10, 10 + name.length).toString()).toBe(name);
    // 100 needs the 2-byte compact form (tag 01), 18 (10 + header) the 1-byte form.
    expect([...b.subarray(10 + name.length)]).toEqual([0x40, 100, 18]);
  });
});
