// Apache Flink's SQL client script tests (apache/flink, flink-table/flink-sql-client/src/test/resources/sql/*.q), ported
// as DATA for issue #13: each file's statements in order, each with the kind of answer Flink's CliClientITCase checks
// (`!ok`: the printed output, `!info`: an [INFO] message, `!error`: an [ERROR] block) and the text Flink printed, as the
// .q file holds it. Nothing here is Sluice's output. The statements are Flink's, unchanged; the `$VAR_...` placeholders
// are Flink's own test harness substitutions (a temporary path) and are filled the same way by the test.
//
// The text of each file is kept in the .q layout (statement, output, `!kind` line), so it can be checked against the
// source by eye; `parseQ` turns it into the statement list. Two annotations are ours, both on lines of their own that
// start with `#!` (a comment in the .q syntax, so the text stays a valid .q file):
//   `#! skip: <reason>`  the next statement is not run: it depends on the JVM (a Java UDF class, a jar, Hive, a
//                        cluster address) or on Flink's test-only connectors; the statements after it still run.
//   `#! commit: <sha>`   the apache/flink commit of the version of the file that was read.
// For `!error` the expected text is kept whole as in the .q file; the test compares its essential part, the message
// line after `[ERROR] Could not execute SQL statement. Reason:` (exception class and first line).
//
// Long repeated outputs are written once and put back in place by `@NAME@` markers (DESCRIBE tables, SHOW DATABASES
// listings). The one-cell `result` tables of SHOW CREATE and EXPLAIN in table.q and materialized_table.q are built by
// `resultCell` from their text: Flink makes that column exactly as wide as the whole text, newlines counted, as the
// tables of view.q and catalog_database.q, kept verbatim, show.
//
// Which version: the files were read at the commits given. Those of select.q, set.q, table.q and statement_set.q
// predate Flink's rename of the client's `[INFO] Execute statement succeed.` to `[INFO] Execute statement succeeded.`
// (the later catalog_database.q, view.q and materialized_table.q, as Flink 2.x's SQL client, print the latter); the
// test reads the old wording as the new one.

/** A template tag that keeps the text as written (backslashes included); only \` stands for a backtick. */
const q = (strings) => strings.raw.join('').replaceAll('\\`', '`');

const KINDS = new Set(['ok', 'info', 'error']);

/**
 * Splits a .q text into statements. A block ends at a `!ok` / `!info` / `!error` line; in it, `#` lines before the
 * statement are comments, the statement ends at the first line ending with `;` outside a string or comment (or, if
 * none, at the first line ending with `;`: Flink's own `SELECT /*;` case), and the rest is the expected output.
 */
export function parseQ(text) {
  const lines = text.split('\n');
  const statements = [];
  let block = [];
  for (const line of lines) {
    const kind = line.startsWith('!') ? line.slice(1).trim() : undefined;
    if (kind === undefined || !KINDS.has(kind)) {
      block.push(line);
      continue;
    }
    let skip;
    let i = 0;
    while (i < block.length && (block[i].trim() === '' || block[i].startsWith('#'))) {
      const m = /^#! skip: (.*)$/.exec(block[i]);
      if (m) skip = m[1];
      i++;
    }
    const rest = block.slice(i);
    let end = rest.findIndex((_, k) => rest[k].trimEnd().endsWith(';') && isWhole(rest.slice(0, k + 1).join('\n')));
    if (end < 0) end = rest.findIndex((l) => l.trimEnd().endsWith(';'));
    if (end < 0) throw new Error(`No statement before !${kind}: ${rest.join('\n')}`);
    // The SQL gateway's copies of the client scripts put an `!output` line between the statement and its output.
    const out = rest[end + 1] === '!output' ? end + 2 : end + 1;
    statements.push({
      index: statements.length,
      sql: rest.slice(0, end + 1).join('\n'),
      kind,
      expected: rest.slice(out).join('\n'),
      ...(skip === undefined ? {} : { skip }),
    });
    block = [];
  }
  return statements;
}

/** True when `sql` ends outside a '...' string, a "..." or `...` identifier and a comment. */
function isWhole(sql) {
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === '`') {
      const close = sql.indexOf(c, i + 1);
      if (close < 0) return false;
      i = close + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      if (nl < 0) return false;
      i = nl + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      if (close < 0) return false;
      i = close + 2;
    } else i++;
  }
  return true;
}

const SQL_DIR = 'flink-table/flink-sql-client/src/test/resources/sql';
const GATEWAY_CLIENT_DIR = 'flink-table/flink-sql-gateway/src/test/resources/sql/client';

/** Files read but not ported, with the reason. */
export const notPorted = [
  { source: `${SQL_DIR}/function.q`, reason: 'every function is a Java class (LowerUDF, a Scala test function) loaded from a jar, and a Hive catalog; the version read also predates the unified [INFO] messages' },
  { source: `${SQL_DIR}/add.q`, reason: 'ADD JAR of a Java jar' },
  { source: `${SQL_DIR}/statement_set.q`, reason: "the version read is Flink 1.13's (SET without quotes answering 'Session property has been set.'); its later copy, flink-sql-gateway's sql/client/statement_set.q, is ported instead" },
  { source: `${SQL_DIR}/delete.q`, reason: "DELETE FROM over Flink's test-only 'test-update-delete' connector and its data-id registry" },
  { source: `${SQL_DIR}/truncate.q`, reason: "TRUNCATE TABLE over Flink's test-only 'test-update-delete' connector and its data-id registry" },
  { source: `${SQL_DIR}/call_procedure.q`, reason: "CALL of the procedures of Flink's test-only 'test_procedure_catalog' (Java classes)" },
  { source: `${SQL_DIR}/module.q`, reason: "LOAD / USE / UNLOAD MODULE of Hive's module; the version read is Flink 1.13's" },
  { source: `${GATEWAY_CLIENT_DIR}/*.q (but statement_set.q)`, reason: 'copies of the client scripts ported from flink-sql-client (older, or with Hive: set.q sets the Hive dialect and a hive-test catalog)' },
  { source: 'flink-table/flink-sql-gateway/src/test/resources/sql/*.q', reason: "the gateway's own scripts check the result sets the gateway returns (`result | OK` tables), not what the client prints" },
];

