import { ConfigOption } from '../../config/config-option.js';
import { ConfigOptions } from '../../config/config-options.js';
import { FactoryOptions } from '../../factories/factory-options.js';

/**
 * Options of `'connector' = 'datagen'` (Flink's DataGenConnectorOptions). The `fields.#.*` entries are
 * templates for documentation: the factory derives concrete `fields.<column>.<option>` options from the
 * schema and each column's kind, so an option that does not apply to a column (e.g. `start` on a random
 * field) is reported as unsupported.
 */
export const DataGenOptions = {
  ROWS_PER_SECOND: ConfigOptions.key('rows-per-second')
    .longType()
    .defaultValue(10000)
    .withDescription('Rows per second to control the emit rate (shared by all parallel readers).'),
  NUMBER_OF_ROWS: ConfigOptions.key('number-of-rows')
    .longType()
    .noDefaultValue()
    .withDescription('Total number of rows to emit. By default, the table is unbounded.'),
  SOURCE_PARALLELISM: FactoryOptions.SCAN_PARALLELISM,
  FIELD_KIND: ConfigOptions.key('fields.#.kind')
    .stringType()
    .defaultValue('random')
    .withDescription("Generator of this '#' field: 'random' or 'sequence'."),
  FIELD_MIN: ConfigOptions.key('fields.#.min').stringType().noDefaultValue().withDescription("Minimum value of a random generator (numeric types)."),
  FIELD_MAX: ConfigOptions.key('fields.#.max').stringType().noDefaultValue().withDescription('Maximum value of a random generator (numeric types).'),
  FIELD_MAX_PAST: ConfigOptions.key('fields.#.max-past')
    .durationType()
    .noDefaultValue()
    .withDescription('Maximum past of a random timestamp/date generator, relative to the current time.'),
  FIELD_LENGTH: ConfigOptions.key('fields.#.length')
    .intType()
    .noDefaultValue()
    .withDescription('Size or length of the collection for generating varchar/varbinary/string/bytes/array/map/multiset types.'),
  FIELD_VAR_LEN: ConfigOptions.key('fields.#.var-len')
    .booleanType()
    .defaultValue(false)
    .withDescription('Whether to generate variable-length data (VARCHAR/STRING/VARBINARY/BYTES only).'),
  FIELD_START: ConfigOptions.key('fields.#.start').stringType().noDefaultValue().withDescription('Start value of a sequence generator.'),
  FIELD_END: ConfigOptions.key('fields.#.end').stringType().noDefaultValue().withDescription('End value of a sequence generator.'),
  FIELD_NULL_RATE: ConfigOptions.key('fields.#.null-rate')
    .floatType()
    .defaultValue(0)
    .withDescription('The proportion of null values (0 to 1).'),
} as const;

/** The field-level template keys (`fields.#.x`) by their option suffix. */
export type FieldOptionName = 'kind' | 'min' | 'max' | 'max-past' | 'length' | 'var-len' | 'start' | 'end' | 'null-rate';

const TEMPLATES: Record<FieldOptionName, ConfigOption<unknown>> = {
  kind: DataGenOptions.FIELD_KIND,
  min: DataGenOptions.FIELD_MIN,
  max: DataGenOptions.FIELD_MAX,
  'max-past': DataGenOptions.FIELD_MAX_PAST,
  length: DataGenOptions.FIELD_LENGTH,
  'var-len': DataGenOptions.FIELD_VAR_LEN,
  start: DataGenOptions.FIELD_START,
  end: DataGenOptions.FIELD_END,
  'null-rate': DataGenOptions.FIELD_NULL_RATE,
};

/** The concrete option `fields.<field>.<name>` with the template's type, default and description. */
export function fieldOption(field: string, name: FieldOptionName): ConfigOption<unknown> {
  const t = TEMPLATES[name];
  return new ConfigOption<unknown>(
    `fields.${field}.${name}`,
    t.type,
    t.defaultValue,
    t.hasDefaultValue,
    t.description,
  );
}
