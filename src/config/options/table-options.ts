import { ValidationError } from '../../errors/sluice-error.js';
import { isValidTimeZone } from '../../types/values/temporal.js';
import type { ReadableConfig } from '../configuration.js';
import { ConfigOptions } from '../config-options.js';

/** Table-layer and SQL client options (Flink's `TableConfigOptions`, `ExecutionConfigOptions`, `SqlClientOptions`). */
export const TableOptions = {
  TABLE_DML_SYNC: ConfigOptions.key('table.dml-sync')
    .booleanType()
    .defaultValue(false)
    .withDescription('Run INSERT statements synchronously: the statement returns when the job finishes.'),

  DISPLAY_MAX_COLUMN_WIDTH: ConfigOptions.key('table.display.max-column-width')
    .intType()
    .defaultValue(30)
    // Not 'sql-client.display.max-column-width': Flink 2.0 removed that key, and Flink 2.3's client ignores it.
    .withDescription('Longer cell values are cut and end in ... in tableau output.'),

  LOCAL_TIME_ZONE: ConfigOptions.key('table.local-time-zone')
    .stringType()
    .defaultValue('default')
    .withDescription("Zone for TIMESTAMP_LTZ display and conversions: an IANA name such as 'Europe/Berlin', an offset such as 'GMT+08:00', or 'default' for the system zone."),

  IDLE_STATE_RETENTION: ConfigOptions.key('table.exec.state.ttl')
    .durationType()
    .defaultValue(0)
    .withDescription('State of a key untouched for this long may be removed; 0 keeps state forever.'),

  MINI_BATCH_ENABLED: ConfigOptions.key('table.exec.mini-batch.enabled')
    .booleanType()
    .defaultValue(false)
    .withDescription('Buffer input records to reduce state access in aggregations.'),
  MINI_BATCH_ALLOW_LATENCY: ConfigOptions.key('table.exec.mini-batch.allow-latency')
    .durationType()
    .defaultValue(0)
    .withDescription('Maximum time records are buffered by mini-batching.'),
  MINI_BATCH_SIZE: ConfigOptions.key('table.exec.mini-batch.size')
    .longType()
    .defaultValue(-1)
    .withDescription('Maximum number of records buffered by mini-batching.'),

  AGG_PHASE_STRATEGY: ConfigOptions.key('table.optimizer.agg-phase-strategy')
    .enumType(['AUTO', 'ONE_PHASE', 'TWO_PHASE'])
    .defaultValue('AUTO')
    .withDescription(
      'How aggregates are planned. AUTO and TWO_PHASE split a TUMBLE / HOP / CUMULATE window aggregate on event time whose functions can merge into a local phase before the exchange (partial results per slice) and a global phase after it; ONE_PHASE keeps one aggregate after the exchange.',
    ),

  REUSE_SUB_PLAN_ENABLED: ConfigOptions.key('table.optimizer.reuse-sub-plan-enabled')
    .booleanType()
    .defaultValue(true)
    .withDescription(
      'Plan identical sub-plans once: a table read twice by a self-join or by the INSERTs of a statement set is read once and its rows fan out to every reader (EXPLAIN shows reuse_id / Reused).',
    ),

  REUSE_SOURCE_ENABLED: ConfigOptions.key('table.optimizer.reuse-source-enabled')
    .booleanType()
    .defaultValue(true)
    .withDescription(
      'Let sub-plan reuse share identical table source scans (and the exchanges right above them); only with table.optimizer.reuse-sub-plan-enabled.',
    ),

  SOURCE_IDLE_TIMEOUT: ConfigOptions.key('table.exec.source.idle-timeout')
    .durationType()
    .defaultValue(0)
    .withDescription('A source split without records for this long is marked idle so watermarks can advance; 0 disables.'),

  SINK_NOT_NULL_ENFORCER: ConfigOptions.key('table.exec.sink.not-null-enforcer')
    .enumType(['ERROR', 'DROP'])
    .defaultValue('ERROR')
    .withDescription('What to do with a NULL written into a NOT NULL sink column: fail (ERROR) or drop the row (DROP).'),

  SINK_KEYED_SHUFFLE: ConfigOptions.key('table.exec.sink.keyed-shuffle')
    .enumType(['NONE', 'AUTO', 'FORCE'])
    .defaultValue('AUTO')
    .withDescription(
      "Hash rows by the sink table's primary key before a sink of another parallelism than its input, so the changes of one key reach one sink subtask in order: AUTO when the parallelisms differ and the sink's is not 1, FORCE whenever the sink's is not 1, NONE never.",
    ),

  RESULT_MODE: ConfigOptions.key('sql-client.execution.result-mode')
    .enumType(['table', 'changelog', 'tableau'])
    .defaultValue('table')
    .withDeprecatedKeys('execution.result-mode')
    .withDescription('How the SQL client shows query results.'),

  MAX_TABLE_RESULT_ROWS: ConfigOptions.key('sql-client.execution.max-table-result.rows')
    .intType()
    .defaultValue(1_000_000)
    .withDescription('Rows kept for the table result view.'),

  VERBOSE: ConfigOptions.key('sql-client.verbose')
    .booleanType()
    .defaultValue(false)
    .withDescription('Print full stack traces of errors.'),
} as const;

/**
 * The zone `table.local-time-zone` names, with `default` resolved to the system zone.
 * @throws ValidationError with Flink's wording for unknown zones.
 */
export function resolveLocalTimeZone(conf: ReadableConfig): string {
  const zone = conf.get(TableOptions.LOCAL_TIME_ZONE);
  if (zone === 'default') return Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!isValidTimeZone(zone)) {
    throw new ValidationError(
      `The supported Zone ID is either a full name such as 'America/Los_Angeles', or a custom timezone id such as 'GMT-08:00', but configured Zone ID is '${zone}'.`,
    );
  }
  return zone;
}