const selectQ = q`# select.q - SELECT query
#! commit: 866aabbe2006f90f66cb2f72fff88169b273401a

# set default streaming mode and tableau result mode

SET 'execution.runtime-mode' = 'streaming';
[INFO] Execute statement succeed.
!info

SET 'sql-client.execution.result-mode' = 'tableau';
[INFO] Execute statement succeed.
!info

# ==========================================================================
# validation test
# ==========================================================================

create table src (
  id int,
  str string
) with (
  'connector' = 'values',
  'data-id' = 'non-exist',
  'failing-source' = 'true'
);
[INFO] Execute statement succeed.
!info

#! skip: the error comes from Flink's test-only 'values' connector (its 'data-id' registry of the test JVM)
SELECT UPPER(str), id FROM src;
[ERROR] Could not execute SQL statement. Reason:
java.lang.IllegalArgumentException: testing elements of values source shouldn't be empty.
!error

# ==========================================================================
# test stream query with tableau result mode
# (we can't test changelog mode and table mode in IT case)
# ==========================================================================

SELECT id, COUNT(*) as cnt, COUNT(DISTINCT str) as uv, max(ts) as max_ts
FROM (VALUES
  (1, 'Hello World', TIMESTAMP '2021-04-13 20:12:11.123456789'),
  (2, 'Hi', TIMESTAMP '2021-04-13 19:12:11.123456789'),
  (2, 'Hi', TIMESTAMP '2021-04-13 21:12:11.123456789')) as T(id, str, ts)
GROUP BY id;
+----+-------------+----------------------+----------------------+-------------------------------+
| op |          id |                  cnt |                   uv |                        max_ts |
+----+-------------+----------------------+----------------------+-------------------------------+
| +I |           1 |                    1 |                    1 | 2021-04-13 20:12:11.123456789 |
| +I |           2 |                    1 |                    1 | 2021-04-13 19:12:11.123456789 |
| -U |           2 |                    1 |                    1 | 2021-04-13 19:12:11.123456789 |
| +U |           2 |                    2 |                    1 | 2021-04-13 21:12:11.123456789 |
+----+-------------+----------------------+----------------------+-------------------------------+
Received a total of 4 rows
!ok

# ==========================================================================
# test TIMESTAMP and TIMESTAMP_LTZ type display with tableau result mode
# ==========================================================================

SET 'table.local-time-zone' = 'Asia/Shanghai';
[INFO] Execute statement succeed.
!info

SELECT TIME '20:12:11' as time0,
 ts0, ts3, ts9,
 TO_TIMESTAMP_LTZ(1, 0) AS ts_ltz0,
 TO_TIMESTAMP_LTZ(1, 3) AS ts_ltz3,
 CAST(ts9 as TIMESTAMP_LTZ(9)) AS ts_ltz9
FROM (VALUES
  (1, TIMESTAMP '2021-04-13 20:12:11', TIMESTAMP '2021-04-13 20:12:11.123', TIMESTAMP '2021-04-13 20:12:11.123456789'),
  (2, TIMESTAMP '2021-04-13 21:12:11', TIMESTAMP '2021-04-13 21:12:11.001', TIMESTAMP '2021-04-13 21:12:11.1'))
   as T(id, ts0, ts3, ts9);
+----+----------+---------------------+-------------------------+-------------------------------+-------------------------+-------------------------+-------------------------------+
| op |    time0 |                 ts0 |                     ts3 |                           ts9 |                 ts_ltz0 |                 ts_ltz3 |                       ts_ltz9 |
+----+----------+---------------------+-------------------------+-------------------------------+-------------------------+-------------------------+-------------------------------+
| +I | 20:12:11 | 2021-04-13 20:12:11 | 2021-04-13 20:12:11.123 | 2021-04-13 20:12:11.123456789 | 1970-01-01 08:00:01.000 | 1970-01-01 08:00:00.001 | 2021-04-13 20:12:11.123456789 |
| +I | 20:12:11 | 2021-04-13 21:12:11 | 2021-04-13 21:12:11.001 | 2021-04-13 21:12:11.100000000 | 1970-01-01 08:00:01.000 | 1970-01-01 08:00:00.001 | 2021-04-13 21:12:11.100000000 |
+----+----------+---------------------+-------------------------+-------------------------------+-------------------------+-------------------------+-------------------------------+
Received a total of 2 rows
!ok

SET 'table.local-time-zone' = 'UTC';
[INFO] Execute statement succeed.
!info

SELECT TIME '20:12:11' as time0,
 ts0, ts3, ts9,
 TO_TIMESTAMP_LTZ(1, 0) AS ts_ltz0,
 TO_TIMESTAMP_LTZ(1, 3) AS ts_ltz3,
 CAST(ts9 as TIMESTAMP_LTZ(9)) AS ts_ltz9
FROM (VALUES
  (1, TIMESTAMP '2021-04-13 20:12:11', TIMESTAMP '2021-04-13 20:12:11.123', TIMESTAMP '2021-04-13 20:12:11.123456789'),
  (2, TIMESTAMP '2021-04-13 21:12:11', TIMESTAMP '2021-04-13 21:12:11.001', TIMESTAMP '2021-04-13 21:12:11.1'))
   as T(id, ts0, ts3, ts9);
+----+----------+---------------------+-------------------------+-------------------------------+-------------------------+-------------------------+-------------------------------+
| op |    time0 |                 ts0 |                     ts3 |                           ts9 |                 ts_ltz0 |                 ts_ltz3 |                       ts_ltz9 |
+----+----------+---------------------+-------------------------+-------------------------------+-------------------------+-------------------------+-------------------------------+
| +I | 20:12:11 | 2021-04-13 20:12:11 | 2021-04-13 20:12:11.123 | 2021-04-13 20:12:11.123456789 | 1970-01-01 00:00:01.000 | 1970-01-01 00:00:00.001 | 2021-04-13 20:12:11.123456789 |
| +I | 20:12:11 | 2021-04-13 21:12:11 | 2021-04-13 21:12:11.001 | 2021-04-13 21:12:11.100000000 | 1970-01-01 00:00:01.000 | 1970-01-01 00:00:00.001 | 2021-04-13 21:12:11.100000000 |
+----+----------+---------------------+-------------------------+-------------------------------+-------------------------+-------------------------+-------------------------------+
Received a total of 2 rows
!ok

# ==========================================================================
# Testing behavior of sql-client.display.max-column-width
# Only variable width columns are impacted at the moment => STRING, but not TIMESTAMP nor BOOLEAN
# ==========================================================================

CREATE TEMPORARY VIEW
  testUserData(name, dob, isHappy)
AS (VALUES
  ('30b5c1bb-0ac0-43d3-b812-fcb649fd2b07', TIMESTAMP '2001-01-13 20:11:11.123', true),
  ('91170c98-2cc5-4935-9ea6-12b72d32fb3c', TIMESTAMP '1994-02-14 21:12:11.123', true),
  ('8b012d93-6ece-48ad-a2ea-aa75ef7b1d60', TIMESTAMP '1979-03-15 22:13:11.123', false),
  ('09969d9e-d584-11eb-b8bc-0242ac130003', TIMESTAMP '1985-04-16 23:14:11.123', true)
);
[INFO] Execute statement succeed.
!info

SELECT * from testUserData;
+----+--------------------------------+-------------------------+---------+
| op |                           name |                     dob | isHappy |
+----+--------------------------------+-------------------------+---------+
| +I | 30b5c1bb-0ac0-43d3-b812-fcb... | 2001-01-13 20:11:11.123 |    TRUE |
| +I | 91170c98-2cc5-4935-9ea6-12b... | 1994-02-14 21:12:11.123 |    TRUE |
| +I | 8b012d93-6ece-48ad-a2ea-aa7... | 1979-03-15 22:13:11.123 |   FALSE |
| +I | 09969d9e-d584-11eb-b8bc-024... | 1985-04-16 23:14:11.123 |    TRUE |
+----+--------------------------------+-------------------------+---------+
Received a total of 4 rows
!ok

# test fallback config option key

SET 'table.display.max-column-width' = '10';
[INFO] Execute statement succeed.
!info

SELECT * from testUserData;
+----+------------+-------------------------+---------+
| op |       name |                     dob | isHappy |
+----+------------+-------------------------+---------+
| +I | 30b5c1b... | 2001-01-13 20:11:11.123 |    TRUE |
| +I | 91170c9... | 1994-02-14 21:12:11.123 |    TRUE |
| +I | 8b012d9... | 1979-03-15 22:13:11.123 |   FALSE |
| +I | 09969d9... | 1985-04-16 23:14:11.123 |    TRUE |
+----+------------+-------------------------+---------+
Received a total of 4 rows
!ok

SET 'table.display.max-column-width' = '40';
[INFO] Execute statement succeed.
!info

SELECT * from testUserData;
+----+------------------------------------------+-------------------------+---------+
| op |                                     name |                     dob | isHappy |
+----+------------------------------------------+-------------------------+---------+
| +I |     30b5c1bb-0ac0-43d3-b812-fcb649fd2b07 | 2001-01-13 20:11:11.123 |    TRUE |
| +I |     91170c98-2cc5-4935-9ea6-12b72d32fb3c | 1994-02-14 21:12:11.123 |    TRUE |
| +I |     8b012d93-6ece-48ad-a2ea-aa75ef7b1d60 | 1979-03-15 22:13:11.123 |   FALSE |
| +I |     09969d9e-d584-11eb-b8bc-0242ac130003 | 1985-04-16 23:14:11.123 |    TRUE |
+----+------------------------------------------+-------------------------+---------+
Received a total of 4 rows
!ok

# test original config option key

SET 'sql-client.display.max-column-width' = '10';
[INFO] Execute statement succeed.
!info

SELECT * from testUserData;
+----+------------+-------------------------+---------+
| op |       name |                     dob | isHappy |
+----+------------+-------------------------+---------+
| +I | 30b5c1b... | 2001-01-13 20:11:11.123 |    TRUE |
| +I | 91170c9... | 1994-02-14 21:12:11.123 |    TRUE |
| +I | 8b012d9... | 1979-03-15 22:13:11.123 |   FALSE |
| +I | 09969d9... | 1985-04-16 23:14:11.123 |    TRUE |
+----+------------+-------------------------+---------+
Received a total of 4 rows
!ok


SET 'sql-client.display.max-column-width' = '40';
[INFO] Execute statement succeed.
!info

SELECT * from testUserData;
+----+------------------------------------------+-------------------------+---------+
| op |                                     name |                     dob | isHappy |
+----+------------------------------------------+-------------------------+---------+
| +I |     30b5c1bb-0ac0-43d3-b812-fcb649fd2b07 | 2001-01-13 20:11:11.123 |    TRUE |
| +I |     91170c98-2cc5-4935-9ea6-12b72d32fb3c | 1994-02-14 21:12:11.123 |    TRUE |
| +I |     8b012d93-6ece-48ad-a2ea-aa75ef7b1d60 | 1979-03-15 22:13:11.123 |   FALSE |
| +I |     09969d9e-d584-11eb-b8bc-0242ac130003 | 1985-04-16 23:14:11.123 |    TRUE |
+----+------------------------------------------+-------------------------+---------+
Received a total of 4 rows
!ok

-- post-test cleanup + setting back default max width value
DROP TEMPORARY VIEW testUserData;
[INFO] Execute statement succeed.
!info

SET 'sql-client.display.max-column-width' = '30';
[INFO] Execute statement succeed.
!info

# ==========================================================================
# test batch query
# ==========================================================================

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeed.
!info

SELECT id, COUNT(*) as cnt, COUNT(DISTINCT str) as uv
FROM (VALUES (1, 'Hello World'), (2, 'Hi'), (2, 'Hi')) as T(id, str)
GROUP BY id;
+----+-----+----+
| id | cnt | uv |
+----+-----+----+
|  1 |   1 |  1 |
|  2 |   2 |  1 |
+----+-----+----+
2 rows in set
!ok

SELECT TIME '20:12:11' as time0,
 ts0, ts3, ts9,
 TO_TIMESTAMP_LTZ(1, 0) AS ts_ltz0,
 TO_TIMESTAMP_LTZ(1, 3) AS ts_ltz3,
 CAST(ts9 as TIMESTAMP_LTZ(9)) AS ts_ltz9
FROM (VALUES
  (1, TIMESTAMP '2021-04-13 20:12:11', TIMESTAMP '2021-04-13 20:12:11.123', TIMESTAMP '2021-04-13 20:12:11.123456789'),
  (2, TIMESTAMP '2021-04-13 21:12:11', TIMESTAMP '2021-04-13 21:12:11.001', TIMESTAMP '2021-04-13 21:12:11.1'))
   as T(id, ts0, ts3, ts9);
+----------+---------------------+-------------------------+-------------------------------+-------------------------+-------------------------+-------------------------------+
|    time0 |                 ts0 |                     ts3 |                           ts9 |                 ts_ltz0 |                 ts_ltz3 |                       ts_ltz9 |
+----------+---------------------+-------------------------+-------------------------------+-------------------------+-------------------------+-------------------------------+
| 20:12:11 | 2021-04-13 20:12:11 | 2021-04-13 20:12:11.123 | 2021-04-13 20:12:11.123456789 | 1970-01-01 00:00:01.000 | 1970-01-01 00:00:00.001 | 2021-04-13 20:12:11.123456789 |
| 20:12:11 | 2021-04-13 21:12:11 | 2021-04-13 21:12:11.001 | 2021-04-13 21:12:11.100000000 | 1970-01-01 00:00:01.000 | 1970-01-01 00:00:00.001 | 2021-04-13 21:12:11.100000000 |
+----------+---------------------+-------------------------+-------------------------------+-------------------------+-------------------------+-------------------------------+
2 rows in set
!ok

# ==========================================================================
# Testing behavior of sql-client.display.max-column-width
# Only variable width columns are impacted at the moment => STRING, but not TIMESTAMP nor BOOLEAN
# ==========================================================================

CREATE TEMPORARY VIEW
  testUserData(name, dob, isHappy)
AS (VALUES
  ('30b5c1bb-0ac0-43d3-b812-fcb649fd2b07', TIMESTAMP '2001-01-13 20:11:11.123', true),
  ('91170c98-2cc5-4935-9ea6-12b72d32fb3c', TIMESTAMP '1994-02-14 21:12:11.123', true),
  ('8b012d93-6ece-48ad-a2ea-aa75ef7b1d60', TIMESTAMP '1979-03-15 22:13:11.123', false),
  ('09969d9e-d584-11eb-b8bc-0242ac130003', TIMESTAMP '1985-04-16 23:14:11.123', true)
);
[INFO] Execute statement succeed.
!info

SELECT * from testUserData;
+--------------------------------+-------------------------+---------+
|                           name |                     dob | isHappy |
+--------------------------------+-------------------------+---------+
| 30b5c1bb-0ac0-43d3-b812-fcb... | 2001-01-13 20:11:11.123 |    TRUE |
| 91170c98-2cc5-4935-9ea6-12b... | 1994-02-14 21:12:11.123 |    TRUE |
| 8b012d93-6ece-48ad-a2ea-aa7... | 1979-03-15 22:13:11.123 |   FALSE |
| 09969d9e-d584-11eb-b8bc-024... | 1985-04-16 23:14:11.123 |    TRUE |
+--------------------------------+-------------------------+---------+
4 rows in set
!ok

SET 'sql-client.display.max-column-width' = '10';
[INFO] Execute statement succeed.
!info

SELECT * from testUserData;
+------------+------------+---------+
|       name |        dob | isHappy |
+------------+------------+---------+
| 30b5c1b... | 2001-01... |    TRUE |
| 91170c9... | 1994-02... |    TRUE |
| 8b012d9... | 1979-03... |   FALSE |
| 09969d9... | 1985-04... |    TRUE |
+------------+------------+---------+
4 rows in set
!ok

SET 'sql-client.display.max-column-width' = '40';
[INFO] Execute statement succeed.
!info

SELECT * from testUserData;
+--------------------------------------+-------------------------+---------+
|                                 name |                     dob | isHappy |
+--------------------------------------+-------------------------+---------+
| 30b5c1bb-0ac0-43d3-b812-fcb649fd2b07 | 2001-01-13 20:11:11.123 |    TRUE |
| 91170c98-2cc5-4935-9ea6-12b72d32fb3c | 1994-02-14 21:12:11.123 |    TRUE |
| 8b012d93-6ece-48ad-a2ea-aa75ef7b1d60 | 1979-03-15 22:13:11.123 |   FALSE |
| 09969d9e-d584-11eb-b8bc-0242ac130003 | 1985-04-16 23:14:11.123 |    TRUE |
+--------------------------------------+-------------------------+---------+
4 rows in set
!ok

-- post-test cleanup + setting back default max width value
DROP TEMPORARY VIEW testUserData;
[INFO] Execute statement succeed.
!info

SET 'sql-client.display.max-column-width' = '30';
[INFO] Execute statement succeed.
!info

SELECT INTERVAL '1' DAY as dayInterval, INTERVAL '1' YEAR as yearInterval;
+-----------------+--------------+
|     dayInterval | yearInterval |
+-----------------+--------------+
| +1 00:00:00.000 |        +1-00 |
+-----------------+--------------+
1 row in set
!ok

SELECT /*;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.sql.parser.impl.TokenMgrError: Lexical error at line 1, column 11.  Encountered: <EOF> after : ""
!error

SELECT ';
';
+--------+
| EXPR$0 |
+--------+
|     ;
 |
+--------+
1 row in set
!ok

SELECT /*;
'*/ 1;
+--------+
| EXPR$0 |
+--------+
|      1 |
+--------+
1 row in set
!ok

SELECT --;
1;
+--------+
| EXPR$0 |
+--------+
|      1 |
+--------+
1 row in set
!ok
`;

const DESC_V1 = `+---------+-----------------------------+-------+-----+--------+-----------+
|    name |                        type |  null | key | extras | watermark |
+---------+-----------------------------+-------+-----+--------+-----------+
|    user |                      BIGINT | FALSE |     |        |           |
| product |                 VARCHAR(32) |  TRUE |     |        |           |
|  amount |                         INT |  TRUE |     |        |           |
|      ts |      TIMESTAMP(3) *ROWTIME* |  TRUE |     |        |           |
|   ptime | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |     |        |           |
+---------+-----------------------------+-------+-----+--------+-----------+
5 rows in set`;
const DESC_V1_NOT_USER = `+---------+-----------------------------+-------+-----+--------+-----------+
|    name |                        type |  null | key | extras | watermark |
+---------+-----------------------------+-------+-----+--------+-----------+
| product |                 VARCHAR(32) |  TRUE |     |        |           |
|  amount |                         INT |  TRUE |     |        |           |
|      ts |      TIMESTAMP(3) *ROWTIME* |  TRUE |     |        |           |
|   ptime | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |     |        |           |
+---------+-----------------------------+-------+-----+--------+-----------+
4 rows in set`;
const DESC_V1_USER = `+------+--------+-------+-----+--------+-----------+
| name |   type |  null | key | extras | watermark |
+------+--------+-------+-----+--------+-----------+
| user | BIGINT | FALSE |     |        |           |
+------+--------+-------+-----+--------+-----------+
1 row in set`;
const DESC_V1_U = `+---------+-------------+-------+-----+--------+-----------+
|    name |        type |  null | key | extras | watermark |
+---------+-------------+-------+-----+--------+-----------+
|    user |      BIGINT | FALSE |     |        |           |
| product | VARCHAR(32) |  TRUE |     |        |           |
|  amount |         INT |  TRUE |     |        |           |
+---------+-------------+-------+-----+--------+-----------+
3 rows in set`;
const DESC_V1_NOT_U = `+-------+-----------------------------+-------+-----+--------+-----------+
|  name |                        type |  null | key | extras | watermark |
+-------+-----------------------------+-------+-----+--------+-----------+
|    ts |      TIMESTAMP(3) *ROWTIME* |  TRUE |     |        |           |
| ptime | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |     |        |           |
+-------+-----------------------------+-------+-----+--------+-----------+
2 rows in set`;

