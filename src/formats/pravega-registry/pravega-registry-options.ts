import { ConfigOptions } from '../../config/config-options.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { JsonOptions } from '../json/json-options.js';

/** The serialization formats the `pravega-registry` format reads and writes. */
export type RegistryFormat = 'Avro' | 'Json';

/**
 * Options of `'format' = 'pravega-registry'` (Flink's PravegaRegistryOptions), written after the `pravega-registry.`
 * prefix in a table's options. The JSON options apply when the group's events are JSON.
 */
export const PravegaRegistryOptions = {
  URI: ConfigOptions.key('uri').stringType().noDefaultValue().withDescription('URI of the Pravega Schema Registry, e.g. http://localhost:9092.'),
  NAMESPACE: ConfigOptions.key('namespace')
    .stringType()
    .noDefaultValue()
    .withDescription("The registry namespace of the group; the Pravega catalog uses the stream's scope."),
  GROUP_ID: ConfigOptions.key('group-id').stringType().noDefaultValue().withDescription("The registry group of the stream's schemas; the Pravega catalog uses the stream's name."),
  FORMAT: ConfigOptions.key('format')
    .enumType(['Avro', 'Json'])
    .defaultValue('Avro')
    .withDescription("How rows are written: 'Avro' or 'Json'. Reading follows each event's own encoding id."),
  SECURITY_AUTH_TYPE: ConfigOptions.key('security.auth-type').stringType().noDefaultValue().withDescription("Authentication to the registry, e.g. 'Basic' (sent as 'Authorization: <type> <token>')."),
  SECURITY_AUTH_TOKEN: ConfigOptions.key('security.auth-token').stringType().noDefaultValue().withDescription('Authentication token to the registry (secret).'),
  FAIL_ON_MISSING_FIELD: JsonOptions.FAIL_ON_MISSING_FIELD,
  IGNORE_PARSE_ERRORS: JsonOptions.IGNORE_PARSE_ERRORS,
  TIMESTAMP_FORMAT: JsonOptions.TIMESTAMP_FORMAT,
  MAP_NULL_KEY_MODE: JsonOptions.MAP_NULL_KEY_MODE,
  MAP_NULL_KEY_LITERAL: JsonOptions.MAP_NULL_KEY_LITERAL,
  ENCODE_DECIMAL_AS_PLAIN_NUMBER: JsonOptions.ENCODE_DECIMAL_AS_PLAIN_NUMBER,
} as const;

/** Where the format finds its group, as read from the options. */
export interface RegistryLocation {
  readonly uri: string;
  readonly namespace: string;
  readonly group: string;
  readonly headers: Readonly<Record<string, string>>;
}

export function readRegistryLocation(o: ReadableConfig): RegistryLocation {
  const O = PravegaRegistryOptions;
  const need = (value: string | undefined, key: string): string => {
    if (value === undefined || value.trim() === '') throw new ValidationError(`Option 'pravega-registry.${key}' is required by the 'pravega-registry' format.`);
    return value;
  };
  const type = o.get(O.SECURITY_AUTH_TYPE);
  const token = o.get(O.SECURITY_AUTH_TOKEN);
  if ((type === undefined) !== (token === undefined)) {
    throw new ValidationError("'pravega-registry.security.auth-type' and 'pravega-registry.security.auth-token' go together; only one of them is set.");
  }
  return {
    uri: need(o.get(O.URI), 'uri'),
    namespace: need(o.get(O.NAMESPACE), 'namespace'),
    group: need(o.get(O.GROUP_ID), 'group-id'),
    headers: type === undefined || token === undefined ? {} : { Authorization: `${type} ${token}` },
  };
}
