# statement_set.q - BEGIN STATEMENT SET / END, EXECUTE STATEMENT SET, sync DML, sink validation

SET 'table.dml-sync' = 'true';
[INFO] Execute statement succeeded.
!info

CREATE TEMPORARY TABLE src (id INT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '10');
[INFO] Execute statement succeeded.
!info

CREATE TEMPORARY TABLE sink1 (id INT, name STRING) WITH ('connector' = 'blackhole');
[INFO] Execute statement succeeded.
!info

CREATE TEMPORARY TABLE sink2 (id INT) WITH ('connector' = 'blackhole');
[INFO] Execute statement succeeded.
!info

BEGIN STATEMENT SET;
[INFO] Execute statement succeeded.
!info

INSERT INTO sink1 SELECT * FROM src WHERE id > 5;
[INFO] Execute statement succeeded.
!info

INSERT INTO sink2 SELECT id FROM src WHERE id <= 5;
[INFO] Execute statement succeeded.
!info

END;
[INFO] Complete execution of the SQL update statement.
!info

BEGIN STATEMENT SET;
[INFO] Execute statement succeeded.
!info

END;
[INFO] Execute statement succeeded.
!info

EXECUTE STATEMENT SET BEGIN
INSERT INTO sink1 SELECT * FROM src;
INSERT INTO sink2 SELECT id FROM src;
END;
[INFO] Complete execution of the SQL update statement.
!info

INSERT INTO nosink SELECT id FROM src;
[ERROR] Could not execute SQL statement. Reason:
ValidationError: From line 1, column 13 to line 1, column 18: Object 'nosink' not found
!error

CREATE TEMPORARY TABLE ups (name STRING, c BIGINT) WITH ('connector' = 'print');
[INFO] Execute statement succeeded.
!info

INSERT INTO ups SELECT name, COUNT(*) FROM src GROUP BY name;
[INFO] Complete execution of the SQL update statement.
!info

CREATE TEMPORARY TABLE bad (a INT) WITH ('connector' = 'blackhole', 'foo' = 'bar');
[INFO] Execute statement succeeded.
!info

INSERT INTO bad SELECT id FROM src;
[ERROR] Could not execute SQL statement. Reason:
ValidationError: From line 1, column 13 to line 1, column 15: Unable to create a sink for writing table 'default_catalog.default_database.bad'.

Table options are:

'connector'='blackhole'
'foo'='bar'

Caused by: Unsupported options found for 'blackhole'.

Unsupported options:

foo

Supported options:

connector
property-version
scan.watermark.alignment.group
scan.watermark.alignment.max-drift
scan.watermark.alignment.update-interval
scan.watermark.emit.strategy
scan.watermark.idle-timeout
!error

