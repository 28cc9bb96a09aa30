import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * `sluice -f` points at the culprit of a validation error: Calcite's "From line L, column C to line L,
 * column C2" in the message, then the file's line with the culprit underlined. Runs the built bundle.
 */
const bin = join(import.meta.dirname, '..', '..', 'dist', 'bundle', 'bin.js');
const run = promisify(execFile);

const PRELUDE =
  "SET 'execution.runtime-mode' = 'batch';\n" +
  "CREATE TEMPORARY TABLE orders (id INT, name STRING, amount DOUBLE) WITH ('connector' = 'datagen', 'number-of-rows' = '1');\n" +
  "CREATE TEMPORARY TABLE sink (id INT, name STRING, amount DOUBLE) WITH ('connector' = 'blackhole');\n";

/** Runs PRELUDE + `sql` as job.sql and returns what follows `[ERROR]`, with the exit code. */
async function failure(sql: string): Promise<{ code: number; error: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-pos-'));
  writeFileSync(join(dir, 'job.sql'), PRELUDE + sql);
  try {
    const { stdout } = await run(process.execPath, [bin, '-f', 'job.sql'], { cwd: dir, timeout: 60_000 });
    return { code: 0, error: stdout };
  } catch (e) {
    const err = e as { code?: number; stdout?: string };
    const out = err.stdout ?? '';
    return { code: err.code ?? -1, error: out.slice(out.indexOf('[ERROR]')) };
  }
}

function block(kind: string, message: string, ...where: string[]): string {
  return `[ERROR] Could not execute SQL statement. Reason:\n${kind}: ${message}\n${where.join('\n')}\n`;
}

describe('validation errors point at the culprit', () => {
  it('an unknown column, with a did-you-mean', async () => {
    const r = await failure('SELECT id,\n       nme\n  FROM orders;\n');
    expect(r.code).toBe(1);
    expect(r.error).toBe(
      block(
        'ValidationError',
        "From line 5, column 8 to line 5, column 10: Column 'nme' not found in any table; did you mean 'name'?",
        '  --> job.sql:5:8',
        '5 |        nme',
        '           ^^^',
      ),
    );
  });

  it('a comparison whose operand types do not fit', async () => {
    const r = await failure("SELECT id FROM orders WHERE id > DATE '2020-01-01';\n");
    expect(r.error).toBe(
      block(
        'ValidationError',
        "From line 4, column 29 to line 4, column 50: Cannot apply '>' to arguments of type '<INTEGER> > <DATE>'",
        '  --> job.sql:4:29',
        "4 | SELECT id FROM orders WHERE id > DATE '2020-01-01';",
        '                                ^^^^^^^^^^^^^^^^^^^^^^',
      ),
    );
  });

  it('a function call with the wrong number of arguments, and with an argument of the wrong type', async () => {
    expect((await failure('SELECT UPPER(name, 1) FROM orders;\n')).error).toBe(
      block(
        'ValidationError',
        "From line 4, column 8 to line 4, column 21: Invalid number of arguments to function 'UPPER'. Was expecting 1 arguments",
        '  --> job.sql:4:8',
        '4 | SELECT UPPER(name, 1) FROM orders;',
        '           ^^^^^^^^^^^^^^',
      ),
    );
    const wrongType = await failure('SELECT id, ABS(name) AS a FROM orders;\n');
    expect(wrongType.error).toContain("PlanningError: From line 4, column 12 to line 4, column 20: Cannot apply 'ABS' to arguments of type 'ABS(<VARCHAR(2147483647)>)'.");
    expect(wrongType.error).toContain('  --> job.sql:4:12\n4 | SELECT id, ABS(name) AS a FROM orders;\n               ^^^^^^^^^\n');
  });

  it('an unknown function, with a did-you-mean', async () => {
    expect((await failure('SELECT uper(name) FROM orders;\n')).error).toBe(
      block(
        'ValidationError',
        "From line 4, column 8 to line 4, column 17: No match found for function signature UPER(<VARCHAR(2147483647)>); did you mean 'UPPER'?",
        '  --> job.sql:4:8',
        '4 | SELECT uper(name) FROM orders;',
        '           ^^^^^^^^^^',
      ),
    );
  });

  it('a column that is not grouped', async () => {
    expect((await failure('SELECT id, name, COUNT(*) AS n\n  FROM orders\n  GROUP BY id;\n')).error).toBe(
      block(
        'ValidationError',
        "From line 4, column 12 to line 4, column 15: Expression 'name' is not being grouped",
        '  --> job.sql:4:12',
        '4 | SELECT id, name, COUNT(*) AS n',
        '               ^^^^',
      ),
    );
  });

  it('an INSERT with too few columns, and with a column of the wrong type', async () => {
    const few = await failure('INSERT INTO sink SELECT id, name FROM orders;\n');
    expect(few.error).toContain(
      "ValidationError: From line 4, column 25 to line 4, column 32: Column types of query result and sink for 'default_catalog.default_database.sink' do not match.\nCause: Different number of columns.",
    );
    expect(few.error).toContain('  --> job.sql:4:25\n4 | INSERT INTO sink SELECT id, name FROM orders;\n                            ^^^^^^^^\n');
    const wrongType = await failure("INSERT INTO sink VALUES (1, 'a', DATE '2020-01-01');\n");
    expect(wrongType.error).toContain('From line 4, column 34 to line 4, column 50: Column types of query result and sink');
    expect(wrongType.error).toContain("Cause: Incompatible types for sink column 'amount' at position 2.");
    expect(wrongType.error).toContain(`4 | INSERT INTO sink VALUES (1, 'a', DATE '2020-01-01');\n${' '.repeat(37)}${'^'.repeat(17)}\n`);
  });

  it('an unknown option in WITH, reported where the table is used, with a did-you-mean', async () => {
    const r = await failure("CREATE TEMPORARY TABLE t (id INT) WITH ('connector' = 'datagen', 'rows-per-secnd' = '5');\nSELECT *\n  FROM t;\n");
    expect(r.error).toContain("ValidationError: At line 6, column 8: Unable to create a source for reading table 'default_catalog.default_database.t'.");
    expect(r.error).toContain("'rows-per-secnd': did you mean 'rows-per-second'?");
    expect(r.error).toContain('  --> job.sql:6:8\n6 |   FROM t;\n           ^\n');
  });
});