// view.q repeats a few long DESCRIBE tables; they are written once above and put back in place here (`@NAME@`).
const viewQ = q`# view.q - CREATE/DROP/SHOW/DESCRIBE VIEW
#! commit: 038db11198df37664891c5bc3e9ce7b9bf52ca48

# register a base table first
CREATE TABLE orders (
 \`user\` BIGINT NOT NULl,
 product VARCHAR(32),
 amount INT,
 ts TIMESTAMP(3),
 ptime AS PROCTIME(),
 PRIMARY KEY(\`user\`) NOT ENFORCED,
 WATERMARK FOR ts AS ts - INTERVAL '1' SECONDS
) with (
 'connector' = 'datagen'
);
[INFO] Execute statement succeeded.
!info

# ==== test temporary view =====

create temporary view v1 as select * from orders;
[INFO] Execute statement succeeded.
!info

create temporary view v1 as select * from orders;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: Temporary table '\`default_catalog\`.\`default_database\`.\`v1\`' already exists
!error

# TODO: warning users the view already exists
create temporary view if not exists v1 as select * from orders;
[INFO] Execute statement succeeded.
!info

# test query a view with hint
select * from v1 /*+ OPTIONS('number-of-rows' = '1') */;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: View '\`default_catalog\`.\`default_database\`.\`v1\`' cannot be enriched with new options. Hints can only be applied to tables.
!error

# test create a view reference another view
create temporary view if not exists v2 as select * from v1;
[INFO] Execute statement succeeded.
!info

# test show create a temporary view
show create view v1;
+--------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                                                                                     result |
+--------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE TEMPORARY VIEW \`default_catalog\`.\`default_database\`.\`v1\` (
  \`user\`,
  \`product\`,
  \`amount\`,
  \`ts\`,
  \`ptime\`
)
AS SELECT \`orders\`.\`user\`, \`orders\`.\`product\`, \`orders\`.\`amount\`, \`orders\`.\`ts\`, \`orders\`.\`ptime\`
FROM \`default_catalog\`.\`default_database\`.\`orders\` AS \`orders\`
 |
+--------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

# test show create a temporary view reference another view
show create view v2;
+----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                                                         result |
+----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE TEMPORARY VIEW \`default_catalog\`.\`default_database\`.\`v2\` (
  \`user\`,
  \`product\`,
  \`amount\`,
  \`ts\`,
  \`ptime\`
)
AS SELECT \`v1\`.\`user\`, \`v1\`.\`product\`, \`v1\`.\`amount\`, \`v1\`.\`ts\`, \`v1\`.\`ptime\`
FROM \`default_catalog\`.\`default_database\`.\`v1\` AS \`v1\`
 |
+----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

show tables;
+------------+
| table name |
+------------+
|     orders |
|         v1 |
|         v2 |
+------------+
3 rows in set
!ok

show views;
+-----------+
| view name |
+-----------+
|        v1 |
|        v2 |
+-----------+
2 rows in set
!ok

# test SHOW CREATE TABLE for views
show create table v1;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.TableException: SHOW CREATE TABLE is only supported for tables, but \`default_catalog\`.\`default_database\`.\`v1\` is a view. Please use SHOW CREATE VIEW instead.
!error

# ==== test permanent view =====

# register a permanent view with the duplicate name with temporary view
create view v1 as select * from orders;
[INFO] Execute statement succeeded.
!info

# test create duplicate view
create view v1 as select * from orders;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.catalog.exceptions.TableAlreadyExistException: Table (or view) default_database.v1 already exists in Catalog default_catalog.
!error

# test show create a permanent view
create view permanent_v1 as select * from orders;
[INFO] Execute statement succeeded.
!info

# test show create a permanent view
show create view permanent_v1;
+--------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                                                                                                                                                                                     result |
+--------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
| CREATE VIEW \`default_catalog\`.\`default_database\`.\`permanent_v1\` (
  \`user\`,
  \`product\`,
  \`amount\`,
  \`ts\`,
  \`ptime\`
)
AS SELECT \`orders\`.\`user\`, \`orders\`.\`product\`, \`orders\`.\`amount\`, \`orders\`.\`ts\`, \`orders\`.\`ptime\`
FROM \`default_catalog\`.\`default_database\`.\`orders\` AS \`orders\`
 |
+--------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

# remove permanent_v1 view
drop view permanent_v1;
[INFO] Execute statement succeeded.
!info

# we didn't distinguish the temporary v1 and permanent v1 for now
show views;
+-----------+
| view name |
+-----------+
|        v1 |
|        v2 |
+-----------+
2 rows in set
!ok

# test describe view
describe v1;
@DESC_V1@
!ok

# test SHOW COLUMNS
show columns from v1;
@DESC_V1@
!ok

show columns in v1;
@DESC_V1@
!ok

show columns from v1 like '%u';
Empty set
!ok

show columns in v1 like '%u';
Empty set
!ok

show columns from v1 not like '%u';
@DESC_V1@
!ok

show columns in v1 not like '%u';
@DESC_V1@
!ok

show columns from v1 like '%r';
@DESC_V1_USER@
!ok

show columns in v1 like '%r';
@DESC_V1_USER@
!ok

show columns from v1 not like  '%r';
@DESC_V1_NOT_USER@
!ok

show columns in v1 not like  '%r';
@DESC_V1_NOT_USER@
!ok

show columns from v1 like '%u%';
@DESC_V1_U@
!ok

show columns in v1 like '%u%';
@DESC_V1_U@
!ok

show columns from v1 not like '%u%';
@DESC_V1_NOT_U@
!ok

show columns in v1 not like '%u%';
@DESC_V1_NOT_U@
!ok

show columns from v1 like 'use_';
@DESC_V1_USER@
!ok

show columns in v1 like 'use_';
@DESC_V1_USER@
!ok

show columns from v1 not like 'use_';
@DESC_V1_NOT_USER@
!ok

show columns in v1 not like 'use_';
@DESC_V1_NOT_USER@
!ok

# we can't drop permanent view if there is temporary view with the same name
drop view v1;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: Temporary view with identifier '\`default_catalog\`.\`default_database\`.\`v1\`' exists. Drop it first before removing the permanent view.
!error

# although temporary v2 needs temporary v1, dropping v1 first does not throw exception
drop temporary view v1;
[INFO] Execute statement succeeded.
!info

# now we can drop permanent view v1
drop view v1;
[INFO] Execute statement succeeded.
!info

# test drop invalid table
drop view non_exist;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: View with identifier 'default_catalog.default_database.non_exist' does not exist.
!error

# ===== test playing with keyword identifiers =====

create view \`mod\` as select * from orders;
[INFO] Execute statement succeeded.
!info

describe \`mod\`;
@DESC_V1@
!ok

desc \`mod\`;
@DESC_V1@
!ok

drop view \`mod\`;
[INFO] Execute statement succeeded.
!info

show tables;
+------------+
| table name |
+------------+
|     orders |
|         v2 |
+------------+
2 rows in set
!ok
`
  .replaceAll('@DESC_V1@', DESC_V1)
  .replaceAll('@DESC_V1_USER@', DESC_V1_USER)
  .replaceAll('@DESC_V1_NOT_USER@', DESC_V1_NOT_USER)
  .replaceAll('@DESC_V1_U@', DESC_V1_U)
  .replaceAll('@DESC_V1_NOT_U@', DESC_V1_NOT_U);

// catalog_database.q's many `show databases` tables are one shape: built by `dbList` (`@DB a,b@` in the text), the
// rest is as the file has it.
const catalogDatabaseQ = q`# catalog_database.q - CREATE/DROP/SHOW/USE CATALOG/DATABASE
#! commit: 04b385b3a080ef8888cfdcb3071e01131223bf4f

# ==========================================================================
# validation test
# ==========================================================================

use non_existing_db;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.catalog.exceptions.CatalogException: A database with name [non_existing_db] does not exist in the catalog: [default_catalog].
!error

use catalog non_existing_catalog;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.catalog.exceptions.CatalogException: A catalog with name [non_existing_catalog] does not exist.
!error

create catalog invalid.cat with ('type'='generic_in_memory');
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.sql.parser.impl.ParseException: Encountered "." at line 1, column 23.
Was expecting one of:
    <EOF>
    "WITH" ...
    "COMMENT" ...
    ";" ...
!error

create database my.db;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: Catalog my does not exist
!error

# ==========================================================================
# test catalog
# ==========================================================================

create catalog c1 with ('type'='generic_in_memory');
[INFO] Execute statement succeeded.
!info

show catalogs;
+-----------------+
|    catalog name |
+-----------------+
|              c1 |
| default_catalog |
+-----------------+
2 rows in set
!ok

show current catalog;
+----------------------+
| current catalog name |
+----------------------+
|      default_catalog |
+----------------------+
1 row in set
!ok

use catalog c1;
[INFO] Execute statement succeeded.
!info

show current catalog;
+----------------------+
| current catalog name |
+----------------------+
|                   c1 |
+----------------------+
1 row in set
!ok

drop catalog default_catalog;
[INFO] Execute statement succeeded.
!info

drop catalog c1;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.catalog.exceptions.CatalogException: Cannot drop a catalog which is currently in use.
!error

create catalog cat_comment comment 'hello ''catalog''' WITH ('type'='generic_in_memory', 'default-database'='db');
[INFO] Execute statement succeeded.
!info

show create catalog cat_comment;
+--------------------------------------------------------------------------------------------------------------------------------+
|                                                                                                                         result |
+--------------------------------------------------------------------------------------------------------------------------------+
| CREATE CATALOG \`cat_comment\`
COMMENT 'hello ''catalog'''
WITH (
  'default-database' = 'db',
  'type' = 'generic_in_memory'
)
 |
+--------------------------------------------------------------------------------------------------------------------------------+
1 row in set
!ok

describe catalog cat_comment;
+-----------+-------------------+
| info name |        info value |
+-----------+-------------------+
|      name |       cat_comment |
|      type | generic_in_memory |
|   comment |   hello 'catalog' |
+-----------+-------------------+
3 rows in set
!ok

describe catalog extended cat_comment;
+-------------------------+-------------------+
|               info name |        info value |
+-------------------------+-------------------+
|                    name |       cat_comment |
|                    type | generic_in_memory |
|                 comment |   hello 'catalog' |
| option:default-database |                db |
+-------------------------+-------------------+
4 rows in set
!ok

create catalog if not exists cat_comment comment 'hello' with ('type' = 'generic_in_memory');
[INFO] Execute statement succeeded.
!info

create catalog cat_comment comment 'hello2' with ('type' = 'generic_in_memory');
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.catalog.exceptions.CatalogException: Catalog cat_comment already exists.
!error

create catalog cat2 WITH ('type'='generic_in_memory', 'default-database'='db');
[INFO] Execute statement succeeded.
!info

show create catalog cat2;
+---------------------------------------------------------------------------------------------+
|                                                                                      result |
+---------------------------------------------------------------------------------------------+
| CREATE CATALOG \`cat2\`
WITH (
  'default-database' = 'db',
  'type' = 'generic_in_memory'
)
 |
+---------------------------------------------------------------------------------------------+
1 row in set
!ok

describe catalog cat2;
@CAT2@
!ok

describe catalog extended cat2;
@CAT2_DB@
!ok

desc catalog cat2;
@CAT2@
!ok

desc catalog extended cat2;
@CAT2_DB@
!ok

alter catalog cat2 set ('default-database'='db_new');
[INFO] Execute statement succeeded.
!info

desc catalog extended cat2;
+-------------------------+-------------------+
|               info name |        info value |
+-------------------------+-------------------+
|                    name |              cat2 |
|                    type | generic_in_memory |
|                 comment |                   |
| option:default-database |            db_new |
+-------------------------+-------------------+
4 rows in set
!ok

alter catalog cat2 reset ('default-database', 'k1');
[INFO] Execute statement succeeded.
!info

desc catalog extended cat2;
@CAT2@
!ok

alter catalog cat2 reset ('type');
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: ALTER CATALOG RESET does not support changing 'type'
!error

alter catalog cat2 reset ();
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: ALTER CATALOG RESET does not support empty key
!error

alter catalog cat2 comment 'comment for catalog ''cat2''';
[INFO] Execute statement succeeded.
!info

desc catalog extended cat2;
+-----------+----------------------------+
| info name |                 info value |
+-----------+----------------------------+
|      name |                       cat2 |
|      type |          generic_in_memory |
|   comment | comment for catalog 'cat2' |
+-----------+----------------------------+
3 rows in set
!ok

alter catalog cat2 comment '';
[INFO] Execute statement succeeded.
!info

desc catalog extended cat2;
@CAT2@
!ok

# ==========================================================================
# test database
# ==========================================================================

create database db1;
[INFO] Execute statement succeeded.
!info

show databases;
@DB db1,default@
!ok

create database db2;
[INFO] Execute statement succeeded.
!info

show databases like 'db%';
@DB db1,db2@
!ok

show databases ilike 'db%';
@DB db1,db2@
!ok

show databases like 'db1%';
@DB db1@
!ok

show databases ilike 'db1%';
@DB db1@
!ok

show databases like 'db2%';
@DB db2@
!ok

show databases ilike 'db2%';
@DB db2@
!ok

drop database db2;
[INFO] Execute statement succeeded.
!info

show current database;
+-----------------------+
| current database name |
+-----------------------+
|               default |
+-----------------------+
1 row in set
!ok

use db1;
[INFO] Execute statement succeeded.
!info

show current database;
+-----------------------+
| current database name |
+-----------------------+
|                   db1 |
+-----------------------+
1 row in set
!ok

create database db2 comment 'db2_comment' with ('k1' = 'v1');
[INFO] Execute statement succeeded.
!info

alter database db2 set ('k1' = 'a', 'k2' = 'b');
[INFO] Execute statement succeeded.
!info

# TODO: show database properties when we support DESCRIBE DATABSE

show databases;
@DB db1,db2,default@
!ok

create catalog \`c0\` with ('type'='generic_in_memory');
[INFO] Execute statement succeeded.
!info

create database c0.db0a;
[INFO] Execute statement succeeded.
!info

create database c0.db0b;
[INFO] Execute statement succeeded.
!info

show databases from c0;
@DB db0a,db0b,default@
!ok

show databases from c0 like 'db0a%';
@DB db0a@
!ok

show databases from c0 ilike 'db0a%';
@DB db0a@
!ok

show databases from c0 not like 'db0a%';
@DB db0b,default@
!ok

show databases from c0 not ilike 'db0a%';
@DB db0b,default@
!ok

show databases from c0 like 'db%';
@DB db0a,db0b@
!ok

show databases from c0 ilike 'db%';
@DB db0a,db0b@
!ok

show databases in c0.t;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.sql.parser.impl.ParseException: Show databases from/in identifier [ c0.t ] format error, catalog must be a single part identifier.
!error

drop catalog \`c0\`;
[INFO] Execute statement succeeded.
!info

show databases from c0;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: Catalog c0 does not exist
!error

drop database if exists db2;
[INFO] Execute statement succeeded.
!info

show databases;
@DB db1,default@
!ok

# ==========================================================================
# test playing with keyword identifiers
# ==========================================================================

create catalog \`mod\` with ('type'='generic_in_memory');
[INFO] Execute statement succeeded.
!info

use catalog \`mod\`;
[INFO] Execute statement succeeded.
!info

use \`default\`;
[INFO] Execute statement succeeded.
!info

drop database \`default\`;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: Cannot drop a database which is currently in use.
!error

drop catalog \`mod\`;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.catalog.exceptions.CatalogException: Cannot drop a catalog which is currently in use.
!error

use catalog \`c1\`;
[INFO] Execute statement succeeded.
!info

drop catalog \`mod\`;
[INFO] Execute statement succeeded.
!info

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

SET 'sql-client.execution.result-mode' = 'tableau';
[INFO] Execute statement succeeded.
!info

# ==========================================================================
# test create/drop table with catalog
# ==========================================================================

create catalog c2 with ('type'='generic_in_memory');
[INFO] Execute statement succeeded.
!info

use catalog \`c2\`;
[INFO] Execute statement succeeded.
!info

create table MyTable1 (a int, b string) with ('connector' = 'values');
[INFO] Execute statement succeeded.
!info

create table MyTable2 (a int, b string) with ('connector' = 'values');
[INFO] Execute statement succeeded.
!info

# hive catalog is case-insensitive
show tables;
@TABLES MyTable1,MyTable2@
!ok

show views;
Empty set
!ok

create view MyView1 as select 1 + 1;
[INFO] Execute statement succeeded.
!info

create view MyView2 as select 1 + 1;
[INFO] Execute statement succeeded.
!info

show views;
@VIEWS MyView1,MyView2@
!ok

# test create with full qualified name
create table c1.db1.MyTable3 (a int, b string) with ('connector' = 'values');
[INFO] Execute statement succeeded.
!info

create table c1.db1.MyTable4 (a int, b string) with ('connector' = 'values');
[INFO] Execute statement succeeded.
!info

create view c1.db1.MyView3 as select 1 + 1;
[INFO] Execute statement succeeded.
!info

create view c1.db1.MyView4 as select 1 + 1;
[INFO] Execute statement succeeded.
!info

use catalog c1;
[INFO] Execute statement succeeded.
!info

use db1;
[INFO] Execute statement succeeded.
!info

show tables;
@TABLES MyTable3,MyTable4,MyView3,MyView4@
!ok

show views;
@VIEWS MyView3,MyView4@
!ok

# test create with database name
create table \`default\`.MyTable5 (a int, b string) with ('connector' = 'values');
[INFO] Execute statement succeeded.
!info

create table \`default\`.MyTable6 (a int, b string) with ('connector' = 'values');
[INFO] Execute statement succeeded.
!info

create view \`default\`.MyView5 as select 1 + 1;
[INFO] Execute statement succeeded.
!info

create view \`default\`.MyView6 as select 1 + 1;
[INFO] Execute statement succeeded.
!info

use \`default\`;
[INFO] Execute statement succeeded.
!info

show tables;
@TABLES MyTable5,MyTable6,MyView5,MyView6@
!ok

show views;
@VIEWS MyView5,MyView6@
!ok

drop table db1.MyTable3;
[INFO] Execute statement succeeded.
!info

drop view db1.MyView3;
[INFO] Execute statement succeeded.
!info

use db1;
[INFO] Execute statement succeeded.
!info

show tables;
@TABLES MyTable4,MyView4@
!ok

show views;
@VIEWS MyView4@
!ok

drop table c1.\`default\`.MyTable6;
[INFO] Execute statement succeeded.
!info

drop view c1.\`default\`.MyView6;
[INFO] Execute statement succeeded.
!info

use \`default\`;
[INFO] Execute statement succeeded.
!info

show tables;
@TABLES MyTable5,MyView5@
!ok

show views;
@VIEWS MyView5@
!ok

# ==========================================================================
# test configuration is changed (trigger new ExecutionContext)
# ==========================================================================

SET 'sql-client.execution.result-mode' = 'changelog';
[INFO] Execute statement succeeded.
!info

create table MyTable7 (a int, b string) with ('connector' = 'values');
[INFO] Execute statement succeeded.
!info

show tables;
@TABLES MyTable5,MyTable7,MyView5@
!ok

reset;
[INFO] Execute statement succeeded.
!info

drop table MyTable5;
[INFO] Execute statement succeeded.
!info

show tables;
@TABLES MyTable7,MyView5@
!ok

# ==========================================================================
# test enhanced show tables and views
# ==========================================================================

create catalog catalog1 with ('type'='generic_in_memory');
[INFO] Execute statement succeeded.
!info

create database catalog1.db1;
[INFO] Execute statement succeeded.
!info

create table catalog1.db1.person (a int, b string) with ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info

create table catalog1.db1.dim (a int, b string) with ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info

create table catalog1.db1.address (a int, b string) with ('connector' = 'datagen');
[INFO] Execute statement succeeded.
!info

create view catalog1.db1.v_person as select * from catalog1.db1.person;
[INFO] Execute statement succeeded.
!info

create view catalog1.db1.v_address comment 'view comment' as select * from catalog1.db1.address;
[INFO] Execute statement succeeded.
!info

show tables from catalog1.db1;
@TABLES address,dim,person,v_address,v_person@
!ok

show views from catalog1.db1;
@VIEWS v_address,v_person@
!ok

show tables from catalog1.db1 like '%person%';
@TABLES person,v_person@
!ok

show views from catalog1.db1 like '%person%';
@VIEWS v_person@
!ok

show tables in catalog1.db1 not like '%person%';
@TABLES address,dim,v_address@
!ok

show views in catalog1.db1 not like '%person%';
@VIEWS v_address@
!ok

use catalog catalog1;
[INFO] Execute statement succeeded.
!info

show tables from db1 like 'p_r%';
@TABLES person@
!ok

show views from db1 like '%p_r%';
@VIEWS v_person@
!ok
`;

