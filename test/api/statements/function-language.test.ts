import { afterEach, describe, expect, it } from 'vitest';
import { functionLanguage } from '../../../src/api/statements/function-language.js';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import type { CreateFunctionStatement } from '../../../src/sql/ast/ddl.js';
import { parseStatement } from '../../../src/sql/parse.js';

const language = (sql: string): string | undefined => functionLanguage(parseStatement(sql) as CreateFunctionStatement);

describe('functionLanguage', () => {
  it('is the LANGUAGE clause, else JavaScript for a module path, Java for a class with USING JAR, open otherwise', () => {
    expect(language("CREATE FUNCTION f AS 'com.example.F' LANGUAGE SCALA")).toBe('SCALA');
    expect(language("CREATE FUNCTION f AS './udf.js'")).toBe('JAVASCRIPT');
    expect(language("CREATE FUNCTION f AS 'udfs.mjs#f'")).toBe('JAVASCRIPT');
    expect(language("CREATE FUNCTION f AS '/opt/udfs/f'")).toBe('JAVASCRIPT');
    expect(language("CREATE FUNCTION f AS 'com.example.F' USING JAR 'f.jar'")).toBe('JAVA');
    expect(language("CREATE FUNCTION f AS 'com.example.F'")).toBeUndefined();
  });
});

describe('Java functions in a local session', () => {
  let env: TableEnvironment | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it('are refused naming the statement, pointing to --endpoint', async () => {
    env = TableEnvironment.create();
    await expect(env.executeSql("CREATE TEMPORARY FUNCTION shout AS 'com.example.Shout' LANGUAGE JAVA")).rejects.toThrow(
      "CREATE FUNCTION shout AS 'com.example.Shout' (LANGUAGE JAVA) cannot run locally: Sluice runs JavaScript functions only (CREATE FUNCTION shout AS './module.js#export'). Run the statements on a Flink cluster that loads 'com.example.Shout' from the jar ADD JAR or USING JAR names: sluice --endpoint <SQL Gateway URL>",
    );
    await expect(env.executeSql("CREATE FUNCTION shout AS 'com.example.Shout' USING JAR '/opt/shout.jar'")).rejects.toThrow('(LANGUAGE JAVA) cannot run locally');
    await expect(env.executeSql("CREATE FUNCTION up AS 'udfs.up' LANGUAGE PYTHON")).rejects.toThrow("on a Flink cluster with Flink's Python support: sluice --endpoint");
    await expect(env.executeSql("ADD JAR '/opt/shout.jar'")).rejects.toThrow("ADD JAR '/opt/shout.jar' cannot run locally: Sluice loads no Java code");
  });

  it('a class name without LANGUAGE is taken for a module, and its error says how to run a Java class', async () => {
    env = TableEnvironment.create();
    await expect(env.executeSql("CREATE TEMPORARY FUNCTION shout AS 'com.example.Shout'")).rejects.toThrow(
      "If 'com.example.Shout' is a Java class, declare it LANGUAGE JAVA and run it on a Flink cluster with --endpoint.",
    );
  });
});
