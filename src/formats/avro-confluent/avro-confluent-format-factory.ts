import { readFileSync } from 'node:fs';
import type { ConfigOption } from '../../config/config-option.js';
import { ConfigOptions } from '../../config/config-options.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableFactoryContext } from '../../factories/dynamic-table-factory.js';
import type {
  DecodingFormat,
  DecodingFormatFactory,
  DeserializationSchema,
  EncodingFormat,
  EncodingFormatFactory,
  SerializationSchema,
} from '../../factories/format.js';
import type { RowType } from '../../types/logical-type.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { avroSchemaOf } from '../avro/avro-schema.js';
import { AvroConfluentDecoder, AvroConfluentEncoder } from './avro-confluent-codec.js';
import { AvroConfluentOptions as O } from './avro-confluent-options.js';
import { AvroSchemaParseError, avroLayout, parseAvroSchema } from './avro-schema-model.js';
import { SchemaRegistryClient, type SchemaRegistryConfig } from './schema-registry-client.js';

/** The registry connection the format options describe: URL, auth headers, TLS material. */
export function registryConfigOf(o: ReadableConfig): SchemaRegistryConfig {
  let url = o.get(O.URL);
  if (url === undefined) throw new ValidationError("Option 'url' of the 'avro-confluent' format is required.");
  const props = o.get(O.PROPERTIES) ?? {};
  const prop = (k: string): string | undefined => props[k] ?? o.getOptional(propertyOption(k));
  const headers: Record<string, string> = {};
  const basicSource = (o.get(O.BASIC_AUTH_CREDENTIALS_SOURCE) ?? prop('basic.auth.credentials.source'))?.toUpperCase();
  const userInfo = o.get(O.BASIC_AUTH_USER_INFO) ?? prop('basic.auth.user.info');
  if (basicSource === 'URL') {
    const u = new URL(url.split(',')[0]!.trim());
    if (u.username !== '') headers['Authorization'] = basic(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`);
    url = url.replace(/\/\/[^@/]*@/g, '//');
  } else if (basicSource === undefined || basicSource === 'USER_INFO') {
    if (userInfo !== undefined) headers['Authorization'] = basic(userInfo);
  } else {
    throw new ValidationError(`Unsupported 'basic-auth.credentials-source' '${basicSource}' for the 'avro-confluent' format; use USER_INFO or URL.`);
  }
  const bearerSource = (o.get(O.BEARER_AUTH_CREDENTIALS_SOURCE) ?? prop('bearer.auth.credentials.source'))?.toUpperCase();
  const token = o.get(O.BEARER_AUTH_TOKEN) ?? prop('bearer.auth.token');
  if (bearerSource !== undefined && bearerSource !== 'STATIC_TOKEN') {
    throw new ValidationError(`Unsupported 'bearer-auth.credentials-source' '${bearerSource}' for the 'avro-confluent' format; use STATIC_TOKEN.`);
  }
  if (token !== undefined) headers['Authorization'] = `Bearer ${token}`;
  const trust = o.get(O.SSL_TRUSTSTORE_LOCATION);
  const keystore = o.get(O.SSL_KEYSTORE_LOCATION);
  let ca: string | undefined;
  if (trust !== undefined) {
    ca = readFileSync(trust, 'utf8');
    if (!ca.includes('-----BEGIN')) throw new ValidationError(`'ssl.truststore.location' '${trust}' is not a PEM file; Sluice reads CA certificates in PEM only.`);
  }
  return {
    url,
    headers,
    ...(ca === undefined ? {} : { ca }),
    ...(keystore === undefined ? {} : { pfx: readFileSync(keystore).toString('base64'), passphrase: o.get(O.SSL_KEYSTORE_PASSWORD) ?? '' }),
  };
}

function basic(userInfo: string): string {
  return `Basic ${Buffer.from(userInfo, 'utf8').toString('base64')}`;
}

// `properties.<key>` written as separate table options (passed through by prefixesPassedThrough).
function propertyOption(k: string): ConfigOption<string | undefined> {
  return ConfigOptions.key(`properties.${k}`).stringType().noDefaultValue();
}

/**
 * The subject Flink's Kafka factories fill in when none is given: `<topic>-key` for the key format,
 * `<topic>-value` for the value format, for a table on exactly one topic. `format` is the identifier of
 * the format asking (`avro-confluent`, `debezium-avro-confluent`).
 */
export function defaultSubject(ctx: DynamicTableFactoryContext, physicalType: RowType, format = 'avro-confluent'): string | undefined {
  const opts = ctx.table.options;
  if (opts['connector'] !== 'kafka' && opts['connector'] !== 'upsert-kafka') return undefined;
  const topic = opts['topic'];
  if (topic === undefined || topic.includes(';')) return undefined;
  const isKey = opts['key.format'] === format;
  const isValue = (opts['value.format'] ?? opts['format']) === format;
  if (isKey && isValue) {
    // Both use this format: the key's physical type has exactly the key columns.
    const keyFields = (opts['key.fields'] ?? '').split(';').map((f) => f.trim());
    const names = physicalType.fields.map((f) => f.name);
    const sameAsKey = names.length === keyFields.length && names.every((n, i) => n === keyFields[i]);
    return `${topic}-${sameAsKey ? 'key' : 'value'}`;
  }
  if (isKey) return `${topic}-key`;
  if (isValue) return `${topic}-value`;
  return undefined;
}

/**
 * The registry client of a format, made on first use. Why not at once: connectors create formats before
 * they validate the table's options, and a missing 'url' must be reported by that validation, with every
 * other mistake; connection options that are present but wrong are still reported here, at planning.
 */
function registryClient(o: ReadableConfig): () => SchemaRegistryClient {
  let client: SchemaRegistryClient | undefined;
  const make = (): SchemaRegistryClient => (client ??= new SchemaRegistryClient(registryConfigOf(o)));
  if (o.get(O.URL) !== undefined) make();
  return make;
}

/**
 * What the registry-backed Avro formats share (Flink's RegistryAvroFormatFactory and
 * DebeziumAvroFormatFactory): options, the registry client, the subject, the `schema` option check.
 * Subclasses say which rows go in a message and how they map to table rows.
 */
export abstract class RegistryAvroFormatFactory implements DecodingFormatFactory, EncodingFormatFactory {
  abstract readonly factoryIdentifier: string;
  abstract readonly description: string;

  /** The changelog the format reads and writes. */
  protected abstract changelogMode(): ChangelogMode;
  /** The row type a message's Avro record holds for the table's physical type (its schema is registered). */
  protected abstract messageType(physicalType: RowType): RowType;
  protected abstract decoder(physicalType: RowType, client: SchemaRegistryClient): DeserializationSchema;
  protected abstract encoder(physicalType: RowType, client: SchemaRegistryClient, subject: string, schemaText: string): SerializationSchema;

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [O.URL];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return Object.values(O).filter((o) => o !== O.URL) as ConfigOption<unknown>[];
  }

  prefixesPassedThrough(): readonly string[] {
    return ['properties.'];
  }

  createDecodingFormat(_ctx: DynamicTableFactoryContext, o: ReadableConfig): DecodingFormat {
    const client = registryClient(o);
    return {
      createRuntimeDecoder: (physicalType: RowType) => this.decoder(physicalType, client()),
      getChangelogMode: () => this.changelogMode(),
    };
  }

  createEncodingFormat(ctx: DynamicTableFactoryContext, o: ReadableConfig): EncodingFormat {
    const client = registryClient(o);
    const userSchema = o.get(O.SCHEMA);
    const id = this.factoryIdentifier;
    return {
      createRuntimeEncoder: (physicalType: RowType) => {
        const subject = o.get(O.SUBJECT) ?? defaultSubject(ctx, physicalType, id);
        if (subject === undefined) {
          throw new ValidationError(
            `Option '${id}.subject' is not set. It is required for serialization, except with the 'kafka' and 'upsert-kafka' ` +
              "connectors on one topic, which default it to '<topic>-value' or '<topic>-key'.",
          );
        }
        const derived = JSON.stringify(avroSchemaOf(this.messageType(physicalType)));
        return this.encoder(physicalType, client(), subject, userSchema === undefined ? derived : checkedUserSchema(id, userSchema, derived));
      },
      getChangelogMode: () => this.changelogMode(),
    };
  }
}

/**
 * `'format' = 'avro-confluent'`: Avro records in Confluent's wire format (magic byte, schema id, body), the
 * writer schema fetched from a Confluent-compatible schema registry by id, the table's schema registered
 * under a subject when writing (Flink's RegistryAvroFormatFactory).
 */
export class AvroConfluentFormatFactory extends RegistryAvroFormatFactory {
  readonly factoryIdentifier = 'avro-confluent';
  readonly description = "Avro in Confluent's wire format with a schema registry (Confluent or Apicurio's ccompat API); insert-only.";

  protected changelogMode(): ChangelogMode {
    return ChangelogMode.insertOnly();
  }

  protected messageType(physicalType: RowType): RowType {
    return physicalType;
  }

  protected decoder(physicalType: RowType, client: SchemaRegistryClient): DeserializationSchema {
    return new AvroConfluentDecoder(physicalType, client);
  }

  protected encoder(physicalType: RowType, client: SchemaRegistryClient, subject: string, schemaText: string): SerializationSchema {
    return new AvroConfluentEncoder(physicalType, client, subject, schemaText);
  }
}

/** The user's `schema` if it writes the table's rows exactly as the derived schema would. */
function checkedUserSchema(format: string, user: string, derived: string): string {
  let layout: string;
  try {
    layout = avroLayout(parseAvroSchema(user));
  } catch (e) {
    if (e instanceof AvroSchemaParseError) throw new ValidationError(`Option '${format}.schema' is not a valid Avro schema: ${e.message}`);
    throw e;
  }
  const expected = avroLayout(parseAvroSchema(derived));
  if (layout !== expected) {
    throw new ValidationError(
      `The schema in '${format}.schema' does not match the table's schema: it must have the same fields, in the same order, with the same types and nullability.\n` +
        `Schema derived from the table: ${derived}`,
    );
  }
  return user;
}