/** A one-column listing as Flink's tableau prints it: the header and values right-aligned in the widest. */
function listing(header, names) {
  const w = Math.max(header.length, ...names.map((n) => n.length));
  const line = `+-${'-'.repeat(w)}-+`;
  const n = names.length;
  return [line, `| ${header.padStart(w)} |`, line, ...names.map((x) => `| ${x.padStart(w)} |`), line, `${n} row${n === 1 ? '' : 's'} in set`].join('\n');
}

const CAT2 = `+-----------+-------------------+
| info name |        info value |
+-----------+-------------------+
|      name |              cat2 |
|      type | generic_in_memory |
|   comment |                   |
+-----------+-------------------+
3 rows in set`;
const CAT2_DB = `+-------------------------+-------------------+
|               info name |        info value |
+-------------------------+-------------------+
|                    name |              cat2 |
|                    type | generic_in_memory |
|                 comment |                   |
| option:default-database |                db |
+-------------------------+-------------------+
4 rows in set`;

const expandListings = (text) =>
  text
    .replaceAll('@CAT2@', CAT2)
    .replaceAll('@CAT2_DB@', CAT2_DB)
    .replace(/@(DB|TABLES|VIEWS) ([^@]*)@/g, (_, kind, names) =>
      listing(kind === 'DB' ? 'database name' : kind === 'TABLES' ? 'table name' : 'view name', names.split(',')),
    );

// misc.q: its one statement's expected text holds tab characters, written here as \t.
const miscQ = `# misc.q - Miscellaneous statements
#! commit: 0fd2292efa98e1818323b310c18b7dc8a6d670a9

# === test help ===
help;
The following commands are available:

HELP               \t\tPrints the available commands.
QUIT/EXIT          \t\tQuits the SQL CLI client.
CLEAR              \t\tClears the current terminal.
SET                \t\tSets a session configuration property. Syntax: "SET '<key>'='<value>';". Use "SET;" for listing all properties.
RESET              \t\tResets a session configuration property. Syntax: "RESET '<key>';". Use "RESET;" for reset all session properties.
INSERT INTO        \t\tInserts the results of a SQL SELECT query into a declared table sink.
INSERT OVERWRITE   \t\tInserts the results of a SQL SELECT query into a declared table sink and overwrite existing data.
SELECT             \t\tExecutes a SQL SELECT query on the Flink cluster.
EXPLAIN            \t\tDescribes the execution plan of a query or table with the given name.
BEGIN STATEMENT SET\t\tBegins a statement set. Syntax: "BEGIN STATEMENT SET;"
END                \t\tEnds a statement set. Syntax: "END;"
ADD JAR            \t\tAdds the specified jar file to the submitted jobs' classloader. Syntax: "ADD JAR '<path_to_filename>.jar'"
REMOVE JAR         \t\tRemoves the specified jar file from the submitted jobs' classloader. Syntax: "REMOVE JAR '<path_to_filename>.jar'"
SHOW JARS          \t\tShows the list of user-specified jar dependencies. This list is impacted by the --jar and --library startup options as well as the ADD/REMOVE JAR commands.

Hint: Make sure that a statement ends with ";" for finalizing (multi-line) statements.
You can also type any Flink SQL statement, please visit https://ci.apache.org/projects/flink/flink-docs-stable/docs/dev/table/sql/overview/ for more details.
!ok
`;

const JAR = 'a Java jar (ADD JAR / REMOVE JAR / SHOW JARS)';
const SET_LIST = "SET; lists the JVM cluster's options (execution.target, jobmanager.rpc.address, rest.port, pipeline.jars)";

// set.q: $VAR_STREAMING_PATH is Flink's harness placeholder for a temporary directory; the test fills it likewise.
const setQ = q`# set.q - SET/RESET configuration
#! commit: 0153b903d4df2f49c95ee2c53737aa5e492439be

# test set a configuration
SET 'sql-client.execution.result-mode' = 'tableau';
[INFO] Execute statement succeed.
!info

SET 'table.dml-sync' = 'true';
[INFO] Execute statement succeed.
!info

# test "ctas"
CREATE TABLE foo with(
  'connector' = 'filesystem',
  'path' = '$VAR_STREAMING_PATH',
  'format' = 'csv'
) as select id FROM (VALUES (1)) T(id);
[INFO] Complete execution of the SQL update statement.
!info

RESET 'table.dml-sync';
[INFO] Execute statement succeed.
!info

SELECT * from foo;
+----+-------------+
| op |          id |
+----+-------------+
| +I |           1 |
+----+-------------+
Received a total of 1 row
!ok

# test add jar
#! skip: @JAR@
ADD JAR '$VAR_UDF_JAR_PATH';
[INFO] Execute statement succeed.
!info

#! skip: @JAR@
SHOW JARS;
+-$VAR_UDF_JAR_PATH_DASH-----+
| $VAR_UDF_JAR_PATH_SPACEjars |
+-$VAR_UDF_JAR_PATH_DASH-----+
| $VAR_UDF_JAR_PATH |
+-$VAR_UDF_JAR_PATH_DASH-----+
1 row in set
!ok

#! skip: @JAR@
REMOVE JAR '$VAR_UDF_JAR_PATH';
[INFO] Execute statement succeed.
!info

#! skip: @JAR@
SHOW JARS;
Empty set
!ok

#! skip: table.resources.download-dir is where the JVM client downloads jars of functions
reset 'table.resources.download-dir';
[INFO] Execute statement succeed.
!info

# list the configured configuration
#! skip: @SET_LIST@
set;
+--------------------------------------------+-----------+
|                                        key |     value |
+--------------------------------------------+-----------+
|                         execution.attached |      true |
|           execution.savepoint-restore-mode |  NO_CLAIM |
| execution.savepoint.ignore-unclaimed-state |     false |
|        execution.shutdown-on-attached-exit |     false |
|                           execution.target |    remote |
|                     jobmanager.rpc.address | $VAR_JOBMANAGER_RPC_ADDRESS |
|                        pipeline.classpaths |        [] |
|                              pipeline.jars |        [] |
|                                  rest.port |     $VAR_REST_PORT |
|         sql-client.display.print-time-cost |     false |
|           sql-client.execution.result-mode |   tableau |
|           table.exec.legacy-cast-behaviour |  DISABLED |
+--------------------------------------------+-----------+
12 rows in set
!ok

# reset the configuration
reset;
[INFO] Execute statement succeed.
!info

#! skip: @SET_LIST@
set;
+--------------------------------------------+-----------+
|                                        key |     value |
+--------------------------------------------+-----------+
|                         execution.attached |      true |
|           execution.savepoint-restore-mode |  NO_CLAIM |
| execution.savepoint.ignore-unclaimed-state |     false |
|        execution.shutdown-on-attached-exit |     false |
|                           execution.target |    remote |
|                     jobmanager.rpc.address | $VAR_JOBMANAGER_RPC_ADDRESS |
|                        pipeline.classpaths |        [] |
|                              pipeline.jars |        [] |
|                                  rest.port |     $VAR_REST_PORT |
+--------------------------------------------+-----------+
9 rows in set
!ok

# should fail because default dialect doesn't support hive dialect
CREATE TABLE hive_table2 (
  product_id STRING,
  product_name STRING,
  unit_price DECIMAL(10, 4),
  pv_count BIGINT,
  like_count BIGINT,
  comment_count BIGINT,
  update_time TIMESTAMP(3),
  update_user STRING
) PARTITIONED BY (pt_year STRING, pt_month STRING, pt_day STRING) TBLPROPERTIES (
  'streaming-source.enable' = 'true'
);
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.sql.parser.impl.ParseException: Encountered "STRING" at line 10, column 27.
Was expecting one of:
    ")" ...
    "," ...
!error

set 'sql-client.verbose' = 'true';
[INFO] Execute statement succeed.
!info

#! skip: @SET_LIST@
set;
(the cluster's options, as above, and sql-client.verbose)
!ok

#! skip: execution.attached is how the JVM client submits jobs to a cluster
set 'execution.attached' = 'false';
[INFO] Execute statement succeed.
!info

#! skip: execution.attached is how the JVM client submits jobs to a cluster
reset 'execution.attached';
[INFO] Execute statement succeed.
!info

#! skip: @SET_LIST@
set;
(the cluster's options, as above, and sql-client.verbose)
!ok

# test reset can work with add jar
#! skip: @JAR@
ADD JAR '$VAR_UDF_JAR_PATH';
[INFO] Execute statement succeed.
!info

#! skip: @JAR@
SHOW JARS;
(the jar)
!ok

#! skip: @SET_LIST@
set;
(the cluster's options, as above, and sql-client.verbose)
!ok

reset;
[INFO] Execute statement succeed.
!info

#! skip: @JAR@
SHOW JARS;
(the jar)
!ok

SET 'sql-client.execution.result-mode' = 'tableau';
[INFO] Execute statement succeed.
!info

SET 'sql-client.display.print-time-cost' = 'false';
[INFO] Execute statement succeed.
!info

#! skip: a Java UDF class (LowerUDF) from the jar
create function func1 as 'LowerUDF' LANGUAGE JAVA;
[INFO] Execute statement succeed.
!info

#! skip: a Java UDF class (LowerUDF) from the jar
SELECT id, func1(str) FROM (VALUES (1, 'Hello World')) AS T(id, str) ;
+----+-------------+--------------------------------+
| op |          id |                         EXPR$1 |
+----+-------------+--------------------------------+
| +I |           1 |                    hello world |
+----+-------------+--------------------------------+
Received a total of 1 row
!ok

#! skip: @JAR@
REMOVE JAR '$VAR_UDF_JAR_PATH';
[INFO] Execute statement succeed.
!info

#! skip: @JAR@
SHOW JARS;
Empty set
!ok
`
  .replaceAll('@JAR@', JAR)
  .replaceAll('@SET_LIST@', SET_LIST);


