import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src/cli/args.js';
import { ClusterRefusalError } from '../../src/gateway/gateway-error.js';
import { checkRunnableOnCluster, clusterAdvice } from '../../src/gateway/cluster-refusals.js';
import { parseStatement } from '../../src/sql/parse.js';

const check = (sql: string): void => checkRunnableOnCluster(parseStatement(sql));

describe('checkRunnableOnCluster', () => {
  it('refuses JavaScript functions, naming the function and why', () => {
    expect(() => check("CREATE TEMPORARY FUNCTION twice AS './udf.js#twice'")).toThrow(ClusterRefusalError);
    expect(() => check("CREATE FUNCTION f AS 'f.mjs'")).toThrow("Function 'f' cannot run on a Flink cluster: it is written in JavaScript ('f.mjs')");
    expect(() => check("CREATE FUNCTION f AS 'com.example.F' LANGUAGE JAVA")).not.toThrow();
  });

  it('refuses connectors and formats only Sluice has, also behind EXPLAIN and in ALTER TABLE', () => {
    expect(() => check("CREATE TABLE p (a INT) WITH ('connector' = 'pravega')")).toThrow("Table 'p' cannot run on a Flink cluster: its connector 'pravega' exists only in Sluice.");
    expect(() => check("CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'path' = '/x', 'format' = 'arrow')")).toThrow("its format 'arrow' ('format') exists only in Sluice");
    expect(() => check("CREATE TABLE k (a INT) WITH ('connector' = 'kafka', 'key.format' = 'json', 'value.format' = 'ARROW')")).toThrow(ClusterRefusalError);
    expect(() => check("ALTER TABLE t SET ('connector' = 'nexmark')")).toThrow("Table 't' cannot run on a Flink cluster");
    expect(() => check("CREATE CATALOG c WITH ('type' = 'file')")).toThrow("Catalog 'c' cannot run on a Flink cluster: its type 'file' exists only in Sluice");
    expect(() => check("CREATE CATALOG p WITH ('type' = 'pravega', 'controller-uri' = 'tcp://h:9090')")).toThrow("released for Flink 1.x only");
  });

  it('lets through what Flink has', () => {
    for (const connector of ['kafka', 'upsert-kafka', 'filesystem', 'datagen', 'print', 'blackhole']) {
      expect(() => check(`CREATE TABLE t (a INT) WITH ('connector' = '${connector}', 'format' = 'json')`)).not.toThrow();
    }
    expect(() => check('SELECT 1')).not.toThrow();
  });
});

describe('--endpoint on the command line', () => {
  it('takes -e and --endpoint', () => {
    expect(parseCliArgs(['-e', 'http://127.0.0.1:8083', '-f', 'x.sql'])).toMatchObject({ kind: 'run', endpoint: 'http://127.0.0.1:8083', file: 'x.sql' });
  });

  it('refuses flags a cluster cannot honour, saying what to do instead', () => {
    expect(() => parseCliArgs(['-e', 'http://h:8083', '--resume', 'ck'])).toThrow("SET 'execution.state-recovery.path'");
    expect(() => parseCliArgs(['-e', 'http://h:8083', '--catalog-dir', 'c'])).toThrow('--catalog-dir cannot be combined with --endpoint');
    expect(() => parseCliArgs(['-e', 'http://h:8083', '--web'])).toThrow('--web cannot be combined with --endpoint');
  });
});

describe('clusterAdvice', () => {
  it("warns about an exactly-once Kafka sink without Sluice's 15 min transaction timeout, which a broker would refuse", () => {
    const eo = "CREATE TABLE k (a INT) WITH ('connector' = 'kafka', 'topic' = 't', 'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once'";
    expect(clusterAdvice(parseStatement(`${eo})`))).toContain("add 'properties.transaction.timeout.ms' = '900000'");
    expect(clusterAdvice(parseStatement(`${eo}, 'properties.transaction.timeout.ms' = '600000')`))).toBeUndefined();
    expect(clusterAdvice(parseStatement("CREATE TABLE k (a INT) WITH ('connector' = 'kafka', 'topic' = 't', 'format' = 'json')"))).toBeUndefined();
  });
});
