import { ConfigOptions } from '../config-options.js';

/** How materialized tables get their freshness and refresh mode (Flink 2.3's `MaterializedTableConfigOptions`). */
export const MaterializedTableOptions = {
  FRESHNESS_THRESHOLD: ConfigOptions.key('materialized-table.refresh-mode.freshness-threshold')
    .durationType()
    .defaultValue(30 * 60_000)
    .withDescription(
      'A materialized table without REFRESH_MODE runs in CONTINUOUS mode when its FRESHNESS is below this threshold, and in FULL mode otherwise.',
    ),

  DEFAULT_FRESHNESS_CONTINUOUS: ConfigOptions.key('materialized-table.default-freshness.continuous')
    .durationType()
    .defaultValue(3 * 60_000)
    .withDescription('The freshness of a CONTINUOUS materialized table (or one without REFRESH_MODE) defined without FRESHNESS.'),

  DEFAULT_FRESHNESS_FULL: ConfigOptions.key('materialized-table.default-freshness.full')
    .durationType()
    .defaultValue(60 * 60_000)
    .withDescription('The freshness of a materialized table with REFRESH_MODE = FULL defined without FRESHNESS.'),
};