// table.q's SHOW COLUMNS tables of `orders`, written once and put back in place (`@NAME@`).
const COLS_HEAD = `|    name |                        type |  null |       key |        extras |                  watermark |`;
const COLS_LINE = '+---------+-----------------------------+-------+-----------+---------------+----------------------------+';
const COLS_ALL = `${COLS_LINE}
${COLS_HEAD}
${COLS_LINE}
|    user |                      BIGINT | FALSE | PRI(user) |               |                            |
| product |                 VARCHAR(32) |  TRUE |           |               |                            |
|  amount |                         INT |  TRUE |           |               |                            |
|      ts |      TIMESTAMP(3) *ROWTIME* |  TRUE |           |               | \`ts\` - INTERVAL '1' SECOND |
|   ptime | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |           | AS PROCTIME() |                            |
${COLS_LINE}
5 rows in set`;
const COLS_USER = `+------+--------+-------+-----------+--------+-----------+
| name |   type |  null |       key | extras | watermark |
+------+--------+-------+-----------+--------+-----------+
| user | BIGINT | FALSE | PRI(user) |        |           |
+------+--------+-------+-----------+--------+-----------+
1 row in set`;
const COLS_NOT_USER = `+---------+-----------------------------+-------+-----+---------------+----------------------------+
|    name |                        type |  null | key |        extras |                  watermark |
+---------+-----------------------------+-------+-----+---------------+----------------------------+
| product |                 VARCHAR(32) |  TRUE |     |               |                            |
|  amount |                         INT |  TRUE |     |               |                            |
|      ts |      TIMESTAMP(3) *ROWTIME* |  TRUE |     |               | \`ts\` - INTERVAL '1' SECOND |
|   ptime | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |     | AS PROCTIME() |                            |
+---------+-----------------------------+-------+-----+---------------+----------------------------+
4 rows in set`;
const COLS_U = `+---------+-------------+-------+-----------+--------+-----------+
|    name |        type |  null |       key | extras | watermark |
+---------+-------------+-------+-----------+--------+-----------+
|    user |      BIGINT | FALSE | PRI(user) |        |           |
| product | VARCHAR(32) |  TRUE |           |        |           |
|  amount |         INT |  TRUE |           |        |           |
+---------+-------------+-------+-----------+--------+-----------+
3 rows in set`;
const COLS_NOT_U = `+-------+-----------------------------+-------+-----+---------------+----------------------------+
|  name |                        type |  null | key |        extras |                  watermark |
+-------+-----------------------------+-------+-----+---------------+----------------------------+
|    ts |      TIMESTAMP(3) *ROWTIME* |  TRUE |     |               | \`ts\` - INTERVAL '1' SECOND |
| ptime | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |     | AS PROCTIME() |                            |
+-------+-----------------------------+-------+-----+---------------+----------------------------+
2 rows in set`;

/**
 * The one-cell `result` table Flink 2.x's client prints for SHOW CREATE: the column is as wide as the whole text,
 * newlines counted (so view.q's and catalog_database.q's tables, kept verbatim above, measure), and the text ends the
 * cell with its own newline.
 */
function resultCell(text) {
  const line = `+-${'-'.repeat(text.length)}-+`;
  return [line, `| ${'result'.padStart(text.length)} |`, line, `| ${text} |`, line, '1 row in set'].join('\n');
}

// table.q (the file is 148 KB), whole: its three EXPLAIN ... JSON_EXECUTION_PLAN statements are skipped (see the reason). `@CREATE <state>@` stands for its SHOW CREATE TABLE tables, the texts of which are in TABLE_Q_CREATES.
const tableQ = q`# table.q - CREATE/DROP/SHOW/ALTER/DESCRIBE TABLE
#! commit: 040d69e506e1014df05368a7bd2e7c48016290aa

# ==========================================================================
# validation test
# ==========================================================================

create table tbl(a int, b as invalid_function());
[ERROR] Could not execute SQL statement. Reason:
org.apache.calcite.sql.validate.SqlValidatorException: No match found for function signature invalid_function()
!error

drop table non_exist;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: Table with identifier 'default_catalog.default_database.non_exist' does not exist.
!error

describe non_exist;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: Tables or views with the identifier 'default_catalog.default_database.non_exist' doesn't exist.
!error

desc non_exist;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: Tables or views with the identifier 'default_catalog.default_database.non_exist' doesn't exist.
!error

alter table non_exist rename to non_exist2;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: Table \`default_catalog\`.\`default_database\`.\`non_exist\` doesn't exist or is a temporary table.
!error

alter table if exists non_exist rename to non_exist2;
[INFO] Execute statement succeed.
!info

# ==========================================================================
# test create table
# ==========================================================================

# test create a table with computed column, primary key, watermark
CREATE TABLE IF NOT EXISTS orders (
 \`user\` BIGINT NOT NULl,
 product VARCHAR(32),
 amount INT,
 ts TIMESTAMP(3),
 ptime AS PROCTIME(),
 PRIMARY KEY(\`user\`) NOT ENFORCED,
 WATERMARK FOR ts AS ts - INTERVAL '1' SECONDS
) with (
 'connector' = 'datagen'
);
[INFO] Execute statement succeed.
!info

# test SHOW TABLES
show tables;
+------------+
| table name |
+------------+
|     orders |
+------------+
1 row in set
!ok

# test SHOW CREATE TABLE
show create table orders;
@CREATE orders datagen@
!ok

# test SHOW COLUMNS
show columns from orders;
@COLS_ALL@
!ok

# test display max colum width
SET 'table.display.max-column-width' = '10';
[INFO] Execute statement succeed.
!info

show columns from orders;
@COLS_ALL@
!ok

SET 'table.display.max-column-width' = '100';
[INFO] Execute statement succeed.
!info

show columns from orders;
@COLS_ALL@
!ok

SET 'sql-client.display.max-column-width' = '10';
[INFO] Execute statement succeed.
!info

show columns from orders;
@COLS_ALL@
!ok

SET 'sql-client.display.max-column-width' = '100';
[INFO] Execute statement succeed.
!info

show columns from orders;
@COLS_ALL@
!ok

show columns in orders;
@COLS_ALL@
!ok

show columns from orders like '%u';
Empty set
!ok

show columns in orders like '%u';
Empty set
!ok

show columns from orders not like '%u';
@COLS_ALL@
!ok

show columns in orders not like '%u';
@COLS_ALL@
!ok

show columns from orders like '%r';
@COLS_USER@
!ok

show columns in orders like '%r';
@COLS_USER@
!ok

show columns from orders not like  '%r';
@COLS_NOT_USER@
!ok

show columns in orders not like  '%r';
@COLS_NOT_USER@
!ok

show columns from orders like '%u%';
@COLS_U@
!ok

show columns in orders like '%u%';
@COLS_U@
!ok

show columns from orders not like '%u%';
@COLS_NOT_U@
!ok

show columns in orders not like '%u%';
@COLS_NOT_U@
!ok

show columns from orders like 'use_';
@COLS_USER@
!ok

show columns in orders like 'use_';
@COLS_USER@
!ok

show columns from orders not like 'use_';
@COLS_NOT_USER@
!ok

show columns in orders not like 'use_';
@COLS_NOT_USER@
!ok

# ==========================================================================
# test alter table rename
# ==========================================================================

alter table orders rename to orders2;
[INFO] Execute statement succeed.
!info

# ==========================================================================
# test alter table set
# ==========================================================================

# test alter table properties
alter table orders2 set ('connector' = 'kafka', 'scan.startup.mode' = 'earliest-offset');
[INFO] Execute statement succeed.
!info

# verify table options using SHOW CREATE TABLE
show create table orders2;
@CREATE orders2 kafka@
!ok

# change connector to 'datagen' without removing 'scan.startup.mode' for the fix later
alter table orders2 set ('connector' = 'datagen');
[INFO] Execute statement succeed.
!info

# verify table options are problematic
show create table orders2;
@CREATE orders2 datagen+startup@
!ok

# test SHOW CREATE VIEW for tables
show create view orders2;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.TableException: SHOW CREATE VIEW is only supported for views, but \`default_catalog\`.\`default_database\`.\`orders2\` is a table. Please use SHOW CREATE TABLE instead.
!error

# test explain plan to verify the table source cannot be created
explain plan for select * from orders2;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: Unsupported options found for 'datagen'.

Unsupported options:

scan.startup.mode

Supported options:

connector
fields.amount.kind
fields.amount.max
fields.amount.min
fields.amount.null-rate
fields.product.kind
fields.product.length
fields.product.null-rate
fields.product.var-len
fields.ts.kind
fields.ts.max-past
fields.ts.null-rate
fields.user.kind
fields.user.max
fields.user.min
fields.user.null-rate
number-of-rows
rows-per-second
!error

# ==========================================================================
# test alter table reset
# ==========================================================================

# test alter table reset to remove invalid key
alter table orders2 reset ('scan.startup.mode');
[INFO] Execute statement succeed.
!info

# verify table options using SHOW CREATE TABLE
show create table orders2;
@CREATE orders2 datagen@
!ok

# test alter table reset emtpy key
alter table orders2 reset ();
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: ALTER TABLE RESET does not support empty key
!error

# ==========================================================================
# test alter table rename column
# ==========================================================================

alter table orders2 rename amount to amount1;
[INFO] Execute statement succeed.
!info

# verify table options using SHOW CREATE TABLE
show create table orders2;
@CREATE orders2 datagen amount1@
!ok

# ==========================================================================
# test alter table add schema
# ==========================================================================

# test alter table schema add an existed column
alter table orders2 add product string first;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: Failed to execute ALTER TABLE statement.
Try to add a column \`product\` which already exists in the table.
!error

# test alter table schema add a column after a nonexistent column
alter table orders2 add user_id string after shipment_info;
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.api.ValidationException: Failed to execute ALTER TABLE statement.
Referenced column \`shipment_info\` by 'AFTER' does not exist in the table.
!error

# test alter table add one column
alter table orders2 add product_id bigint not null after \`user\`;
[INFO] Execute statement succeed.
!info

# verify table schema using SHOW CREATE TABLE
show create table orders2;
@CREATE add product_id@
!ok

# test alter table add multiple columns
alter table orders2 add (user_email string not null after \`user\`, cleaned_product as coalesce(product, 'missing_sku') after product, trade_order_id bigint not null first);
[INFO] Execute statement succeed.
!info

# verify table schema using SHOW CREATE TABLE
show create table orders2;
@CREATE add multiple@
!ok

# ==========================================================================
# test alter table modify schema
# ==========================================================================
# test alter table schema modify primary key
alter table orders2 modify constraint order_constraint primary key (trade_order_id) not enforced;
[INFO] Execute statement succeed.
!info

# verify table schema using SHOW CREATE TABLE
show create table orders2;
@CREATE modify constraint@
!ok

# test alter table schema modify watermark offset, change column position
alter table orders2 modify (watermark for ts as ts - interval '1' minute, ts timestamp(3) not null after trade_order_id, \`user\` string);
[INFO] Execute statement succeed.
!info

# verify table schema using SHOW CREATE TABLE
show create table orders2;
@CREATE modify watermark@
!ok

# ==========================================================================
# test alter table drop column
# ==========================================================================

alter table orders2 drop (amount1, product, cleaned_product);
[INFO] Execute statement succeed.
!info

# verify table options using SHOW CREATE TABLE
show create table orders2;
@CREATE drop columns@
!ok

# ==========================================================================
# test alter table drop primary key
# ==========================================================================

alter table orders2 drop primary key;
[INFO] Execute statement succeed.
!info

# verify table options using SHOW CREATE TABLE
show create table orders2;
@CREATE drop primary key@
!ok

# ==========================================================================
# test alter table drop watermark
# ==========================================================================

alter table orders2 drop watermark;
[INFO] Execute statement succeed.
!info

# verify table options using SHOW CREATE TABLE
show create table orders2;
@CREATE drop watermark@
!ok

# ==========================================================================
# test describe table
# ==========================================================================

describe orders2;
@DESC_ORDERS2@
!ok

# test desc table
desc orders2;
@DESC_ORDERS2@
!ok

# ==========================================================================
# test drop table
# ==========================================================================

drop table orders2;
[INFO] Execute statement succeed.
!info

# verify table is dropped
show tables;
Empty set
!ok

# ==========================================================================
# test temporary table
# ==========================================================================

create temporary table tbl1 (
 \`user\` BIGINT NOT NULl,
 product VARCHAR(32),
 amount INT
) with (
 'connector' = 'datagen'
);
[INFO] Execute statement succeed.
!info

# TODO: warning users the table already exists
create temporary table if not exists tbl1 (
   \`user\` BIGINT NOT NULl,
   product VARCHAR(32),
   amount INT
) with (
 'connector' = 'datagen'
);
[INFO] Execute statement succeed.
!info

# list permanent and temporary tables together
show tables;
+------------+
| table name |
+------------+
|       tbl1 |
+------------+
1 row in set
!ok

# SHOW CREATE TABLE for temporary table
show create table tbl1;
@CREATE tbl1@
!ok

drop temporary table tbl1;
[INFO] Execute statement succeed.
!info

# ==========================================================================
# test playing with keyword identifiers
# ==========================================================================

create table \`mod\` (\`table\` string, \`database\` string) with ('connector' = 'values');
[INFO] Execute statement succeed.
!info

describe \`mod\`;
@DESC_MOD@
!ok

desc \`mod\`;
@DESC_MOD@
!ok

drop table \`mod\`;
[INFO] Execute statement succeed.
!info

show tables;
Empty set
!ok

# ==========================================================================
# test describe/showColumns/showCreateTable with comment
# ==========================================================================

CREATE TABLE \`default_catalog\`.\`default_database\`.\`orders3\` (
  \`user\` BIGINT NOT NULL comment 'this is the primary key, named ''user''.',
  \`product\` VARCHAR(32),
  \`amount\` INT,
  \`ts\` TIMESTAMP(3) comment 'notice: watermark, named ''ts''.',
  \`ptime\` AS PROCTIME() comment 'notice: computed column, named ''ptime''.',
  WATERMARK FOR \`ts\` AS \`ts\` - INTERVAL '1' SECOND,
  CONSTRAINT \`PK_user\` PRIMARY KEY (\`user\`) NOT ENFORCED
) WITH (
  'connector' = 'kafka',
  'scan.startup.mode' = 'earliest-offset'
);
[INFO] Execute statement succeed.
!info

# test describe
describe orders3;
@DESC_ORDERS3@
!ok

# test desc
desc orders3;
@DESC_ORDERS3@
!ok

# test show columns
show columns from orders3;
@DESC_ORDERS3@
!ok

show columns in orders3 like 'p%';
+---------+-----------------------------+-------+-----+---------------+-----------+-----------------------------------------+
|    name |                        type |  null | key |        extras | watermark |                                 comment |
+---------+-----------------------------+-------+-----+---------------+-----------+-----------------------------------------+
| product |                 VARCHAR(32) |  TRUE |     |               |           |                                         |
|   ptime | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |     | AS PROCTIME() |           | notice: computed column, named 'ptime'. |
+---------+-----------------------------+-------+-----+---------------+-----------+-----------------------------------------+
2 rows in set
!ok

# test show create table
show create table orders3;
@CREATE orders3@
!ok

# ==========================================================================
# test explain
# ==========================================================================

CREATE TABLE IF NOT EXISTS orders (
 \`user\` BIGINT NOT NULl,
 product VARCHAR(32),
 amount INT,
 ts TIMESTAMP(3),
 ptime AS PROCTIME(),
 PRIMARY KEY(\`user\`) NOT ENFORCED,
 WATERMARK FOR ts AS ts - INTERVAL '1' SECONDS
) with (
 'connector' = 'datagen'
);
[INFO] Execute statement succeed.
!info

CREATE TABLE IF NOT EXISTS orders2 (
 \`user\` BIGINT NOT NULl,
 product VARCHAR(32),
 amount INT,
 ts TIMESTAMP(3),
 PRIMARY KEY(\`user\`) NOT ENFORCED
) with (
 'connector' = 'blackhole'
);
[INFO] Execute statement succeed.
!info

CREATE TABLE IF NOT EXISTS daily_orders (
 \`user\` BIGINT NOT NULl,
 product STRING,
 amount INT,
 dt STRING NOT NULL,
 PRIMARY KEY(dt, \`user\`) NOT ENFORCED
) PARTITIONED BY (dt) WITH (
 'connector' = 'filesystem',
 'path' = '$VAR_BATCH_PATH',
 'format' = 'csv'
);
[INFO] Execute statement succeed.
!info

# test explain plan for select
explain plan for select \`user\`, product from orders;
@PLAN select@
!ok

# test explain plan for insert
explain plan for insert into orders2 select \`user\`, product, amount, ts from orders;
@PLAN insert@
!ok

# test explain plan for insert into with static partition
explain plan for insert into daily_orders partition (dt = '2022-06-12') values (123, 'toothpick', 1);
@PLAN static values@
!ok

# test explain plan for insert overwrite with static partition
explain plan for insert into daily_orders partition (dt = '2022-06-12') select \`user\`, product, amount from daily_orders where dt = '2022-06-12';
@PLAN static select@
!ok

# test explain select
explain select \`user\`, product from orders;
@PLAN select@
!ok

# test explain insert
explain insert into orders2 select \`user\`, product, amount, ts from orders;
@PLAN insert@
!ok

# test explain insert with json format
#! skip: @JSON_PLAN@
explain json_execution_plan insert into orders2 select \`user\`, product, amount, ts from orders;
(the plan above and its JSON execution plan, in one result cell)
!ok

# test explain select with json format
#! skip: @JSON_PLAN@
explain json_execution_plan select \`user\`, product from orders;
(the plan above and its JSON execution plan, in one result cell)
!ok

# test explain select with ESTIMATED_COST
explain estimated_cost select \`user\`, product from orders;
@PLAN estimated_cost@
!ok

# test explain select with CHANGELOG_MODE
explain changelog_mode select \`user\`, product from orders;
@PLAN changelog_mode@
!ok

# test explain select with PLAN_ADVICE
# test explain select with PLAN_ADVICE
explain plan_advice select sum(\`amount\`) as revenue, count(distinct \`user\`) as buyer_cnt from orders;
@PLAN plan_advice@
!ok

# test explain select with all details
#! skip: @JSON_PLAN@
explain changelog_mode, estimated_cost, plan_advice, json_execution_plan select \`user\`, product from orders;
(the plan with changelog modes, costs and "No available advice...", and its JSON execution plan, in one result cell)
!ok
`.replaceAll(
  '@JSON_PLAN@',
  "not transcribed: the JSON plan's operator ids are blanked by Flink's harness after it measured the result table, so the table's width is not the text's",
);

