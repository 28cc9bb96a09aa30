import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

async function showCreateView(env: TableEnvironment, name: string): Promise<string> {
  for await (const row of (await env.executeSql(`SHOW CREATE VIEW ${name}`)).collect()) return String(row.fields[0]);
  throw new Error('no row');
}

async function withOrders(): Promise<TableEnvironment> {
  const env = TableEnvironment.create();
  await env.executeSql("CREATE TABLE o (a INT, b STRING, c AS coalesce(b, 'x')) WITH ('connector' = 'datagen', 'number-of-rows' = '3')");
  return env;
}

const HEAD = (name: string, columns: readonly string[]): string =>
  `CREATE VIEW \`default_catalog\`.\`default_database\`.\`${name}\` (\n${columns.map((c) => `  \`${c}\``).join(',\n')}\n)\n`;
const O = '`default_catalog`.`default_database`.`o`';

// The expected texts are what Flink 2.3.0's SQL client printed for the same views (scripts/flink-sql-client.sh).
describe('SHOW CREATE VIEW', () => {
  it("prints the query expanded as Flink stores it: '*' spelled out, columns qualified, tables by full name with an alias", async () => {
    const env = await withOrders();
    await env.executeSql('CREATE VIEW v1 AS SELECT * FROM o');
    expect(await showCreateView(env, 'v1')).toBe(`${HEAD('v1', ['a', 'b', 'c'])}AS SELECT \`o\`.\`a\`, \`o\`.\`b\`, \`o\`.\`c\`\nFROM ${O} AS \`o\`\n`);
    await env.executeSql('CREATE VIEW v2 AS SELECT a, b AS bb, upper(b), a + 1 FROM o WHERE a > 1');
    expect(await showCreateView(env, 'v2')).toBe(
      `${HEAD('v2', ['a', 'bb', 'EXPR$2', 'EXPR$3'])}AS SELECT \`o\`.\`a\`, \`o\`.\`b\` AS \`bb\`, UPPER(\`o\`.\`b\`), \`o\`.\`a\` + 1\nFROM ${O} AS \`o\`\nWHERE \`o\`.\`a\` > 1\n`,
    );
    await env.executeSql('CREATE VIEW v4 AS SELECT a, count(*) AS n FROM o GROUP BY a');
    expect(await showCreateView(env, 'v4')).toBe(`${HEAD('v4', ['a', 'n'])}AS SELECT \`o\`.\`a\`, COUNT(*) AS \`n\`\nFROM ${O} AS \`o\`\nGROUP BY \`o\`.\`a\`\n`);
    await env.executeSql('CREATE VIEW v6 AS SELECT a FROM o UNION ALL SELECT a FROM o');
    expect(await showCreateView(env, 'v6')).toBe(`${HEAD('v6', ['a'])}AS SELECT \`o\`.\`a\`\nFROM ${O} AS \`o\`\nUNION ALL\nSELECT \`o\`.\`a\`\nFROM ${O} AS \`o\`\n`);
    await env.executeSql("CREATE VIEW v10 AS SELECT a FROM default_catalog.default_database.o AS oo WHERE oo.b = 'x'");
    expect(await showCreateView(env, 'v10')).toBe(`${HEAD('v10', ['a'])}AS SELECT \`oo\`.\`a\`\nFROM ${O} AS \`oo\`\nWHERE \`oo\`.\`b\` = 'x'\n`);
    await env.executeSql('CREATE VIEW vv AS SELECT * FROM v1');
    expect(await showCreateView(env, 'vv')).toBe(
      `${HEAD('vv', ['a', 'b', 'c'])}AS SELECT \`v1\`.\`a\`, \`v1\`.\`b\`, \`v1\`.\`c\`\nFROM \`default_catalog\`.\`default_database\`.\`v1\` AS \`v1\`\n`,
    );
    await env.close();
  });

  it('qualifies joined tables by their aliases and subqueries in FROM by theirs', async () => {
    const env = await withOrders();
    await env.executeSql('CREATE VIEW v3 AS SELECT x.a, y.b FROM o x JOIN o y ON x.a = y.a');
    // Flink's Calcite writes INNER JOIN where Sluice's printer writes JOIN; the names are Flink's.
    expect(await showCreateView(env, 'v3')).toBe(`${HEAD('v3', ['a', 'b'])}AS SELECT \`x\`.\`a\`, \`y\`.\`b\`\nFROM ${O} AS \`x\`\nJOIN ${O} AS \`y\` ON \`x\`.\`a\` = \`y\`.\`a\`\n`);
    await env.executeSql('CREATE VIEW v5 AS SELECT * FROM (SELECT a, b FROM o) t');
    const v5 = await showCreateView(env, 'v5');
    expect(v5).toContain('AS SELECT `t`.`a`, `t`.`b`\nFROM (');
    expect(v5).toContain('SELECT `o`.`a`, `o`.`b`\nFROM `default_catalog`.`default_database`.`o` AS `o`');
    await env.close();
  });

  it('keeps the query as written when it has a shape the expansion does not resolve (WITH, subqueries in expressions)', async () => {
    const env = await withOrders();
    await env.executeSql('CREATE VIEW w AS WITH t AS (SELECT a FROM o) SELECT * FROM t');
    expect(await showCreateView(env, 'w')).toBe(`${HEAD('w', ['a'])}AS WITH \`t\` AS (\nSELECT \`a\`\nFROM \`o\`\n)\nSELECT *\nFROM \`t\`\n`);
    await env.executeSql('CREATE VIEW s AS SELECT a FROM o WHERE a IN (SELECT a FROM o)');
    expect(await showCreateView(env, 's')).toBe(`${HEAD('s', ['a'])}AS SELECT \`a\`\nFROM \`o\`\nWHERE \`a\` IN (SELECT \`a\`\nFROM \`o\`)\n`);
    await env.close();
  });

  it('reads the tables it was created over whatever the current database is when it is used, as in Flink', async () => {
    const env = await withOrders();
    await env.executeSql('CREATE VIEW v AS SELECT * FROM o');
    await env.executeSql('CREATE DATABASE db2');
    await env.executeSql('USE db2');
    await env.executeSql("CREATE TABLE o (z BOOLEAN) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
    const result = await env.executeSql('SELECT * FROM default_database.v');
    expect(result.getResolvedSchema().columnNames()).toEqual(['a', 'b', 'c']);
    let rows = 0;
    for await (const row of result.collect()) {
      expect(row.fields).toHaveLength(3);
      rows++;
    }
    expect(rows).toBe(3);
    await env.close();
  });
});
