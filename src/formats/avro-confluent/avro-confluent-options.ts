import { ConfigOptions } from '../../config/config-options.js';

/**
 * Options of `'format' = 'avro-confluent'` (Flink's AvroConfluentFormatOptions), keys after `avro-confluent.`
 * (or `key.avro-confluent.` / `value.avro-confluent.`).
 */
export const AvroConfluentOptions = {
  URL: ConfigOptions.key('url')
    .stringType()
    .noDefaultValue()
    .withDescription('The URL of the Confluent Schema Registry to fetch/register schemas (with Apicurio: its /apis/ccompat/v7 endpoint).')
    .withFallbackKeys('schema-registry.url'),
  SUBJECT: ConfigOptions.key('subject')
    .stringType()
    .noDefaultValue()
    .withDescription(
      "The subject under which to register the schema used by this format during serialization. 'kafka' and 'upsert-kafka' " +
        "default to '<topic>-value' or '<topic>-key'; other connectors require it for serialization.",
    )
    .withFallbackKeys('schema-registry.subject'),
  SCHEMA: ConfigOptions.key('schema')
    .stringType()
    .noDefaultValue()
    .withDescription(
      'The schema registered or to be registered in the registry. If not set, the schema is derived from the table. ' +
        'It must encode the table exactly as the derived schema does (names, docs and namespaces may differ).',
    )
    .withFallbackKeys('schema-registry.schema'),
  PROPERTIES: ConfigOptions.key('properties')
    .mapType()
    .noDefaultValue()
    .withDescription(
      "Properties forwarded to the registry client (also written 'properties.<key>'); Sluice reads basic.auth.credentials.source, " +
        'basic.auth.user.info, bearer.auth.credentials.source and bearer.auth.token. Explicit format options win.',
    ),
  BASIC_AUTH_CREDENTIALS_SOURCE: ConfigOptions.key('basic-auth.credentials-source')
    .stringType()
    .noDefaultValue()
    .withDescription("Basic auth credentials source for the registry; Sluice supports 'USER_INFO' (and 'URL' with user:password in the url)."),
  BASIC_AUTH_USER_INFO: ConfigOptions.key('basic-auth.user-info')
    .stringType()
    .noDefaultValue()
    .withDescription("Basic auth user info for the registry, 'user:password'."),
  BEARER_AUTH_CREDENTIALS_SOURCE: ConfigOptions.key('bearer-auth.credentials-source')
    .stringType()
    .noDefaultValue()
    .withDescription("Bearer auth credentials source for the registry; Sluice supports 'STATIC_TOKEN'."),
  BEARER_AUTH_TOKEN: ConfigOptions.key('bearer-auth.token').stringType().noDefaultValue().withDescription('Bearer auth token for the registry.'),
  SSL_KEYSTORE_LOCATION: ConfigOptions.key('ssl.keystore.location')
    .stringType()
    .noDefaultValue()
    .withDescription('Client certificate and key for the registry, a PKCS#12 file (Java keystores in JKS format are not readable by Node).'),
  SSL_KEYSTORE_PASSWORD: ConfigOptions.key('ssl.keystore.password').stringType().noDefaultValue().withDescription('Password of the keystore.'),
  SSL_TRUSTSTORE_LOCATION: ConfigOptions.key('ssl.truststore.location')
    .stringType()
    .noDefaultValue()
    .withDescription('CA certificates to trust for the registry, a PEM file.'),
  SSL_TRUSTSTORE_PASSWORD: ConfigOptions.key('ssl.truststore.password')
    .stringType()
    .noDefaultValue()
    .withDescription('Password of the truststore (unused: a PEM truststore has none).'),
} as const;
