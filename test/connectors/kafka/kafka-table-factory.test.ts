import { describe, expect, it } from 'vitest';
import { DataTypes } from '../../../src/types/data-types.js';
import { KafkaDynamicTableFactory, UpsertKafkaDynamicTableFactory } from '../../../src/connectors/kafka/index.js';
import { KafkaDynamicSource } from '../../../src/connectors/kafka/kafka-dynamic-source.js';
import { KafkaDynamicSink } from '../../../src/connectors/kafka/kafka-dynamic-sink.js';
import { ChangelogMode } from '../../../src/factories/changelog-mode.js';
import { Columns, kafkaContext } from './kafka-context.js';

const cols = [Columns.physical('id', DataTypes.BIGINT()), Columns.physical('name', DataTypes.STRING()), Columns.physical('v', DataTypes.INT())];
const base = { connector: 'kafka', topic: 't1', 'properties.bootstrap.servers': '127.0.0.1:9092', format: 'json' };
const kafka = new KafkaDynamicTableFactory();
const upsert = new UpsertKafkaDynamicTableFactory();

function source(options: Record<string, string>, pk?: string[]) {
  return kafka.createDynamicTableSource(kafkaContext(cols, options, pk));
}
function sink(options: Record<string, string>, pk?: string[]) {
  return kafka.createDynamicTableSink(kafkaContext(cols, options, pk));
}

