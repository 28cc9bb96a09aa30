import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import type { ConsoleIO } from '../../src/cli/console-io.js';
import { printResult } from '../../src/cli/result-printer.js';

/** What the client prints for one statement, in tableau mode as `sluice -f` and the REPL print it. */
async function printed(env: TableEnvironment, sql: string, output: 'tableau' | 'jsonl' = 'tableau'): Promise<string> {
  let out = '';
  const io: ConsoleIO = { out: (t) => void (out += t), err: (t) => void (out += t), isTTY: false };
  await printResult(await env.executeSql(sql), io, { output, maxColumnWidth: 30 });
  return out;
}

/** The one-cell `result` table Flink 2.3's SQL client prints for EXPLAIN and SHOW CREATE (scripts/flink-sql-client.sh). */
function resultTable(text: string, width = text.length): string {
  const border = `+-${'-'.repeat(width)}-+`;
  return [border, `| ${'result'.padStart(width)} |`, border, `| ${text} |`, border, '1 row in set', ''].join('\n');
}

describe('EXPLAIN and SHOW CREATE in the client', () => {
  it('print a one-row table with one `result` column as wide as the whole text, newlines counted, never cut', async () => {
    const env = TableEnvironment.create();
    await env.executeSql("CREATE TABLE t (a INT) WITH ('connector' = 'datagen')");
    const ddl = "CREATE TABLE `default_catalog`.`default_database`.`t` (\n  `a` INT\n)\nWITH (\n  'connector' = 'datagen'\n)\n";
    expect(await printed(env, 'SHOW CREATE TABLE t')).toBe(resultTable(ddl));
    const plan = String((await (await env.executeSql('EXPLAIN SELECT a FROM t')).collect().next()).value?.fields[0]);
    expect(plan.length).toBeGreaterThan(30);
    expect(await printed(env, 'EXPLAIN SELECT a FROM t')).toBe(resultTable(plan));
    await env.close();
  });

  it('count a wide character as two columns, as Flink does', async () => {
    const env = TableEnvironment.create();
    const plan = String((await (await env.executeSql("EXPLAIN SELECT '中文' AS x")).collect().next()).value?.fields[0]);
    expect(await printed(env, "EXPLAIN SELECT '中文' AS x")).toBe(resultTable(plan, plan.length + 2 * (plan.split('中文').length - 1)));
    await env.close();
  });

  it('print the text as a `result` field in jsonl output', async () => {
    const env = TableEnvironment.create();
    const out = await printed(env, 'EXPLAIN SELECT 1', 'jsonl');
    expect(Object.keys(JSON.parse(out) as object)).toEqual(['result']);
    await env.close();
  });
});