// The EXPLAIN texts of table.q's "test explain" section, each printed by Flink in one `result` cell.
const PLANS = {
  select: `== Abstract Syntax Tree ==
LogicalProject(user=[$0], product=[$1])
+- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($3, 1000:INTERVAL SECOND)])
   +- LogicalProject(user=[$0], product=[$1], amount=[$2], ts=[$3], ptime=[PROCTIME()])
      +- LogicalTableScan(table=[[default_catalog, default_database, orders]])

== Optimized Physical Plan ==
Calc(select=[user, product])
+- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 1000:INTERVAL SECOND)])
   +- Calc(select=[user, product, ts])
      +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[user, product, amount, ts])

== Optimized Execution Plan ==
Calc(select=[user, product])
+- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])
   +- Calc(select=[user, product, ts])
      +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[user, product, amount, ts])
`,
  insert: `== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.orders2], fields=[user, product, amount, ts])
+- LogicalProject(user=[$0], product=[$1], amount=[$2], ts=[$3])
   +- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($3, 1000:INTERVAL SECOND)])
      +- LogicalProject(user=[$0], product=[$1], amount=[$2], ts=[$3], ptime=[PROCTIME()])
         +- LogicalTableScan(table=[[default_catalog, default_database, orders]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.orders2], fields=[user, product, amount, ts])
+- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 1000:INTERVAL SECOND)])
   +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[user, product, amount, ts])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.orders2], fields=[user, product, amount, ts])
+- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])
   +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[user, product, amount, ts])
`,
  'static values': `== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.daily_orders], fields=[user, product, amount, dt])
+- LogicalProject(user=[123:BIGINT], product=[_UTF-16LE'toothpick':VARCHAR(2147483647) CHARACTER SET "UTF-16LE"], amount=[1], dt=[_UTF-16LE'2022-06-12':VARCHAR(2147483647) CHARACTER SET "UTF-16LE"])
   +- LogicalValues(tuples=[[{ 0 }]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.daily_orders], fields=[user, product, amount, dt])
+- Calc(select=[123:BIGINT AS user, _UTF-16LE'toothpick':VARCHAR(2147483647) CHARACTER SET "UTF-16LE" AS product, 1 AS amount, _UTF-16LE'2022-06-12':VARCHAR(2147483647) CHARACTER SET "UTF-16LE" AS dt])
   +- Values(type=[RecordType(INTEGER ZERO)], tuples=[[{ 0 }]])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.daily_orders], fields=[user, product, amount, dt])
+- Calc(select=[123 AS user, 'toothpick' AS product, 1 AS amount, '2022-06-12' AS dt])
   +- Values(tuples=[[{ 0 }]])
`,
  estimated_cost: `== Abstract Syntax Tree ==
LogicalProject(user=[$0], product=[$1])
+- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($3, 1000:INTERVAL SECOND)])
   +- LogicalProject(user=[$0], product=[$1], amount=[$2], ts=[$3], ptime=[PROCTIME()])
      +- LogicalTableScan(table=[[default_catalog, default_database, orders]])

== Optimized Physical Plan ==
Calc(select=[user, product]): rowcount = 1.0E8, cumulative cost = {4.0E8 rows, 2.0E8 cpu, 3.6E9 io, 0.0 network, 0.0 memory}
+- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 1000:INTERVAL SECOND)]): rowcount = 1.0E8, cumulative cost = {3.0E8 rows, 2.0E8 cpu, 3.6E9 io, 0.0 network, 0.0 memory}
   +- Calc(select=[user, product, ts]): rowcount = 1.0E8, cumulative cost = {2.0E8 rows, 1.0E8 cpu, 3.6E9 io, 0.0 network, 0.0 memory}
      +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[user, product, amount, ts]): rowcount = 1.0E8, cumulative cost = {1.0E8 rows, 1.0E8 cpu, 3.6E9 io, 0.0 network, 0.0 memory}

== Optimized Execution Plan ==
Calc(select=[user, product])
+- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])
   +- Calc(select=[user, product, ts])
      +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[user, product, amount, ts])
`,
  changelog_mode: `== Abstract Syntax Tree ==
LogicalProject(user=[$0], product=[$1])
+- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($3, 1000:INTERVAL SECOND)])
   +- LogicalProject(user=[$0], product=[$1], amount=[$2], ts=[$3], ptime=[PROCTIME()])
      +- LogicalTableScan(table=[[default_catalog, default_database, orders]])

== Optimized Physical Plan ==
Calc(select=[user, product], changelogMode=[I])
+- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 1000:INTERVAL SECOND)], changelogMode=[I])
   +- Calc(select=[user, product, ts], changelogMode=[I])
      +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[user, product, amount, ts], changelogMode=[I])

== Optimized Execution Plan ==
Calc(select=[user, product])
+- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])
   +- Calc(select=[user, product, ts])
      +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[user, product, amount, ts])
`,
  plan_advice: `== Abstract Syntax Tree ==
LogicalAggregate(group=[{}], revenue=[SUM($0)], buyer_cnt=[COUNT(DISTINCT $1)])
+- LogicalProject(amount=[$2], user=[$0])
   +- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($3, 1000:INTERVAL SECOND)])
      +- LogicalProject(user=[$0], product=[$1], amount=[$2], ts=[$3], ptime=[PROCTIME()])
         +- LogicalTableScan(table=[[default_catalog, default_database, orders]])

== Optimized Physical Plan With Advice ==
GroupAggregate(advice=[1], select=[SUM(amount) AS revenue, COUNT(DISTINCT user) AS buyer_cnt])
+- Exchange(distribution=[single])
   +- Calc(select=[amount, user])
      +- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 1000:INTERVAL SECOND)])
         +- Calc(select=[amount, user, ts])
            +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[user, product, amount, ts])

advice[1]: [ADVICE] You might want to enable local-global two-phase optimization by configuring ('table.exec.mini-batch.enabled' to 'true', 'table.exec.mini-batch.allow-latency' to a positive long value, 'table.exec.mini-batch.size' to a positive long value).

== Optimized Execution Plan ==
GroupAggregate(select=[SUM(amount) AS revenue, COUNT(DISTINCT user) AS buyer_cnt])
+- Exchange(distribution=[single])
   +- Calc(select=[amount, user])
      +- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])
         +- Calc(select=[amount, user, ts])
            +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[user, product, amount, ts])
`,
  'static select': `== Abstract Syntax Tree ==
LogicalSink(table=[default_catalog.default_database.daily_orders], fields=[user, product, amount, EXPR$3])
+- LogicalProject(user=[$0], product=[$1], amount=[$2], EXPR$3=[_UTF-16LE'2022-06-12':VARCHAR(2147483647) CHARACTER SET "UTF-16LE"])
   +- LogicalFilter(condition=[=($3, _UTF-16LE'2022-06-12')])
      +- LogicalTableScan(table=[[default_catalog, default_database, daily_orders]])

== Optimized Physical Plan ==
Sink(table=[default_catalog.default_database.daily_orders], fields=[user, product, amount, EXPR$3])
+- Values(type=[RecordType(BIGINT user, VARCHAR(2147483647) product, INTEGER amount, VARCHAR(2147483647) EXPR$3)], tuples=[[]])

== Optimized Execution Plan ==
Sink(table=[default_catalog.default_database.daily_orders], fields=[user, product, amount, EXPR$3])
+- Values(tuples=[[]])
`,
};