describe('kafka table factory validation', () => {
  it('builds a source and a sink for a minimal table', () => {
    const s = source(base) as KafkaDynamicSource;
    expect(s.asSummaryString()).toBe('kafka(topic=[t1])');
    expect(s.createSource().boundedness()).toBe('CONTINUOUS_UNBOUNDED');
    expect(s.getChangelogMode().isInsertOnly()).toBe(true);
    expect((sink(base) as KafkaDynamicSink).asSummaryString()).toBe('kafka(topic=[t1], delivery=at-least-once)');
  });

  it('keeps no row values but the topic column: sources feeding it may hand out views into their read buffers', () => {
    expect((sink(base) as KafkaDynamicSink).keepsRowValues()).toBe(false);
    const upserting = upsert.createDynamicTableSink(
      kafkaContext(cols, { connector: 'upsert-kafka', topic: 't1', 'properties.bootstrap.servers': '127.0.0.1:9092', 'key.format': 'json', 'value.format': 'json', 'sink.buffer-flush.max-rows': '100', 'sink.buffer-flush.interval': '1 s' }, ['id']),
    ) as KafkaDynamicSink;
    upserting.applyWritableMetadata(['headers'], null as never);
    expect(upserting.keepsRowValues()).toBe(false);
    upserting.applyWritableMetadata(['topic', 'headers'], null as never);
    expect(upserting.keepsRowValues()).toBe(true);
  });

  it('a bounded mode makes the source bounded, and batch mode refuses an unbounded one', () => {
    const b = source({ ...base, 'scan.bounded.mode': 'latest-offset' }) as KafkaDynamicSource;
    expect(b.createSource().boundedness()).toBe('BOUNDED');
    expect(b.getScanRuntimeProvider({ batchMode: true }).bounded).toBe(true);
    expect(() => (source(base) as KafkaDynamicSource).getScanRuntimeProvider({ batchMode: true })).toThrow(/unbounded table 't'/);
  });

  it("reads the deprecated 'sink.semantic' as 'sink.delivery-guarantee'; the new key wins when both are set", () => {
    const eo = { ...base, 'sink.semantic': 'exactly-once', 'sink.transactional-id-prefix': 'p' };
    expect((sink(eo) as KafkaDynamicSink).asSummaryString()).toBe('kafka(topic=[t1], delivery=exactly-once)');
    expect((sink({ ...eo, 'sink.delivery-guarantee': 'none' }) as KafkaDynamicSink).asSummaryString()).toBe('kafka(topic=[t1], delivery=none)');
    expect(() => sink({ ...base, 'sink.semantic': 'exactly-once' })).toThrow(/sink.transactional-id-prefix/);
  });

  it('rejects topic together with topic-pattern, and neither', () => {
    expect(() => source({ ...base, 'topic-pattern': 't.*' })).toThrow("Option 'topic' and 'topic-pattern' shouldn't be set together.");
    const { topic: _t, ...noTopic } = base;
    expect(() => source(noTopic)).toThrow("Either 'topic' or 'topic-pattern' must be set.");
  });

  it('requires the option of the chosen startup and bounded mode', () => {
    expect(() => source({ ...base, 'scan.startup.mode': 'specific-offsets' })).toThrow(
      "'scan.startup.specific-offsets' is required in 'specific-offsets' startup mode but missing.",
    );
    expect(() => source({ ...base, 'scan.startup.mode': 'timestamp' })).toThrow(
      "'scan.startup.timestamp-millis' is required in 'timestamp' startup mode but missing.",
    );
    expect(() => source({ ...base, 'scan.bounded.mode': 'timestamp' })).toThrow(
      "'scan.bounded.timestamp-millis' is required in 'timestamp' bounded mode but missing.",
    );
    expect(() => source({ ...base, 'scan.startup.mode': 'specific-offsets', 'scan.startup.specific-offsets': 'partition:0;offset:1' })).toThrow(
      "Invalid properties 'scan.startup.specific-offsets' should follow the format 'partition:0,offset:42;partition:1,offset:300', but is 'partition:0;offset:1'.",
    );
    expect(() => source({ ...base, 'scan.startup.mode': 'nope' })).toThrow(/scan.startup.mode/);
  });

  it('checks key.fields against key.format, the prefix and the schema', () => {
    expect(() => source({ ...base, 'key.fields': 'id' })).toThrow(
      "The option 'key.fields' can only be declared if a key format is defined using 'key.format'.",
    );
    expect(() => source({ ...base, 'key.format': 'json' })).toThrow(
      "A key format 'key.format' requires the declaration of one or more of key fields using 'key.fields'.",
    );
    expect(() => source({ ...base, 'key.format': 'json', 'key.fields': 'id', 'key.fields-prefix': 'k_' })).toThrow(
      /A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'/,
    );
    expect(() => source({ ...base, 'key.format': 'json', 'key.fields': 'nope' })).toThrow(/Could not find the field 'nope'/);
  });

  it('rejects round-robin with key fields, and an unknown partitioner', () => {
    expect(() => sink({ ...base, 'key.format': 'json', 'key.fields': 'id', 'sink.partitioner': 'round-robin' })).toThrow(
      "Currently 'round-robin' partitioner only works when option 'key.fields' is not specified.",
    );
    expect(() => sink({ ...base, 'sink.partitioner': 'com.x.MyPartitioner' })).toThrow(/Could not find and instantiate partitioner class 'com.x.MyPartitioner'/);
  });

  it('requires a transactional id prefix for exactly-once', () => {
    expect(() => sink({ ...base, 'sink.delivery-guarantee': 'exactly-once' })).toThrow(
      'sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE.',
    );
    expect(() => sink({ ...base, 'sink.delivery-guarantee': 'exactly-once', 'sink.transactional-id-prefix': 'x' })).not.toThrow();
  });

  it("reads 'sink.commit.on-lost-transaction' into the sink's lost-committable policy (fail by default)", () => {
    const eo = { ...base, 'sink.delivery-guarantee': 'exactly-once', 'sink.transactional-id-prefix': 'p' };
    const option = 'sink.commit.on-lost-transaction';
    expect((sink(eo) as KafkaDynamicSink).createSink().lostCommittables).toEqual({ action: 'fail', option });
    expect((sink({ ...eo, [option]: 'warn' }) as KafkaDynamicSink).createSink().lostCommittables).toEqual({ action: 'warn', option });
    expect(() => sink({ ...eo, [option]: 'ignore' })).toThrow(/sink\.commit\.on-lost-transaction/);
  });

  it('rejects a PRIMARY KEY with an insert-only format, unknown options and bad properties', () => {
    expect(() => source(base, ['id'])).toThrow(/doesn't support defining PRIMARY KEY constraint on the table/);
    expect(() => source({ ...base, 'scan.startup.mod': 'earliest-offset' })).toThrow(/did you mean 'scan.startup.mode'/);
    expect(() => source({ ...base, 'properties.bogus.key': '1' })).toThrow(/Unsupported Kafka properties: 'properties.bogus.key'/);
    const { 'properties.bootstrap.servers': _b, ...noServers } = base;
    expect(() => source(noServers)).toThrow(/properties.bootstrap.servers/);
  });

  it('needs the topic metadata column for a multi-topic sink', () => {
    expect(() => (sink({ ...base, topic: 'a;b' }) as KafkaDynamicSink).createSink()).toThrow(/needs the 'topic' metadata column/);
  });
});

describe('upsert-kafka table factory validation', () => {
  const ubase = { connector: 'upsert-kafka', topic: 't1', 'properties.bootstrap.servers': '127.0.0.1:9092', 'key.format': 'json', 'value.format': 'json' };

  it('requires a PRIMARY KEY', () => {
    expect(() => upsert.createDynamicTableSource(kafkaContext(cols, ubase))).toThrow(
      /'upsert-kafka' tables require to define a PRIMARY KEY constraint/,
    );
  });

  it('requires key.format and value.format', () => {
    const { 'key.format': _k, ...noKey } = ubase;
    expect(() => upsert.createDynamicTableSource(kafkaContext(cols, noKey, ['id']))).toThrow(/Missing required options are:\n\nkey.format/);
  });

  it('produces and accepts an upsert changelog, and rejects startup options', () => {
    const s = upsert.createDynamicTableSource(kafkaContext(cols, ubase, ['id'])) as KafkaDynamicSource;
    expect(s.getChangelogMode().equals(ChangelogMode.upsert())).toBe(true);
    const k = upsert.createDynamicTableSink(kafkaContext(cols, ubase, ['id'])) as KafkaDynamicSink;
    expect(k.getChangelogMode(ChangelogMode.all()).equals(ChangelogMode.upsert())).toBe(true);
    expect(() => upsert.createDynamicTableSource(kafkaContext(cols, { ...ubase, 'scan.startup.mode': 'latest-offset' }, ['id']))).toThrow(
      /Unsupported options found for 'upsert-kafka'/,
    );
  });
});
