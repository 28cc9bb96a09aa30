/** `HELP;` in the REPL, the commands of Flink's SQL client that Sluice has. */
export const HELP_TEXT = `The following commands are available:

CLEAR\t\tClears the current terminal.
HELP\t\tPrints the available commands.
QUIT/EXIT\tQuits the SQL CLI client.
RESET\t\tResets a session configuration property. Syntax: "RESET '<key>';". Use "RESET;" for reset all session properties.
SET\t\tSets a session configuration property. Syntax: "SET '<key>'='<value>';". Use "SET;" for listing all properties.
BEGIN STATEMENT SET\tBegins a statement set. Syntax: "BEGIN STATEMENT SET;"
END\t\tEnds a statement set. Syntax: "END;"
SHOW JOBS\tLists the jobs of this session.
STOP JOB\tStops a job. Syntax: "STOP JOB '<job id>' [WITH SAVEPOINT];"

Hint: Make sure that a statement ends with ";" for finalizing (multi-line) statements.
The SQL result modes are set with: SET 'sql-client.execution.result-mode' = 'table' | 'changelog' | 'tableau';
In the table and changelog result views: Up/Down select a row, Enter opens it, N/P page, G goes to a page,
+/- change the refresh interval, Q leaves (stopping a running query).
Press Ctrl-C to stop a running query and return to the prompt; Ctrl-R searches the history; Ctrl-D or QUIT; to leave.
`;