const DESC_ORDERS2 = `+----------------+-----------------------------+-------+-----+---------------+-----------+
|           name |                        type |  null | key |        extras | watermark |
+----------------+-----------------------------+-------+-----+---------------+-----------+
| trade_order_id |                      BIGINT | FALSE |     |               |           |
|             ts |                TIMESTAMP(3) | FALSE |     |               |           |
|           user |                      STRING |  TRUE |     |               |           |
|     user_email |                      STRING | FALSE |     |               |           |
|     product_id |                      BIGINT | FALSE |     |               |           |
|          ptime | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |     | AS PROCTIME() |           |
+----------------+-----------------------------+-------+-----+---------------+-----------+
6 rows in set`;
const DESC_MOD = `+----------+--------+------+-----+--------+-----------+
|     name |   type | null | key | extras | watermark |
+----------+--------+------+-----+--------+-----------+
|    table | STRING | TRUE |     |        |           |
| database | STRING | TRUE |     |        |           |
+----------+--------+------+-----+--------+-----------+
2 rows in set`;
const DESC_ORDERS3 = `+---------+-----------------------------+-------+-----------+---------------+----------------------------+-----------------------------------------+
|    name |                        type |  null |       key |        extras |                  watermark |                                 comment |
+---------+-----------------------------+-------+-----------+---------------+----------------------------+-----------------------------------------+
|    user |                      BIGINT | FALSE | PRI(user) |               |                            |  this is the primary key, named 'user'. |
| product |                 VARCHAR(32) |  TRUE |           |               |                            |                                         |
|  amount |                         INT |  TRUE |           |               |                            |                                         |
|      ts |      TIMESTAMP(3) *ROWTIME* |  TRUE |           |               | \`ts\` - INTERVAL '1' SECOND |          notice: watermark, named 'ts'. |
|   ptime | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |           | AS PROCTIME() |                            | notice: computed column, named 'ptime'. |
+---------+-----------------------------+-------+-----------+---------------+----------------------------+-----------------------------------------+
5 rows in set`;

/** A SHOW CREATE TABLE text of table.q: the name line, the body lines and the WITH options, as Flink prints them. */
const createText = (head, body, options = ["'connector' = 'datagen'"]) =>
  `${head} (\n${body.map((l) => `  ${l}`).join(',\n')}\n) WITH (\n${options.map((o) => `  ${o}`).join(',\n')}\n)\n`;
const ORDERS2 = 'CREATE TABLE `default_catalog`.`default_database`.`orders2`';
const WM_SECOND = "WATERMARK FOR `ts` AS `ts` - INTERVAL '1' SECOND";
const WM_MINUTE = "WATERMARK FOR `ts` AS `ts` - INTERVAL '1' MINUTE";
const PK_USER = 'CONSTRAINT `PK_user` PRIMARY KEY (`user`) NOT ENFORCED';
const PK_ORDER = 'CONSTRAINT `order_constraint` PRIMARY KEY (`trade_order_id`) NOT ENFORCED';
const AFTER_ADD = ['`trade_order_id` BIGINT NOT NULL', '`user` BIGINT NOT NULL', '`user_email` VARCHAR(2147483647) NOT NULL', '`product_id` BIGINT NOT NULL', '`product` VARCHAR(32)', "`cleaned_product` AS COALESCE(`product`, 'missing_sku')", '`amount1` INT', '`ts` TIMESTAMP(3)', '`ptime` AS PROCTIME()'];
const AFTER_MODIFY = ['`trade_order_id` BIGINT NOT NULL', '`ts` TIMESTAMP(3) NOT NULL', '`user` VARCHAR(2147483647)', '`user_email` VARCHAR(2147483647) NOT NULL', '`product_id` BIGINT NOT NULL'];
const TABLE_Q_MORE_CREATES = {
  'add product_id': createText(ORDERS2, ['`user` BIGINT NOT NULL', '`product_id` BIGINT NOT NULL', '`product` VARCHAR(32)', '`amount1` INT', '`ts` TIMESTAMP(3)', '`ptime` AS PROCTIME()', WM_SECOND, PK_USER]),
  'add multiple': createText(ORDERS2, [...AFTER_ADD, WM_SECOND, PK_USER]),
  'modify constraint': createText(ORDERS2, [...AFTER_ADD, WM_SECOND, PK_ORDER]),
  'modify watermark': createText(ORDERS2, [...AFTER_MODIFY, '`product` VARCHAR(32)', "`cleaned_product` AS COALESCE(`product`, 'missing_sku')", '`amount1` INT', '`ptime` AS PROCTIME()', WM_MINUTE, PK_ORDER]),
  'drop columns': createText(ORDERS2, [...AFTER_MODIFY, '`ptime` AS PROCTIME()', WM_MINUTE, PK_ORDER]),
  'drop primary key': createText(ORDERS2, [...AFTER_MODIFY, '`ptime` AS PROCTIME()', WM_MINUTE]),
  'drop watermark': createText(ORDERS2, [...AFTER_MODIFY, '`ptime` AS PROCTIME()']),
  tbl1: createText('CREATE TEMPORARY TABLE `default_catalog`.`default_database`.`tbl1`', ['`user` BIGINT NOT NULL', '`product` VARCHAR(32)', '`amount` INT']),
  orders3: createText(
    'CREATE TABLE `default_catalog`.`default_database`.`orders3`',
    [
      "`user` BIGINT NOT NULL COMMENT 'this is the primary key, named ''user''.'",
      '`product` VARCHAR(32)',
      '`amount` INT',
      "`ts` TIMESTAMP(3) COMMENT 'notice: watermark, named ''ts''.'",
      "`ptime` AS PROCTIME() COMMENT 'notice: computed column, named ''ptime''.'",
      WM_SECOND,
      PK_USER,
    ],
    ["'connector' = 'kafka'", "'scan.startup.mode' = 'earliest-offset'"],
  ),
};

/** The SHOW CREATE TABLE text of table.q's `orders` table in its successive states. */
function createOrders(name, options, amount = 'amount') {
  return `CREATE TABLE \`default_catalog\`.\`default_database\`.\`${name}\` (
  \`user\` BIGINT NOT NULL,
  \`product\` VARCHAR(32),
  \`${amount}\` INT,
  \`ts\` TIMESTAMP(3),
  \`ptime\` AS PROCTIME(),
  WATERMARK FOR \`ts\` AS \`ts\` - INTERVAL '1' SECOND,
  CONSTRAINT \`PK_user\` PRIMARY KEY (\`user\`) NOT ENFORCED
) WITH (
${options.map((o) => `  ${o}`).join(',\n')}
)
`;
}

const TABLE_Q_CREATES = {
  'orders datagen': createOrders('orders', ["'connector' = 'datagen'"]),
  'orders2 kafka': createOrders('orders2', ["'connector' = 'kafka'", "'scan.startup.mode' = 'earliest-offset'"]),
  'orders2 datagen+startup': createOrders('orders2', ["'connector' = 'datagen'", "'scan.startup.mode' = 'earliest-offset'"]),
  'orders2 datagen': createOrders('orders2', ["'connector' = 'datagen'"]),
  'orders2 datagen amount1': createOrders('orders2', ["'connector' = 'datagen'"], 'amount1'),
};

const expandTableQ = (text) =>
  text
    .replace(/@CREATE ([^@]+)@/g, (_, key) => resultCell(TABLE_Q_CREATES[key] ?? TABLE_Q_MORE_CREATES[key]))
    .replace(/@PLAN ([^@]+)@/g, (_, key) => resultCell(PLANS[key]))
    .replaceAll('@DESC_ORDERS2@', DESC_ORDERS2)
    .replaceAll('@DESC_MOD@', DESC_MOD)
    .replaceAll('@DESC_ORDERS3@', DESC_ORDERS3)
    .replaceAll('@COLS_ALL@', COLS_ALL)
    .replaceAll('@COLS_USER@', COLS_USER)
    .replaceAll('@COLS_NOT_USER@', COLS_NOT_USER)
    .replaceAll('@COLS_U@', COLS_U)
    .replaceAll('@COLS_NOT_U@', COLS_NOT_U);

// insert.q: $VAR_STREAMING_PATH and $VAR_BATCH_PATH are Flink's harness placeholders for temporary directories.
const insertQ = q`# insert.q - insert
#! commit: 1a0227f86d34f43d414f9f48e3e0cb7d7124dbcf

SET 'sql-client.execution.result-mode' = 'tableau';
[INFO] Execute statement succeeded.
!info

SET 'table.dml-sync' = 'true';
[INFO] Execute statement succeeded.
!info

# ==========================================================================
# test streaming insert
# ==========================================================================

SET 'execution.runtime-mode' = 'streaming';
[INFO] Execute statement succeeded.
!info

create table StreamingTable (
  id int,
  str string
) with (
  'connector' = 'filesystem',
  'path' = '$VAR_STREAMING_PATH',
  'format' = 'csv'
);
[INFO] Execute statement succeeded.
!info

INSERT INTO StreamingTable SELECT * FROM (VALUES (1, 'Hello World'), (2, 'Hi'), (2, 'Hi'), (3, 'Hello'), (3, 'World'), (4, 'ADD'), (5, 'LINE'));
[INFO] Complete execution of the SQL update statement.
!info

SELECT * FROM StreamingTable;
+----+-------------+--------------------------------+
| op |          id |                            str |
+----+-------------+--------------------------------+
| +I |           1 |                    Hello World |
| +I |           2 |                             Hi |
| +I |           2 |                             Hi |
| +I |           3 |                          Hello |
| +I |           3 |                          World |
| +I |           4 |                            ADD |
| +I |           5 |                           LINE |
+----+-------------+--------------------------------+
Received a total of 7 rows
!ok

# ==========================================================================
# test batch insert
# ==========================================================================

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

create table BatchTable (
  id int,
  str string
) with (
  'connector' = 'filesystem',
  'path' = '$VAR_BATCH_PATH',
  'format' = 'csv'
);
[INFO] Execute statement succeeded.
!info

INSERT INTO BatchTable SELECT * FROM (VALUES (1, 'Hello World'), (2, 'Hi'), (2, 'Hi'), (3, 'Hello'), (3, 'World'), (4, 'ADD'), (5, 'LINE'));
[INFO] Complete execution of the SQL update statement.
!info

SELECT * FROM BatchTable;
+----+-------------+
| id |         str |
+----+-------------+
|  1 | Hello World |
|  2 |          Hi |
|  2 |          Hi |
|  3 |       Hello |
|  3 |       World |
|  4 |         ADD |
|  5 |        LINE |
+----+-------------+
7 rows in set
!ok
`;

const selectBatchQ = q`# select.q - SELECT query
#! commit: 1a0227f86d34f43d414f9f48e3e0cb7d7124dbcf

# set default streaming mode and tableau result mode

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info

SET 'sql-client.execution.result-mode' = 'tableau';
[INFO] Execute statement succeeded.
!info

SELECT id, COUNT(*) as cnt, COUNT(DISTINCT str) as uv
FROM (VALUES (1, 'Hello World'), (2, 'Hi'), (2, 'Hi')) as T(id, str)
GROUP BY id;
+----+-----+----+
| id | cnt | uv |
+----+-----+----+
|  1 |   1 |  1 |
|  2 |   2 |  1 |
+----+-----+----+
2 rows in set
!ok

SET 'table.local-time-zone' = 'UTC';
[INFO] Execute statement succeeded.
!info

SELECT TIME '20:12:11' as time0,
 ts0, ts3, ts9,
 TO_TIMESTAMP_LTZ(1, 0) AS ts_ltz0,
 TO_TIMESTAMP_LTZ(1, 3) AS ts_ltz3,
 CAST(ts9 as TIMESTAMP_LTZ(9)) AS ts_ltz9
FROM (VALUES
  (1, TIMESTAMP '2021-04-13 20:12:11', TIMESTAMP '2021-04-13 20:12:11.123', TIMESTAMP '2021-04-13 20:12:11.123456789'),
  (2, TIMESTAMP '2021-04-13 21:12:11', TIMESTAMP '2021-04-13 21:12:11.001', TIMESTAMP '2021-04-13 21:12:11.1'))
   as T(id, ts0, ts3, ts9);
+----------+---------------------+-------------------------+-------------------------------+-------------------------+-------------------------+-------------------------------+
|    time0 |                 ts0 |                     ts3 |                           ts9 |                 ts_ltz0 |                 ts_ltz3 |                       ts_ltz9 |
+----------+---------------------+-------------------------+-------------------------------+-------------------------+-------------------------+-------------------------------+
| 20:12:11 | 2021-04-13 20:12:11 | 2021-04-13 20:12:11.123 | 2021-04-13 20:12:11.123456789 | 1970-01-01 00:00:01.000 | 1970-01-01 00:00:00.001 | 2021-04-13 20:12:11.123456789 |
| 20:12:11 | 2021-04-13 21:12:11 | 2021-04-13 21:12:11.001 | 2021-04-13 21:12:11.100000000 | 1970-01-01 00:00:01.000 | 1970-01-01 00:00:00.001 | 2021-04-13 21:12:11.100000000 |
+----------+---------------------+-------------------------+-------------------------------+-------------------------+-------------------------+-------------------------------+
2 rows in set
!ok

# ==========================================================================
# Testing behavior of table.display.max-column-width
# Only variable width columns are impacted at the moment => STRING, but not TIMESTAMP nor BOOLEAN
# ==========================================================================

CREATE TEMPORARY VIEW
  testUserData(name, dob, isHappy)
AS (VALUES
  ('30b5c1bb-0ac0-43d3-b812-fcb649fd2b07', TIMESTAMP '2001-01-13 20:11:11.123', true),
  ('91170c98-2cc5-4935-9ea6-12b72d32fb3c', TIMESTAMP '1994-02-14 21:12:11.123', true),
  ('8b012d93-6ece-48ad-a2ea-aa75ef7b1d60', TIMESTAMP '1979-03-15 22:13:11.123', false),
  ('09969d9e-d584-11eb-b8bc-0242ac130003', TIMESTAMP '1985-04-16 23:14:11.123', true)
);
[INFO] Execute statement succeeded.
!info

SELECT * from testUserData;
+--------------------------------+-------------------------+---------+
|                           name |                     dob | isHappy |
+--------------------------------+-------------------------+---------+
| 30b5c1bb-0ac0-43d3-b812-fcb... | 2001-01-13 20:11:11.123 |    TRUE |
| 91170c98-2cc5-4935-9ea6-12b... | 1994-02-14 21:12:11.123 |    TRUE |
| 8b012d93-6ece-48ad-a2ea-aa7... | 1979-03-15 22:13:11.123 |   FALSE |
| 09969d9e-d584-11eb-b8bc-024... | 1985-04-16 23:14:11.123 |    TRUE |
+--------------------------------+-------------------------+---------+
4 rows in set
!ok

SET 'table.display.max-column-width' = '10';
[INFO] Execute statement succeeded.
!info

SELECT * from testUserData;
+------------+------------+---------+
|       name |        dob | isHappy |
+------------+------------+---------+
| 30b5c1b... | 2001-01... |    TRUE |
| 91170c9... | 1994-02... |    TRUE |
| 8b012d9... | 1979-03... |   FALSE |
| 09969d9... | 1985-04... |    TRUE |
+------------+------------+---------+
4 rows in set
!ok

SET 'table.display.max-column-width' = '40';
[INFO] Execute statement succeeded.
!info

SELECT * from testUserData;
+--------------------------------------+-------------------------+---------+
|                                 name |                     dob | isHappy |
+--------------------------------------+-------------------------+---------+
| 30b5c1bb-0ac0-43d3-b812-fcb649fd2b07 | 2001-01-13 20:11:11.123 |    TRUE |
| 91170c98-2cc5-4935-9ea6-12b72d32fb3c | 1994-02-14 21:12:11.123 |    TRUE |
| 8b012d93-6ece-48ad-a2ea-aa75ef7b1d60 | 1979-03-15 22:13:11.123 |   FALSE |
| 09969d9e-d584-11eb-b8bc-0242ac130003 | 1985-04-16 23:14:11.123 |    TRUE |
+--------------------------------------+-------------------------+---------+
4 rows in set
!ok

-- post-test cleanup + setting back default max width value
DROP TEMPORARY VIEW testUserData;
[INFO] Execute statement succeeded.
!info

SET 'table.display.max-column-width' = '30';
[INFO] Execute statement succeeded.
!info

SELECT INTERVAL '1' DAY as dayInterval, INTERVAL '1' YEAR as yearInterval;
+-----------------+--------------+
|     dayInterval | yearInterval |
+-----------------+--------------+
| +1 00:00:00.000 |        +1-00 |
+-----------------+--------------+
1 row in set
!ok
`;

