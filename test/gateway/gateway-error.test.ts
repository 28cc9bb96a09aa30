import { describe, expect, it } from 'vitest';
import { formatError } from '../../src/cli/error-format.js';
import { GatewayError, gatewayErrorFrom } from '../../src/gateway/gateway-error.js';

// The shape of a failed fetch on Flink 2.2's SQL Gateway (stack frames shortened).
const VALIDATION_FAILURE = [
  'Internal server error.',
  `<Exception on server side:
org.apache.flink.table.gateway.api.utils.SqlGatewayException: org.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.
\tat org.apache.flink.table.gateway.rest.handler.statement.FetchResultsHandler.handleRequest(FetchResultsHandler.java:91)
Caused by: org.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.
\t... 48 more
Caused by: org.apache.flink.table.gateway.service.utils.SqlExecutionException: Failed to execute the operation 76f36541.
\tat org.apache.flink.table.gateway.service.operation.OperationManager$Operation.processThrowable(OperationManager.java:415)
Caused by: org.apache.flink.table.api.ValidationException: SQL validation failed. From line 2, column 15 to line 2, column 20: Object 'nosuch' not found
\tat org.apache.flink.table.planner.calcite.FlinkPlannerImpl.validate(FlinkPlannerImpl.scala:200)
Caused by: org.apache.calcite.runtime.CalciteContextException: From line 2, column 15 to line 2, column 20: Object 'nosuch' not found
\tat java.base/jdk.internal.reflect.NativeConstructorAccessorImpl.newInstance0(Native Method)
Caused by: org.apache.calcite.sql.validate.SqlValidatorException: Object 'nosuch' not found
\tat java.base/jdk.internal.reflect.NativeConstructorAccessorImpl.newInstance0(Native Method)
\t... 30 more

End of exception on server side>`,
];

describe('gatewayErrorFrom', () => {
  it("takes the root cause as Flink's SQL client shows it, and the position Flink names in the statement", () => {
    const e = gatewayErrorFrom(VALIDATION_FAILURE);
    expect(e).toBeInstanceOf(GatewayError);
    expect(e.name).toBe('org.apache.calcite.sql.validate.SqlValidatorException');
    expect(e.message).toBe("Object 'nosuch' not found");
    expect(e.statementPosition).toEqual({ line: 2, column: 15 });
  });

  it('keeps a message that spans lines until the first stack frame', () => {
    const e = gatewayErrorFrom(['Internal server error.', '<Exception on server side:\norg.apache.flink.table.api.TableException: first line\nsecond line\n\tat x.y(Z.java:1)\n\nEnd of exception on server side>']);
    expect(e.message).toBe('first line\nsecond line');
  });

  it('takes the exception above the root instead when it only adds to its message (the signatures of a Java function called with wrong types)', () => {
    const e = gatewayErrorFrom([
      'Internal server error.',
      `<Exception on server side:
org.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.
Caused by: org.apache.flink.table.api.ValidationException: Invalid function call:
shout(BOOLEAN NOT NULL)
\t... 15 more
Caused by: org.apache.flink.table.api.ValidationException: Invalid input arguments. Expected signatures are:
shout(arg0 BIGINT)
shout(arg0 STRING)
\t... 35 more
Caused by: org.apache.flink.table.api.ValidationException: Invalid input arguments.
\t... 36 more

End of exception on server side>`,
    ]);
    expect(e.name).toBe('org.apache.flink.table.api.ValidationException');
    expect(e.message).toBe('Invalid input arguments. Expected signatures are:\nshout(arg0 BIGINT)\nshout(arg0 STRING)');
    // A parent of another class, or one saying something else, is not taken.
    expect(gatewayErrorFrom(VALIDATION_FAILURE).message).toBe("Object 'nosuch' not found");
  });

  it('falls back to the text of errors without a stack trace', () => {
    expect(gatewayErrorFrom(['Session abc does not exist.']).message).toBe('Session abc does not exist.');
  });
});

describe('formatError with a cluster error', () => {
  it("maps Flink's statement-relative line and column onto the file", () => {
    const text = formatError(gatewayErrorFrom(VALIDATION_FAILURE), { file: 'job.sql', line: 40, column: 3 });
    expect(text).toBe("[ERROR] Could not execute SQL statement. Reason:\norg.apache.calcite.sql.validate.SqlValidatorException: Object 'nosuch' not found\n  --> job.sql:41:15\n");
  });

  it('on the statement line itself, counts columns from where the statement starts', () => {
    const e = new GatewayError('bad', 'org.apache.flink.table.api.ValidationException', undefined, { line: 1, column: 8 });
    expect(formatError(e, { file: 'job.sql', line: 5, column: 3 })).toContain('  --> job.sql:5:10\n');
  });
});
