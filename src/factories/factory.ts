import type { ConfigOption } from '../config/config-option.js';

/**
 * Something that `'connector' = 'x'`, `'format' = 'x'` or a catalog's `'type' = 'x'` finds by its
 * identifier (Flink's `Factory`, FLIP-95). The options it declares are the whole contract with the user:
 * validation accepts exactly these keys (plus their fallback and deprecated keys) and nothing else.
 */
export interface Factory {
  /** Unique among factories of the same kind; matched case-sensitively, as in Flink. */
  readonly factoryIdentifier: string;
  /** Options the user must set; missing ones are reported together. */
  requiredOptions(): readonly ConfigOption<unknown>[];
  /** Options the user may set. */
  optionalOptions(): readonly ConfigOption<unknown>[];
  /**
   * Key prefixes accepted without declaration (e.g. `properties.` for Kafka client settings, `fields.`
   * for datagen); their keys are passed through to the factory as they are.
   */
  prefixesPassedThrough?(): readonly string[];
  /** One line for `sluice connectors`. */
  readonly description?: string;
}
