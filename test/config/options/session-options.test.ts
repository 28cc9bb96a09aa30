import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors/sluice-error.js';
import { Configuration } from '../../../src/config/configuration.js';
import {
  CheckpointingOptions,
  ExecutionOptions,
  findSessionOption,
  resolveLocalTimeZone,
  resolveRestartStrategy,
  RestartStrategyOptions,
  SESSION_OPTIONS,
  sessionOptionKeys,
  suggestSessionKeys,
  TableOptions,
  validateSessionOption,
  validateSessionOptions,
} from '../../../src/config/options/index.js';

function conf(entries: Record<string, string>, warnings: string[] = []): Configuration {
  return new Configuration(entries, { logger: { warn: (m) => warnings.push(m) } });
}

describe('session option defaults (Flink)', () => {
  it('has Flink defaults', () => {
    const c = conf({});
    expect(c.get(ExecutionOptions.RUNTIME_MODE)).toBe('streaming');
    // Unset, not Flink's 1: the planner then chooses per job (planner/default-parallelism.ts, docs/differences-from-flink.md).
    expect(c.get(ExecutionOptions.PARALLELISM)).toBeUndefined();
    expect(c.get(ExecutionOptions.WORKER_THREADS)).toBe('auto');
    expect(c.get(ExecutionOptions.PIPELINE_NAME)).toBeUndefined();
    expect(c.get(CheckpointingOptions.CHECKPOINTING_INTERVAL)).toBeUndefined();
    expect(c.get(CheckpointingOptions.CHECKPOINTING_MODE)).toBe('EXACTLY_ONCE');
    expect(c.get(CheckpointingOptions.CHECKPOINTING_TIMEOUT)).toBe(600_000);
    expect(c.get(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS)).toBe(0);
    expect(c.get(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS)).toBe(1);
    expect(c.get(TableOptions.TABLE_DML_SYNC)).toBe(false);
    expect(c.get(TableOptions.DISPLAY_MAX_COLUMN_WIDTH)).toBe(30);
    expect(c.get(TableOptions.LOCAL_TIME_ZONE)).toBe('default');
    expect(c.get(TableOptions.IDLE_STATE_RETENTION)).toBe(0);
    expect(c.get(TableOptions.MINI_BATCH_ENABLED)).toBe(false);
    expect(c.get(TableOptions.RESULT_MODE)).toBe('table');
    expect(c.get(TableOptions.VERBOSE)).toBe(false);
  });

  it('reads old checkpoint keys and warns for the deprecated savepoint path', () => {
    const warnings: string[] = [];
    const c = conf(
      { 'state.checkpoints.dir': 'file:///chk', 'state.savepoints.dir': '/sp', 'execution.savepoint.path': '/sp/savepoint-1', 'execution.runtime-mode': 'BATCH' },
      warnings,
    );
    // Flink's file: URI is read as the local path it names.
    expect(c.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).toBe('/chk');
    expect(c.get(CheckpointingOptions.SAVEPOINT_DIRECTORY)).toBe('/sp');
    expect(warnings).toHaveLength(0);
    expect(c.get(CheckpointingOptions.SAVEPOINT_PATH)).toBe('/sp/savepoint-1');
    expect(warnings).toEqual([
      "Config uses deprecated configuration key 'execution.savepoint.path' instead of proper key 'execution.state-recovery.path'",
    ]);
    expect(c.get(ExecutionOptions.RUNTIME_MODE)).toBe('batch');
  });
});

