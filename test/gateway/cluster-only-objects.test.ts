// The shadow session of --endpoint with Java functions: statements that call one are left to the cluster, the
// rest is still validated by Sluice. Nothing here reaches a gateway (validateForCluster never sends).
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { ClusterOnlyObjects } from '../../src/gateway/cluster-only-objects.js';
import { ClusterRefusalError } from '../../src/gateway/gateway-error.js';
import { parseStatement } from '../../src/sql/parse.js';

let env: TableEnvironment | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** A shadow that never sends: the port is closed, and validateForCluster opens no session. */
function shadow(): (sql: string) => Promise<void> {
  env = TableEnvironment.create({ endpoint: 'http://127.0.0.1:9' });
  const e = env;
  return (sql) => e.validateForCluster(parseStatement(sql));
}

const NUMS = "CREATE TEMPORARY TABLE nums (n BIGINT, s STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3')";

describe('validateForCluster with Java functions', () => {
  it('leaves a statement that calls a Java function to the cluster, and still checks every other statement', async () => {
    const check = shadow();
    await check(NUMS);
    await check("ADD JAR '/opt/udfs/shout.jar'");
    await check("CREATE TEMPORARY FUNCTION shout AS 'com.example.Shout' LANGUAGE JAVA");
    // Sluice cannot know shout's signature: the cluster types and checks these.
    await check('SELECT SHOUT(s), shout(n) FROM nums');
    await check('SELECT shout(no_such_column) FROM nums');
    await check('EXPLAIN SELECT x FROM (SELECT shout(s) AS x FROM nums)');
    // Everything else is Sluice's, as before.
    await expect(check('SELECT s2 FROM nums')).rejects.toThrow("Column 's2' not found");
    await expect(check('SELECT whisper(s) FROM nums')).rejects.toThrow(/whisper/i);
    await expect(check("CREATE TEMPORARY TABLE p (a INT) WITH ('connector' = 'nexmark')")).rejects.toThrow(ClusterRefusalError);
  });

  it('views and tables built on a Java function, and INSERTs calling it, are the cluster\'s too, until dropped', async () => {
    const check = shadow();
    await check(NUMS);
    await check("CREATE FUNCTION shout AS 'com.example.Shout' USING JAR '/opt/udfs/shout.jar'");
    await check('CREATE TEMPORARY VIEW loud AS SELECT shout(s) AS x FROM nums');
    await check('SELECT x, y FROM loud');
    await check('ALTER VIEW loud RENAME TO louder');
    await check('SELECT x FROM louder');
    await check('DROP TEMPORARY VIEW louder');
    await expect(check('SELECT x FROM louder')).rejects.toThrow(/louder/);
    // A table created from a query on it, and INSERTs that call it, are the cluster's as well.
    await check("CREATE TABLE shouted WITH ('connector' = 'blackhole') AS SELECT shout(s) AS x FROM nums");
    await check('SELECT x FROM shouted');
    await check("CREATE TEMPORARY TABLE out_t (x STRING) WITH ('connector' = 'blackhole')");
    await check('INSERT INTO out_t SELECT shout(s) FROM nums');
    await expect(check('INSERT INTO out_t SELECT nope FROM nums')).rejects.toThrow("Column 'nope' not found");
    await check('DROP FUNCTION shout');
    await expect(check('SELECT shout(s) FROM nums')).rejects.toThrow(/shout/i);
  });

  it('takes a class name without LANGUAGE for Java, as Flink does, and still refuses JavaScript up front', async () => {
    const check = shadow();
    await check("CREATE TEMPORARY SYSTEM FUNCTION shout AS 'com.example.Shout'");
    await check('SELECT shout(1)');
    await expect(check("CREATE TEMPORARY FUNCTION twice AS './udf.mjs#twice'")).rejects.toThrow("Function 'twice' cannot run on a Flink cluster: it is written in JavaScript");
    await expect(check("CREATE TEMPORARY FUNCTION twice AS 'udfs' LANGUAGE JAVASCRIPT")).rejects.toThrow(ClusterRefusalError);
  });
});

describe('ClusterOnlyObjects.referencedBy', () => {
  const name = (...parts: string[]) => ({ parts, pos: { line: 1, column: 1, offset: 0 } });
  const objects = new ClusterOnlyObjects();
  objects.addFunction(name('cat', 'db', 'Shout'));
  objects.addTable(name('loud'));

  it('finds calls in any clause, case-insensitively, and names of views built on them', () => {
    expect(objects.referencedBy(parseStatement('SELECT 1 FROM t WHERE `shout`(a) > 0'))).toEqual({ kind: 'function', name: 'shout' });
    expect(objects.referencedBy(parseStatement('INSERT INTO s SELECT * FROM t, LATERAL TABLE(SHOUT(a))'))).toEqual({ kind: 'function', name: 'SHOUT' });
    expect(objects.referencedBy(parseStatement('SELECT * FROM cat.db.loud'))).toEqual({ kind: 'table', name: 'loud' });
  });

  it('ignores the name where it is not a call, and in strings', () => {
    expect(objects.referencedBy(parseStatement('SELECT shout FROM t'))).toBeUndefined();
    expect(objects.referencedBy(parseStatement("SELECT 'shout(1)', 'loud' FROM t"))).toBeUndefined();
  });
});
