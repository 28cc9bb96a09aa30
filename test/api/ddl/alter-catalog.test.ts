import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';

const envs: TableEnvironment[] = [];
afterEach(async () => {
  for (const e of envs.splice(0)) await e.close();
});

function env(): TableEnvironment {
  const e = TableEnvironment.create({ baseDir: mkdtempSync(join(tmpdir(), 'sluice-alter-catalog-')) });
  envs.push(e);
  return e;
}

async function rows(e: TableEnvironment, sql: string): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const r of (await e.executeSql(sql)).collect()) out.push([...r.fields]);
  return out;
}

describe('DESCRIBE CATALOG through the TableEnvironment', () => {
  it("returns Flink's info rows: name, type, comment, and with EXTENDED the options", async () => {
    const e = env();
    await e.executeSql("CREATE CATALOG cat2 COMMENT 'for tests' WITH ('type' = 'generic_in_memory', 'default-database' = 'db')");
    const result = await e.executeSql('DESCRIBE CATALOG cat2');
    expect(result.getResolvedSchema().columnNames()).toEqual(['info name', 'info value']);
    expect(await rows(e, 'DESC CATALOG cat2')).toEqual([
      ['name', 'cat2'],
      ['type', 'generic_in_memory'],
      ['comment', 'for tests'],
    ]);
    expect((await rows(e, 'DESCRIBE CATALOG EXTENDED cat2')).at(-1)).toEqual(['option:default-database', 'db']);
    expect(await rows(e, 'SHOW CREATE CATALOG cat2')).toEqual([
      ["CREATE CATALOG `cat2`\nCOMMENT 'for tests'\nWITH (\n  'default-database' = 'db',\n  'type' = 'generic_in_memory'\n)\n"],
    ]);
  });

  it("refuses a catalog without a definition with Flink's message, and says why for the session's own", async () => {
    const e = env();
    await expect(e.executeSql('DESCRIBE CATALOG nope')).rejects.toThrow('Cannot obtain metadata information from Catalog nope.');
    await expect(e.executeSql('SHOW CREATE CATALOG default_catalog')).rejects.toThrow(
      /^Cannot obtain metadata information from Catalog default_catalog\. It was not created by CREATE CATALOG/,
    );
  });
});

describe('ALTER CATALOG', () => {
  it('SET and RESET change the options the catalog is built from; COMMENT its comment', async () => {
    const e = env();
    await e.executeSql("CREATE CATALOG cat2 WITH ('type' = 'generic_in_memory', 'default-database' = 'db')");
    await e.executeSql("ALTER CATALOG cat2 SET ('default-database' = 'db_new')");
    expect(await rows(e, 'SHOW DATABASES FROM cat2')).toEqual([['db_new']]);
    await e.executeSql("ALTER CATALOG cat2 RESET ('default-database', 'k1')");
    // generic_in_memory's own default database, as in Flink.
    expect(await rows(e, 'SHOW DATABASES FROM cat2')).toEqual([['default']]);
    await e.executeSql("ALTER CATALOG cat2 COMMENT 'comment for catalog ''cat2'''");
    expect((await rows(e, 'DESCRIBE CATALOG cat2'))[2]).toEqual(['comment', "comment for catalog 'cat2'"]);
    await e.executeSql("ALTER CATALOG cat2 COMMENT ''");
    expect((await rows(e, 'DESCRIBE CATALOG cat2'))[2]).toEqual(['comment', '']);
  });

  it('builds an in-memory catalog anew, as Flink does: what it held is gone, and a warning says so', async () => {
    const e = env();
    const warnings: string[] = [];
    e.onWarning((m) => warnings.push(m));
    await e.executeSql("CREATE CATALOG m WITH ('type' = 'generic_in_memory')");
    await e.executeSql("ALTER CATALOG m COMMENT 'empty'");
    expect(warnings).toEqual([]);
    await e.executeSql("CREATE TABLE m.`default`.t (a INT) WITH ('connector' = 'datagen')");
    await e.executeSql("ALTER CATALOG m COMMENT 'new'");
    expect(await rows(e, 'SHOW TABLES FROM m.`default`')).toEqual([]);
    expect(warnings).toEqual([
      "ALTER CATALOG built the in-memory catalog 'm' anew from its changed definition, as Flink does: the databases, tables, views and functions it held are gone.",
    ]);
  });

  it("points a file catalog at another directory, and back to the tables of the first", async () => {
    const e = env();
    const first = mkdtempSync(join(tmpdir(), 'sluice-fc-a-'));
    const second = mkdtempSync(join(tmpdir(), 'sluice-fc-b-'));
    await e.executeSql(`CREATE CATALOG fc WITH ('type' = 'file', 'path' = '${first}')`);
    await e.executeSql("CREATE TABLE fc.default_database.t (a INT) WITH ('connector' = 'datagen')");
    await e.executeSql(`ALTER CATALOG fc SET ('path' = '${second}', 'default-database' = 'other')`);
    expect(await rows(e, 'SHOW DATABASES FROM fc')).toEqual([['other']]);
    expect(readdirSync(second)).toEqual(['other']);
    await e.executeSql(`ALTER CATALOG fc RESET ('default-database')`);
    await e.executeSql(`ALTER CATALOG fc SET ('path' = '${first}')`);
    expect(await rows(e, 'SHOW TABLES FROM fc.default_database')).toEqual([['t']]);
  });

  it("refuses RESET of nothing and of 'type' with Flink's messages, before looking the catalog up", async () => {
    const e = env();
    await expect(e.executeSql('ALTER CATALOG nope RESET ()')).rejects.toThrow('ALTER CATALOG RESET does not support empty key');
    await expect(e.executeSql("ALTER CATALOG nope RESET ('type')")).rejects.toThrow("ALTER CATALOG RESET does not support changing 'type'");
  });

  it('names the statement when the catalog has no definition, with the reason as its cause', async () => {
    const e = env();
    const err = await e.executeSql("ALTER CATALOG nope SET ('k' = 'v', 'password' = 'x')").catch((x: unknown) => x as Error);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe("Could not execute ALTER CATALOG nope\n  SET 'k' = 'v',\n  SET 'password' = '******'");
    expect((err.cause as Error).message).toBe('Catalog nope does not exist in the catalog store.');
    await expect(e.executeSql("ALTER CATALOG default_catalog COMMENT 'x'")).rejects.toThrow("Could not execute ALTER CATALOG default_catalog COMMENT 'x'");
  });

  it('keeps the catalog as it was when the new options are refused', async () => {
    const e = env();
    await e.executeSql("CREATE CATALOG m WITH ('type' = 'generic_in_memory')");
    await e.executeSql("CREATE TABLE m.`default`.t (a INT) WITH ('connector' = 'datagen')");
    await expect(e.executeSql("ALTER CATALOG m SET ('defualt-database' = 'x')")).rejects.toThrow(
      /Unable to create catalog 'm'[\s\S]*Unsupported options found for 'generic_in_memory'[\s\S]*'defualt-database': did you mean 'default-database'\?/,
    );
    expect(await rows(e, 'SHOW TABLES FROM m.`default`')).toEqual([['t']]);
    expect((await rows(e, 'DESCRIBE CATALOG EXTENDED m')).length).toBe(3);
  });
});