describe('restart strategy', () => {
  it('defaults to none without checkpointing and exponential-delay with it', () => {
    expect(resolveRestartStrategy(conf({}))).toEqual({ kind: 'none' });
    expect(resolveRestartStrategy(conf({ 'execution.checkpointing.interval': '10 s' }))).toEqual({
      kind: 'exponential-delay',
      initialBackoffMs: 1000,
      maxBackoffMs: 60_000,
      backoffMultiplier: 1.5,
      resetBackoffThresholdMs: 3_600_000,
      jitterFactor: 0.1,
      attemptsBeforeResetBackoff: 2147483647,
    });
  });

  it('reads fixed-delay and failure-rate settings', () => {
    expect(
      resolveRestartStrategy(conf({ 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': '3', 'restart-strategy.fixed-delay.delay': '5 s' })),
    ).toEqual({ kind: 'fixed-delay', attempts: 3, delayMs: 5000 });
    expect(resolveRestartStrategy(conf({ 'restart-strategy.type': 'failure-rate' }))).toEqual({
      kind: 'failure-rate',
      maxFailuresPerInterval: 1,
      failureRateIntervalMs: 60_000,
      delayMs: 1000,
    });
    expect(() => resolveRestartStrategy(conf({ 'restart-strategy.type': 'sometimes' }))).toThrow(
      "Invalid value for option 'restart-strategy.type': 'sometimes'. Expected one of [none, fixed-delay, failure-rate, exponential-delay].",
    );
    expect(RestartStrategyOptions.FIXED_DELAY_DELAY.defaultValue).toBe(1000);
  });
});

describe('local time zone', () => {
  it('resolves default to the system zone and rejects unknown zones', () => {
    expect(resolveLocalTimeZone(conf({}))).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(resolveLocalTimeZone(conf({ 'table.local-time-zone': 'Asia/Shanghai' }))).toBe('Asia/Shanghai');
    expect(resolveLocalTimeZone(conf({ 'table.local-time-zone': 'GMT+08:00' }))).toBe('GMT+08:00');
    expect(() => resolveLocalTimeZone(conf({ 'table.local-time-zone': 'Mars/Olympus' }))).toThrow(/configured Zone ID is 'Mars\/Olympus'/);
  });
});

describe('session option registry', () => {
  it('lists every option once and finds them by any key', () => {
    const keys = sessionOptionKeys();
    expect(new Set(keys).size).toBe(SESSION_OPTIONS.length);
    expect(keys).toContain('execution.checkpointing.interval');
    expect(keys).toContain('sql-client.execution.result-mode');
    expect(findSessionOption('state.checkpoints.dir')?.key).toBe('execution.checkpointing.dir');
    expect(findSessionOption('execution.savepoint.path')?.key).toBe('execution.state-recovery.path');
    expect(findSessionOption('connector')).toBeUndefined();
  });

  it('validates SET values of known keys and lets unknown keys through', () => {
    expect(validateSessionOption('parallelism.default', '4')).toEqual({ known: true });
    expect(validateSessionOption('my.custom.key', 'anything')).toEqual({ known: false });
    expect(() => validateSessionOption('sql-client.execution.result-mode', 'fancy')).toThrow(
      "Invalid value for option 'sql-client.execution.result-mode': 'fancy'. Expected one of [table, changelog, tableau].",
    );
    expect(() => validateSessionOptions({ 'parallelism.default': 'x', 'table.dml-sync': 'maybe' })).toThrow(ValidationError);
    try {
      validateSessionOptions({ 'parallelism.default': 'x', 'table.dml-sync': 'maybe' });
    } catch (e) {
      expect((e as Error).message.split('\n')).toHaveLength(2);
    }
  });

  it('suggests keys for typos', () => {
    expect(suggestSessionKeys('parallelism.defualt')[0]).toBe('parallelism.default');
    expect(suggestSessionKeys('table.dml-synk')).toContain('table.dml-sync');
    expect(suggestSessionKeys('completely.unrelated.thing')).toEqual([]);
  });
});

describe('sql-client.display.max-column-width', () => {
  it('is no longer read, as Flink 2.0 removed it: Flink 2.3.0 prints width 30 with only it set, the new key alone decides', () => {
    expect(conf({ 'sql-client.display.max-column-width': '12' }).get(TableOptions.DISPLAY_MAX_COLUMN_WIDTH)).toBe(30);
    expect(conf({ 'sql-client.display.max-column-width': '14', 'table.display.max-column-width': '20' }).get(TableOptions.DISPLAY_MAX_COLUMN_WIDTH)).toBe(20);
    expect(findSessionOption('sql-client.display.max-column-width')).toBeUndefined();
  });
});
