import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../../src/errors/index.js';
import { parseJaasCredentials, toKafkaClientSettings } from '../../../src/connectors/kafka/client/kafka-properties.js';
import { parseSpecificOffsets } from '../../../src/connectors/kafka/client/offsets-resolver.js';
import { deserializeSplit, serializeSplit } from '../../../src/connectors/kafka/client/kafka-split.js';
import { matchesWhole } from '../../../src/connectors/kafka/client/partition-discovery.js';
import { parseSinkPartitioner } from '../../../src/connectors/kafka/client/sink-partitioner.js';

describe('toKafkaClientSettings', () => {
  it('maps bootstrap servers, client id, group id and defaults', () => {
    const s = toKafkaClientSettings({ 'bootstrap.servers': 'PLAINTEXT://a:9092, b:9093', 'client.id': 'c', 'group.id': 'g' });
    expect(s.client.brokers).toEqual(['a:9092', 'b:9093']);
    expect(s.client.clientId).toBe('c');
    expect(s.groupId).toBe('g');
    expect(s.isolationLevel).toBe('read_committed');
    expect(s.autoOffsetReset).toBe('none');
    expect(s.transactionTimeoutMs).toBe(900_000);
    expect(s.acks).toBe(-1);
    expect(s.client.ssl).toBeUndefined();
  });

  it('maps SASL_SSL with SCRAM credentials parsed from the JAAS line', () => {
    const s = toKafkaClientSettings({
      'bootstrap.servers': 'x:1',
      'security.protocol': 'SASL_SSL',
      'sasl.mechanism': 'SCRAM-SHA-512',
      'sasl.jaas.config': 'org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="p\\"w";',
    });
    expect(s.client.sasl).toEqual({ mechanism: 'scram-sha-512', username: 'alice', password: 'p"w' });
    expect(s.client.ssl).toEqual({});
  });

  it('maps isolation level, transaction timeout, fetch sizes and retries', () => {
    const s = toKafkaClientSettings({
      'bootstrap.servers': 'x:1',
      'isolation.level': 'READ_UNCOMMITTED',
      'transaction.timeout.ms': '60000',
      'max.poll.records': '5',
      'fetch.max.wait.ms': '10',
      retries: '3',
      'retry.backoff.ms': '50',
      acks: '1',
      'metadata.max.age.ms': '1000',
    });
    expect(s.isolationLevel).toBe('read_uncommitted');
    expect(s.metadataMaxAgeMs).toBe(1000);
    expect(toKafkaClientSettings({ 'bootstrap.servers': 'x:1' }).metadataMaxAgeMs).toBe(300_000);
    expect(s.transactionTimeoutMs).toBe(60_000);
    expect(s.fetch.maxRecordsPerFetch).toBe(5);
    expect(s.fetch.maxWaitTimeMs).toBe(10);
    expect(s.client.retry).toEqual({ retries: 3, initialRetryTime: 50 });
    expect(s.acks).toBe(1);
  });

  it('rejects unsupported keys by name and lists the supported ones', () => {
    expect(() => toKafkaClientSettings({ 'bootstrap.servers': 'x:1', 'compression.codec': 'lz4', 'foo.bar': '1' })).toThrow(
      /Unsupported Kafka properties: 'properties.compression.codec', 'properties.foo.bar'\. Supported: bootstrap.servers/,
    );
  });

  it('accepts keys whose job Sluice does differently without complaint', () => {
    expect(() => toKafkaClientSettings({ 'bootstrap.servers': 'x:1', 'enable.auto.commit': 'true', 'session.timeout.ms': '1' })).not.toThrow();
  });

  it('points transactional.id users to sink.transactional-id-prefix', () => {
    expect(() => toKafkaClientSettings({ 'bootstrap.servers': 'x:1', 'transactional.id': 't' })).toThrow(/sink.transactional-id-prefix/);
  });

  it('requires bootstrap.servers and valid values', () => {
    expect(() => toKafkaClientSettings({})).toThrow(ConnectorError);
    expect(() => toKafkaClientSettings({ 'bootstrap.servers': 'x:1', 'max.poll.records': 'many' })).toThrow(/max.poll.records/);
    expect(() => toKafkaClientSettings({ 'bootstrap.servers': 'x:1', 'isolation.level': 'dirty' })).toThrow(/read_committed/);
    expect(() => toKafkaClientSettings({ 'bootstrap.servers': 'x:1', 'security.protocol': 'SSL', 'ssl.truststore.type': 'JKS' })).toThrow(/PEM/);
    expect(() => toKafkaClientSettings({ 'bootstrap.servers': 'x:1', 'sasl.mechanism': 'PLAIN' })).toThrow(/SASL_PLAINTEXT or SASL_SSL/);
  });

  it('rejects a JAAS line without credentials', () => {
    expect(() => parseJaasCredentials('com.sun.security.auth.module.Krb5LoginModule required;')).toThrow(/username/);
  });
});

describe('option helpers', () => {
  it('parses Flink specific offsets and rejects malformed ones with Flink wording', () => {
    const m = parseSpecificOffsets('t', 'partition:0,offset:42;partition:1,offset:300', 'scan.startup.specific-offsets');
    expect([...m]).toEqual([
      ['t-0', 42n],
      ['t-1', 300n],
    ]);
    expect(() => parseSpecificOffsets('t', 'partition:0;offset:1', 'scan.startup.specific-offsets')).toThrow(
      "Invalid properties 'scan.startup.specific-offsets' should follow the format 'partition:0,offset:42;partition:1,offset:300', but is 'partition:0;offset:1'.",
    );
  });

  it('round-trips splits with offsets beyond 2^53 through checkpoint JSON', () => {
    const split = { topic: 't', partition: 3, startingOffset: 9007199254740993n, stoppingOffset: 9007199254740999n };
    expect(deserializeSplit(serializeSplit(split))).toEqual(split);
    expect(deserializeSplit(serializeSplit({ topic: 't', partition: 0, startingOffset: 1n }))).toEqual({ topic: 't', partition: 0, startingOffset: 1n });
  });

  it('matches topic patterns against the whole name, as Java does', () => {
    expect(matchesWhole(/orders-\d+/, 'orders-12')).toBe(true);
    expect(matchesWhole(/orders-\d+/, 'old-orders-12')).toBe(false);
    expect(matchesWhole(/a|b/, 'ab')).toBe(false);
  });

  it('parses sink.partitioner values', () => {
    expect(parseSinkPartitioner('Round-Robin')).toBe('round-robin');
    expect(() => parseSinkPartitioner('com.acme.MyPartitioner')).toThrow(/Could not find and instantiate partitioner class 'com.acme.MyPartitioner'/);
  });
});
