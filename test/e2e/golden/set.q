# set.q - SET/RESET and validation of session options

SET 'table.display.max-column-width' = '40';
[INFO] Execute statement succeeded.
!info

SET 'pipeline.name' = 'my job';
[INFO] Execute statement succeeded.
!info

SET;
+--------------------------------+--------+
|                            key |  value |
+--------------------------------+--------+
|                  pipeline.name | my job |
| table.display.max-column-width |     40 |
+--------------------------------+--------+
2 rows in set
!ok

RESET 'pipeline.name';
[INFO] Execute statement succeeded.
!info

SET;
+--------------------------------+-------+
|                            key | value |
+--------------------------------+-------+
| table.display.max-column-width |    40 |
+--------------------------------+-------+
1 row in set
!ok

SET 'parallelism.default' = 'abc';
[ERROR] Could not execute SQL statement. Reason:
ValidationError: Invalid value for option 'parallelism.default': 'abc'. Expected an integer between -2147483648 and 2147483647.
!error

SET 'execution.runtime-mode' = 'batchy';
[ERROR] Could not execute SQL statement. Reason:
ValidationError: Invalid value for option 'execution.runtime-mode': 'batchy'. Expected one of [streaming, batch].
!error

SET 'execution.checkpointing.interval' = 'soon';
[ERROR] Could not execute SQL statement. Reason:
ValidationError: Invalid value for option 'execution.checkpointing.interval': 'soon'. Expected a duration such as '10 s', '5 min', '500 ms', '1 h' or '2 d' (a bare number is milliseconds).
!error

RESET;
[INFO] Execute statement succeeded.
!info

SET;
Empty set
!ok