describe('statements of Flink that Sluice does not run', () => {
  it('say so, naming the line, before anything runs', async () => {
    const r = await failure("INSERT INTO sink SELECT * FROM orders;\n  ANALYZE TABLE orders COMPUTE STATISTICS;\n");
    expect(r.code).toBe(1);
    expect(r.error).toBe(
      block(
        'ValidationError',
        'From line 5, column 3 to line 5, column 15: ANALYZE TABLE is not supported by Sluice yet; docs/limits.md lists the SQL Sluice does not run.',
        '  --> job.sql:5:3',
        '5 |   ANALYZE TABLE orders COMPUTE STATISTICS;',
        '      ^^^^^^^^^^^^^',
      ),
    );
  });

  it.each([
    ["CALL `default_catalog`.`sys`.`compact`('orders')", 'CALL'],
    ["COMPILE PLAN '/tmp/plan.json' FOR INSERT INTO sink SELECT * FROM orders", 'COMPILE PLAN'],
    ["EXECUTE PLAN '/tmp/plan.json'", 'EXECUTE PLAN'],
    ['ALTER TABLE orders COMPACT', 'ALTER TABLE ... COMPACT'],
    ["DESCRIBE JOB 'abc'", 'DESCRIBE JOB'],
  ])('%s', async (sql, name) => {
    const r = await failure(`${sql};\n`);
    expect(r.code).toBe(1);
    expect(r.error).toContain(`: ${name} is not supported by Sluice yet;`);
    expect(r.error).toMatch(/ValidationError: From line 4, column 1 to line 4, column \d+: /);
  });

  it('a SET of an unknown time zone fails at the SET, not at a later statement', async () => {
    const r = await failure("SET 'table.local-time-zone' = 'Foo/Bar';\nINSERT INTO sink SELECT * FROM orders;\n");
    expect(r.code).toBe(1);
    expect(r.error).toContain("configured Zone ID is 'Foo/Bar'.");
    expect(r.error).toContain('--> in the statement at job.sql:4:1');
  });
});