// statement_set.q as the SQL gateway's copy of the client scripts has it (the client through the gateway, with the
// gateway's SqlExecutionException messages).
const statementSetQ = q`# statement-set.q - BEGIN STATEMENT SET, END
#! commit: 9f45c13538ab75fbbd0d6b9238a92709ef2833bb

SET 'sql-client.execution.result-mode' = 'tableau';
!output
[INFO] Execute statement succeed.
!info

SET 'table.dml-sync' = 'true';
!output
[INFO] Execute statement succeed.
!info

create table src (
  id int,
  str string
) with (
  'connector' = 'values'
);
!output
[INFO] Execute statement succeed.
!info

# ==========================================================================
# test statement set with streaming insert
# ==========================================================================

SET 'execution.runtime-mode' = 'streaming';
!output
[INFO] Execute statement succeed.
!info

create table StreamingTable (
  id int,
  str string
) with (
  'connector' = 'filesystem',
  'path' = '$VAR_STREAMING_PATH',
  'format' = 'csv'
);
!output
[INFO] Execute statement succeed.
!info

BEGIN STATEMENT SET;
!output
[INFO] Execute statement succeed.
!info

BEGIN STATEMENT SET;
!output
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.gateway.service.utils.SqlExecutionException: Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' statement to submit Statement Set.
!error

create table src (
  id int,
  str string
) with (
  'connector' = 'values'
);
!output
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.gateway.service.utils.SqlExecutionException: Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' statement to submit Statement Set.
!error

SELECT id, str FROM (VALUES (1, 'Hello World'), (2, 'Hi'), (2, 'Hi')) as T(id, str);
!output
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.gateway.service.utils.SqlExecutionException: Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' statement to submit Statement Set.
!error

INSERT INTO StreamingTable SELECT * FROM (VALUES (1, 'Hello World'), (2, 'Hi'), (2, 'Hi'), (3, 'Hello'), (3, 'World'), (4, 'ADD'), (5, 'LINE'));
!output
[INFO] Execute statement succeed.
!info

END;
!output
[INFO] Complete execution of the SQL update statement.
!info

END;
!output
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.gateway.service.utils.SqlExecutionException: No Statement Set to submit. 'END' statement should be used after 'BEGIN STATEMENT SET'.
!error

SELECT * FROM StreamingTable;
!output
+----+-------------+--------------------------------+
| op |          id |                            str |
+----+-------------+--------------------------------+
| +I |           1 |                    Hello World |
| +I |           2 |                             Hi |
| +I |           2 |                             Hi |
| +I |           3 |                          Hello |
| +I |           3 |                          World |
| +I |           4 |                            ADD |
| +I |           5 |                           LINE |
+----+-------------+--------------------------------+
Received a total of 7 rows
!ok

# ==========================================================================
# test statement set with batch inserts
# ==========================================================================

SET 'execution.runtime-mode' = 'batch';
!output
[INFO] Execute statement succeed.
!info

create table BatchTable (
id int,
str string
) with (
'connector' = 'filesystem',
'path' = '$VAR_BATCH_PATH',
'format' = 'csv'
);
!output
[INFO] Execute statement succeed.
!info

BEGIN STATEMENT SET;
!output
[INFO] Execute statement succeed.
!info

BEGIN STATEMENT SET;
!output
[ERROR] Could not execute SQL statement. Reason:
org.apache.flink.table.gateway.service.utils.SqlExecutionException: Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' statement to submit Statement Set.
!error

INSERT INTO BatchTable SELECT * FROM (VALUES (1, 'Hello World'), (2, 'Hi'), (2, 'Hi'), (3, 'Hello'), (3, 'World'), (4, 'ADD'), (5, 'LINE'));
!output
[INFO] Execute statement succeed.
!info

END;
!output
[INFO] Complete execution of the SQL update statement.
!info

SELECT * FROM BatchTable;
!output
+----+-------------+
| id |         str |
+----+-------------+
|  1 | Hello World |
|  2 |          Hi |
|  2 |          Hi |
|  3 |       Hello |
|  3 |       World |
|  4 |         ADD |
|  5 |        LINE |
+----+-------------+
7 rows in set
!ok

BEGIN STATEMENT SET;
!output
[INFO] Execute statement succeed.
!info

END;
!output
[INFO] Execute statement succeed.
!info
`;

const materializedTableQ = q`# materialized_table.q - CREATE/DROP/SHOW/ALTER MATERIALIZED TABLE
#! commit: 1b1cad18c9af76b9b2d7c6a0da0836f655f7663e

# ==========================================================================
# test create source table
# ==========================================================================

CREATE TABLE datagenSource (
  order_id BIGINT,
  order_number VARCHAR(20),
  user_id BIGINT,
  shop_id BIGINT,
  product_id BIGINT,
  status BIGINT,
  order_type BIGINT,
  order_created_at TIMESTAMP(3),
  payment_amount_cents BIGINT
)
WITH (
  'connector' = 'datagen',
  'rows-per-second' = '10'
);
[INFO] Execute statement succeeded.
!info

# ==========================================================================
# test create materialized table without explicit FRESHNESS (uses default)
# REFRESH_MODE = CONTINUOUS to avoid workflow scheduler requirement
# ==========================================================================

CREATE MATERIALIZED TABLE users_shops
PARTITIONED BY (ds)
WITH(
   'connector' = 'blackhole'
)
REFRESH_MODE = CONTINUOUS
AS SELECT
  user_id,
  shop_id,
  ds,
  SUM (payment_amount_cents) AS payed_buy_fee_sum,
  SUM (1) AS pv
 FROM (
    SELECT user_id, shop_id, DATE_FORMAT(order_created_at, 'yyyy-MM-dd') AS ds, payment_amount_cents FROM datagenSource
 ) AS tmp
 GROUP BY user_id, shop_id, ds;
[INFO] Execute statement succeeded.
!info

# ==========================================================================
# test SHOW CREATE MATERIALIZED TABLE displays enriched FRESHNESS
# ==========================================================================

SHOW CREATE MATERIALIZED TABLE users_shops;
@MT users_shops@
!ok

# ==========================================================================
# test create materialized table with explicit FRESHNESS
# ==========================================================================

CREATE MATERIALIZED TABLE users_shops_explicit
PARTITIONED BY (ds)
WITH(
   'connector' = 'blackhole'
)
FRESHNESS = INTERVAL '10' SECOND
REFRESH_MODE = CONTINUOUS
AS SELECT
  user_id,
  shop_id,
  ds,
  SUM (payment_amount_cents) AS payed_buy_fee_sum,
  SUM (1) AS pv
 FROM (
    SELECT user_id, shop_id, DATE_FORMAT(order_created_at, 'yyyy-MM-dd') AS ds, payment_amount_cents FROM datagenSource
 ) AS tmp
 GROUP BY user_id, shop_id, ds;
[INFO] Execute statement succeeded.
!info

# verify explicit FRESHNESS is preserved
SHOW CREATE MATERIALIZED TABLE users_shops_explicit;
@MT users_shops_explicit@
!ok

# ==========================================================================
# test create materialized table without FRESHNESS or REFRESH_MODE
# ==========================================================================

CREATE MATERIALIZED TABLE users_shops_continuous
WITH(
   'connector' = 'blackhole'
)
AS SELECT
  user_id,
  shop_id,
  SUM (payment_amount_cents) AS payed_buy_fee_sum,
  SUM (1) AS pv
 FROM datagenSource
 GROUP BY user_id, shop_id;
[INFO] Execute statement succeeded.
!info

# verify default CONTINUOUS mode with default freshness (3 minutes)
SHOW CREATE MATERIALIZED TABLE users_shops_continuous;
@MT users_shops_continuous@
!ok

# ==========================================================================
# test cleanup
# ==========================================================================

DROP MATERIALIZED TABLE users_shops;
[INFO] Execute statement succeeded.
!info

DROP MATERIALIZED TABLE users_shops_explicit;
[INFO] Execute statement succeeded.
!info

DROP MATERIALIZED TABLE users_shops_continuous;
[INFO] Execute statement succeeded.
!info

DROP TABLE datagenSource;
[INFO] Execute statement succeeded.
!info
`;

const SHOPS_QUERY = `AS SELECT \`tmp\`.\`user_id\`, \`tmp\`.\`shop_id\`, \`tmp\`.\`ds\`, SUM(\`tmp\`.\`payment_amount_cents\`) AS \`payed_buy_fee_sum\`, SUM(1) AS \`pv\`
FROM (SELECT \`datagenSource\`.\`user_id\`, \`datagenSource\`.\`shop_id\`, DATE_FORMAT(\`datagenSource\`.\`order_created_at\`, 'yyyy-MM-dd') AS \`ds\`, \`datagenSource\`.\`payment_amount_cents\`
FROM \`default_catalog\`.\`default_database\`.\`datagenSource\` AS \`datagenSource\`) AS \`tmp\`
GROUP BY \`tmp\`.\`user_id\`, \`tmp\`.\`shop_id\`, \`tmp\`.\`ds\`
`;
/** materialized_table.q's SHOW CREATE MATERIALIZED TABLE texts, each in one `result` cell. */
const MATERIALIZED = {
  users_shops: `CREATE MATERIALIZED TABLE \`default_catalog\`.\`default_database\`.\`users_shops\`
PARTITIONED BY (\`ds\`)
WITH (
  'connector' = 'blackhole'
)
FRESHNESS = INTERVAL '3' MINUTE
REFRESH_MODE = CONTINUOUS
${SHOPS_QUERY}`,
  users_shops_explicit: `CREATE MATERIALIZED TABLE \`default_catalog\`.\`default_database\`.\`users_shops_explicit\`
PARTITIONED BY (\`ds\`)
WITH (
  'connector' = 'blackhole'
)
FRESHNESS = INTERVAL '10' SECOND
REFRESH_MODE = CONTINUOUS
${SHOPS_QUERY}`,
  users_shops_continuous: `CREATE MATERIALIZED TABLE \`default_catalog\`.\`default_database\`.\`users_shops_continuous\`
WITH (
  'connector' = 'blackhole'
)
FRESHNESS = INTERVAL '3' MINUTE
REFRESH_MODE = CONTINUOUS
AS SELECT \`datagenSource\`.\`user_id\`, \`datagenSource\`.\`shop_id\`, SUM(\`datagenSource\`.\`payment_amount_cents\`) AS \`payed_buy_fee_sum\`, SUM(1) AS \`pv\`
FROM \`default_catalog\`.\`default_database\`.\`datagenSource\` AS \`datagenSource\`
GROUP BY \`datagenSource\`.\`user_id\`, \`datagenSource\`.\`shop_id\`
`,
};

const file = (name, text, dir = SQL_DIR) => ({
  source: `${dir}/${name}`,
  commit: /^#! commit: (\w+)$/m.exec(text)[1],
  statements: parseQ(text),
});

/** The ported files, in the order the test runs them. */
export const files = [
  file('select.q', selectQ),
  file('view.q', viewQ),
  file('catalog_database.q', expandListings(catalogDatabaseQ)),
  file('select_batch.q', selectBatchQ),
  file('insert.q', insertQ),
  file('table.q', expandTableQ(tableQ)),
  file('set.q', setQ),
  file('statement_set.q', statementSetQ, GATEWAY_CLIENT_DIR),
  file('misc.q', miscQ),
  file('materialized_table.q', materializedTableQ.replace(/@MT ([^@]+)@/g, (_, key) => resultCell(MATERIALIZED[key]))),
];
