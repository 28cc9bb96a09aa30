import { ConfigOptions } from '../../config/config-options.js';
import type { ConfigOption } from '../../config/config-option.js';
import { JsonOptions } from '../../formats/json/json-options.js';

/**
 * Options of `CREATE CATALOG c WITH ('type' = 'pravega', ...)`, with the keys of Flink's PravegaCatalogFactoryOptions.
 * `security.*` goes to the Pravega client and to the registry; `json.*` to the tables' `pravega-registry` format.
 */
export const PravegaCatalogOptions = {
  DEFAULT_DATABASE: ConfigOptions.key('default-database')
    .stringType()
    .noDefaultValue()
    .withDescription('The scope USE CATALOG switches to; it must exist.'),
  CONTROLLER_URI: ConfigOptions.key('controller-uri').stringType().noDefaultValue().withDescription('Pravega controller URI, e.g. tcp://localhost:9090.'),
  SCHEMA_REGISTRY_URI: ConfigOptions.key('schema-registry-uri')
    .stringType()
    .noDefaultValue()
    .withDescription('Pravega Schema Registry URI, e.g. http://localhost:9092.'),
  SERIALIZATION_FORMAT: ConfigOptions.key('serialization.format')
    .enumType(['Avro', 'Json'])
    .defaultValue('Avro')
    .withDescription("Format of the schemas CREATE TABLE registers and of the events INSERT writes: 'Avro' or 'Json'."),
  SECURITY_AUTH_TYPE: ConfigOptions.key('security.auth-type').stringType().noDefaultValue().withDescription("Static authentication type, e.g. 'Basic'."),
  SECURITY_AUTH_TOKEN: ConfigOptions.key('security.auth-token').stringType().noDefaultValue().withDescription('Static authentication token (secret).'),
  SECURITY_VALIDATE_HOSTNAME: ConfigOptions.key('security.validate-hostname').booleanType().defaultValue(true).withDescription('Validate the TLS host name.'),
  SECURITY_TRUST_STORE: ConfigOptions.key('security.trust-store').stringType().noDefaultValue().withDescription('TLS trust store: a PEM file of CA certificates.'),
} as const;

/** The JSON format options a catalog passes to its tables, under `json.` as in Flink's catalog. */
export const PRAVEGA_CATALOG_JSON_OPTIONS: readonly ConfigOption<unknown>[] = [
  JsonOptions.FAIL_ON_MISSING_FIELD,
  JsonOptions.IGNORE_PARSE_ERRORS,
  JsonOptions.TIMESTAMP_FORMAT,
  JsonOptions.MAP_NULL_KEY_MODE,
  JsonOptions.MAP_NULL_KEY_LITERAL,
  JsonOptions.ENCODE_DECIMAL_AS_PLAIN_NUMBER,
].map((o) => ConfigOptions.key(`json.${o.key}`).stringType().noDefaultValue().withDescription(`The tables' '${o.key}' JSON option (see the json format).`));
