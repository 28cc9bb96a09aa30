import { describe, expect, it } from 'vitest';
import { Configuration } from '../../../src/config/configuration.js';
import type { DynamicTableFactoryContext } from '../../../src/factories/dynamic-table-factory.js';
import { ValidationError } from '../../../src/errors/sluice-error.js';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import { notNull } from '../../../src/types/logical-type.js';
import {
  AvroConfluentFormatFactory,
  defaultSubject,
  registryConfigOf,
} from '../../../src/formats/avro-confluent/avro-confluent-format-factory.js';

const ctxWith = (options: Record<string, string>): DynamicTableFactoryContext => ({ table: { options } }) as unknown as DynamicTableFactoryContext;
const keyType = DataTypes.ROW(FIELD('id', notNull(DataTypes.BIGINT())));
const valueType = DataTypes.ROW(FIELD('id', notNull(DataTypes.BIGINT())), FIELD('name', DataTypes.STRING()));

describe('avro-confluent subject defaults (as Flink fills them for kafka and upsert-kafka)', () => {
  it("uses '<topic>-value' for the value format and '<topic>-key' for the key format", () => {
    expect(defaultSubject(ctxWith({ connector: 'kafka', topic: 't', format: 'avro-confluent' }), valueType)).toBe('t-value');
    expect(defaultSubject(ctxWith({ connector: 'upsert-kafka', topic: 't', 'key.format': 'avro-confluent', 'value.format': 'json' }), keyType)).toBe('t-key');
  });

  it('tells key from value by the key columns when both use avro-confluent', () => {
    const ctx = ctxWith({ connector: 'kafka', topic: 't', 'key.format': 'avro-confluent', 'key.fields': 'id', 'value.format': 'avro-confluent' });
    expect(defaultSubject(ctx, keyType)).toBe('t-key');
    expect(defaultSubject(ctx, valueType)).toBe('t-value');
  });

  it('has no default for other connectors or several topics, and then serialization requires the option', () => {
    expect(defaultSubject(ctxWith({ connector: 'kafka', topic: 'a;b', format: 'avro-confluent' }), valueType)).toBeUndefined();
    const ctx = ctxWith({ connector: 'filesystem', format: 'avro-confluent' });
    expect(defaultSubject(ctx, valueType)).toBeUndefined();
    const format = new AvroConfluentFormatFactory().createEncodingFormat(ctx, new Configuration({ url: 'http://127.0.0.1:1' }));
    expect(() => format.createRuntimeEncoder(valueType)).toThrow(/'avro-confluent.subject' is not set/);
    // Decoding never needs a subject.
    expect(() => new AvroConfluentFormatFactory().createDecodingFormat(ctx, new Configuration({ url: 'http://127.0.0.1:1' })).createRuntimeDecoder(valueType)).not.toThrow();
  });
});

describe("avro-confluent 'schema' option", () => {
  const make = (schema: object) =>
    new AvroConfluentFormatFactory()
      .createEncodingFormat(ctxWith({}), new Configuration({ url: 'http://127.0.0.1:1', subject: 's', schema: JSON.stringify(schema) }))
      .createRuntimeEncoder(valueType);

  it('accepts a schema that encodes the table the same way under other names', () => {
    expect(() =>
      make({ type: 'record', name: 'User', namespace: 'com.example', doc: 'd', fields: [{ name: 'user_id', type: 'long' }, { name: 'n', type: ['null', 'string'], default: null }] }),
    ).not.toThrow();
  });

  it('rejects a schema whose encoding differs from the table (order of a union, a type)', () => {
    expect(() => make({ type: 'record', name: 'U', fields: [{ name: 'id', type: 'long' }, { name: 'name', type: ['string', 'null'] }] })).toThrow(ValidationError);
    expect(() => make({ type: 'record', name: 'U', fields: [{ name: 'id', type: 'int' }, { name: 'name', type: ['null', 'string'] }] })).toThrow(/does not match the table's schema/);
  });
});

describe('avro-confluent registry connection options', () => {
  it('sends basic auth from user-info (also given as a forwarded property) and a bearer token', () => {
    expect(registryConfigOf(new Configuration({ url: 'http://r', 'basic-auth.credentials-source': 'USER_INFO', 'basic-auth.user-info': 'u:p' })).headers).toEqual({
      Authorization: `Basic ${Buffer.from('u:p').toString('base64')}`,
    });
    expect(registryConfigOf(new Configuration({ url: 'http://r', 'properties.basic.auth.user.info': 'a:b' })).headers['Authorization']).toBe(
      `Basic ${Buffer.from('a:b').toString('base64')}`,
    );
    expect(registryConfigOf(new Configuration({ url: 'http://r', 'bearer-auth.credentials-source': 'STATIC_TOKEN', 'bearer-auth.token': 'tok' })).headers).toEqual({
      Authorization: 'Bearer tok',
    });
  });

  it("takes basic credentials from the URL with credentials-source 'URL' and strips them from the URL", () => {
    const c = registryConfigOf(new Configuration({ url: 'http://u:p%40ss@host:8081/x', 'basic-auth.credentials-source': 'URL' }));
    expect(c.url).toBe('http://host:8081/x');
    expect(c.headers['Authorization']).toBe(`Basic ${Buffer.from('u:p@ss').toString('base64')}`);
  });

  it('rejects unsupported credential sources and a non-PEM truststore', () => {
    expect(() => registryConfigOf(new Configuration({ url: 'http://r', 'basic-auth.credentials-source': 'SASL_INHERIT' }))).toThrow(/USER_INFO or URL/);
    expect(() => registryConfigOf(new Configuration({ url: 'http://r', 'ssl.truststore.location': new URL(import.meta.url).pathname }))).toThrow(/not a PEM file/);
  });
});

describe('avro-confluent in SQL', () => {
  it("is found by 'format', reports a missing 'url' and a misspelt option as table-option errors", async () => {
    const { TableEnvironment } = await import('../../../src/api/table-environment.js');
    const env = TableEnvironment.create({ mode: 'batch' });
    try {
      const base = `'connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = '127.0.0.1:1', 'format' = 'avro-confluent'`;
      await env.executeSql(`CREATE TEMPORARY TABLE a (x INT) WITH (${base})`);
      await expect(env.executeSql('SELECT * FROM a')).rejects.toThrow(/Missing required options[\s\S]*avro-confluent\.url/);
      await env.executeSql(`CREATE TEMPORARY TABLE b (x INT) WITH (${base}, 'avro-confluent.url' = 'http://r', 'avro-confluent.propertie.x' = '1')`);
      await expect(env.executeSql('SELECT * FROM b')).rejects.toThrow(/Unsupported options[\s\S]*avro-confluent\.propertie\.x/);
    } finally {
      await env.close();
    }
  });
});
