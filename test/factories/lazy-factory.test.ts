import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { isSinkFactory, isSourceFactory } from '../../src/factories/dynamic-table-factory.js';
import { FactoryNotLoadedError, LazyFactory, withFactoriesLoaded } from '../../src/factories/lazy-factory.js';

describe('lazily loaded factories', () => {
  it('look like their kinds before loading and refuse use until loaded', async () => {
    let loads = 0;
    const lazy = new LazyFactory({
      identifier: 'later',
      description: 'd',
      kinds: ['sink'],
      load: async () => {
        loads++;
        return { factoryIdentifier: 'later', requiredOptions: () => [], optionalOptions: () => [], createDynamicTableSink: () => 'built' as never };
      },
    });
    expect(isSinkFactory(lazy)).toBe(true);
    expect(isSourceFactory(lazy)).toBe(false);
    expect(() => lazy.requiredOptions()).toThrow(FactoryNotLoadedError);
    const result = await withFactoriesLoaded(() => (lazy as unknown as { createDynamicTableSink(): string }).createDynamicTableSink());
    expect(result).toBe('built');
    await lazy.ensureLoaded();
    expect(loads).toBe(1);
  });

  it('load kafka on first use from SQL, with its validation messages', async () => {
    const env = TableEnvironment.create({ mode: 'streaming' });
    await env.executeSql("CREATE TEMPORARY TABLE k (a INT) WITH ('connector' = 'kafka', 'topic' = 't', 'format' = 'json')");
    await expect(env.executeSql('SELECT * FROM k')).rejects.toThrow(/Missing required options are:\s+properties.bootstrap.servers/);
    await env.close();
  });
});
