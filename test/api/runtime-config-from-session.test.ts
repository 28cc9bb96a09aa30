import { describe, expect, it } from 'vitest';
import { runtimeConfigFromSession } from '../../src/api/runtime-config-from-session.js';
import { Configuration } from '../../src/config/configuration.js';
import { RestartStrategy } from '../../src/runtime/restart-strategy.js';

const quiet = { logger: { warn: () => {} } };

describe('runtime settings from the session configuration', () => {
  it('reads Flink keys, durations and deprecated fallbacks through the typed options', () => {
    const c = runtimeConfigFromSession(
      new Configuration(
        {
          'execution.checkpointing.interval': '10 s',
          'execution.checkpointing.mode': 'at_least_once',
          'execution.checkpointing.min-pause': '500ms',
          'state.checkpoints.dir': '/tmp/cp',
          'execution.savepoint.path': '/tmp/sp/savepoint-1',
          'execution.savepoint.ignore-unclaimed-state': 'true',
          'restart-strategy.type': 'fixed-delay',
          'restart-strategy.fixed-delay.attempts': '3',
          'restart-strategy.fixed-delay.delay': '2 s',
          'source.reader.element.queue.capacity': '5',
        },
        quiet,
      ),
    );
    expect(c.checkpointIntervalMs).toBe(10_000);
    expect(c.checkpointingMode).toBe('AT_LEAST_ONCE');
    expect(c.checkpointMinPauseMs).toBe(500);
    expect(c.checkpointDir).toBe('/tmp/cp');
    expect(c.restorePath).toBe('/tmp/sp/savepoint-1');
    expect(c.ignoreUnclaimedState).toBe(true);
    expect(c.restartStrategy).toEqual({ kind: 'fixed-delay', attempts: 3, delayMs: 2000 });
    expect(c.elementQueueCapacity).toBe(5);
  });

  it('takes incremental checkpoints only when asked, on an on-disk backend, streaming, with a checkpoint directory', () => {
    const incremental = (conf: Record<string, string>): boolean | undefined => {
      const sb = runtimeConfigFromSession(new Configuration(conf, quiet)).stateBackend;
      return sb.type === 'lmdb' ? sb.incremental : undefined;
    };
    const on = { 'state.backend.type': 'rocksdb', 'state.backend.incremental': 'true', 'execution.checkpointing.dir': '/tmp/cp' };
    expect(incremental(on)).toBe(true);
    expect(incremental({ ...on, 'state.backend.incremental': 'false' })).toBe(false);
    expect(incremental({ 'state.backend.type': 'lmdb', 'execution.checkpointing.dir': '/tmp/cp' })).toBe(false);
    // Without a directory a checkpoint is kept in memory alone, and batch mode writes none: a delta's base would be gone.
    expect(incremental({ 'state.backend.type': 'rocksdb', 'state.backend.incremental': 'true' })).toBe(false);
    expect(incremental({ ...on, 'execution.runtime-mode': 'batch' })).toBe(false);
    expect(incremental({ ...on, 'state.backend.type': 'hashmap' })).toBeUndefined();
  });

  it('refuses state no operator claims unless told otherwise', () => {
    expect(runtimeConfigFromSession(new Configuration({}, quiet)).ignoreUnclaimedState).toBe(false);
    expect(runtimeConfigFromSession(new Configuration({ 'execution.state-recovery.ignore-unclaimed-state': 'true' }, quiet)).ignoreUnclaimedState).toBe(true);
  });

  it('defaults to no restarts without checkpointing and exponential-delay with it', () => {
    expect(runtimeConfigFromSession(new Configuration({}, quiet)).restartStrategy.kind).toBe('none');
    expect(runtimeConfigFromSession(new Configuration({ 'execution.checkpointing.interval': '1 min' }, quiet)).restartStrategy.kind).toBe('exponential-delay');
  });

  it('rejects unknown values and names the key', () => {
    expect(() => runtimeConfigFromSession(new Configuration({ 'execution.runtime-mode': 'fast' }, quiet))).toThrow(/execution.runtime-mode/);
    expect(() => runtimeConfigFromSession(new Configuration({ 'restart-strategy.type': 'sometimes' }, quiet))).toThrow(/restart-strategy.type/);
    expect(() => runtimeConfigFromSession(new Configuration({ 'execution.checkpointing.interval': '10 parsecs' }, quiet))).toThrow(/execution.checkpointing.interval/);
  });
});

describe('RestartStrategy', () => {
  it('fixed-delay allows the configured number of attempts', () => {
    const s = new RestartStrategy({ kind: 'fixed-delay', attempts: 2, delayMs: 7 });
    expect([s.onFailure(), s.onFailure(), s.onFailure()]).toEqual([7, 7, undefined]);
  });

  it('exponential-delay grows up to the maximum', () => {
    const s = new RestartStrategy({ kind: 'exponential-delay', initialBackoffMs: 100, maxBackoffMs: 300, multiplier: 2, jitterFactor: 0, maxAttempts: 10 }, () => 0.5);
    expect([s.onFailure(), s.onFailure(), s.onFailure(), s.onFailure()]).toEqual([100, 200, 300, 300]);
  });

  it('failure-rate gives up after too many failures in the interval', () => {
    const s = new RestartStrategy({ kind: 'failure-rate', maxFailuresPerInterval: 2, intervalMs: 1000, delayMs: 5 });
    expect([s.onFailure(0), s.onFailure(10), s.onFailure(20)]).toEqual([5, 5, undefined]);
    expect(s.onFailure(5000)).toBe(5);
  });

  it('none never restarts', () => {
    expect(new RestartStrategy({ kind: 'none' }).onFailure()).toBeUndefined();
  });
});
