import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';

describe('USE catalog.database', () => {
  let env: TableEnvironment | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  /** SHOW CURRENT CATALOG and SHOW CURRENT DATABASE, as `catalog.database`. */
  const inUse = async (e: TableEnvironment): Promise<string> => {
    const one = async (sql: string): Promise<string> => {
      const out: unknown[] = [];
      for await (const r of (await e.executeSql(sql)).collect()) out.push(r.fields[0]);
      return String(out[0]);
    };
    return `${await one('SHOW CURRENT CATALOG')}.${await one('SHOW CURRENT DATABASE')}`;
  };

  it('changes nothing when the database does not exist: the catalog and the database in use stay as they were', async () => {
    env = TableEnvironment.create();
    await env.executeSql("CREATE CATALOG c1 WITH ('type' = 'generic_in_memory')");
    await env.executeSql('CREATE DATABASE default_catalog.db2');
    await env.executeSql('USE db2');
    await expect(env.executeSql('USE c1.missing')).rejects.toThrow('A database with name [missing] does not exist in the catalog: [c1].');
    expect(await inUse(env)).toBe('default_catalog.db2');
  });

  it('switches both when the database exists', async () => {
    env = TableEnvironment.create();
    await env.executeSql("CREATE CATALOG c1 WITH ('type' = 'generic_in_memory')");
    await env.executeSql('CREATE DATABASE c1.d');
    await env.executeSql('USE c1.d');
    expect(await inUse(env)).toBe('c1.d');
  });
});
