import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Terminal } from './pty-terminal.js';

let term: Terminal | undefined;
afterEach(() => term?.kill());

describe('interactive client', () => {
  it('completes, runs statements, keeps its state after errors, stops queries on Ctrl-C, and quits', async () => {
    term = new Terminal(mkdtempSync(join(tmpdir(), 'sluice-repl-')));
    let at = await term.waitFor('Sluice SQL> ');

    term.type('SHOW CURR\t');
    at = await term.waitFor('SHOW CURRENT', at);
    term.type(' CATALOG;\r');
    at = await term.waitFor(/\|\s+default_catalog \|/, at);
    at = await term.waitFor('Sluice SQL> ', at);

    // Continuation lines until ';', then the option keys of the connector inside WITH (...).
    term.type("CREATE TEMPORARY TABLE samples (n BIGINT)\r");
    at = await term.waitFor('> ', at);
    term.type("WITH ('connector' = 'datagen', 'rows-per-sec\t");
    at = await term.waitFor("'rows-per-second'", at);
    term.type(" = '50');\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);

    // An error keeps the session: the table is still there afterwards.
    term.type('SELECT nope FROM samples;\r');
    at = await term.waitFor("Column 'nope' not found", at);
    term.type('SHOW TABLES;\r');
    at = await term.waitFor('|    samples |', at);

    // Table names complete too.
    term.type('DESCRIBE sampl\t');
    at = await term.waitFor('DESCRIBE samples', at);
    term.type(';\r');
    at = await term.waitFor('| BIGINT |', at);

    // An unbounded query runs until Ctrl-C, which stops it and gives the prompt back.
    term.type("SET 'sql-client.execution.result-mode' = 'tableau';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type('SELECT n FROM samples;\r');
    at = await term.waitFor('| +I |', at);
    term.type('\x03');
    at = await term.waitFor('[INFO] Query cancelled.', at);
    at = await term.waitFor('Sluice SQL> ', at);

    // Table mode: a live, paginated view of the materialized result; N/P page, Q leaves.
    // (No size given: the view takes 80 x 24; with three lines of keys, 15 rows a page.)
    term.type("SET 'sql-client.execution.result-mode' = 'table';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    const values = Array.from({ length: 40 }, (_, i) => `(${i + 1})`).join(', ');
    term.type(`SELECT v FROM (VALUES ${values}) AS t(v);\r`);
    at = await term.waitFor(/Table program finished\. +Page: Last of 3 {2}\(40 rows\)/, at);
    term.type('f');
    at = await term.waitFor('Page: 1 of 3  (40 rows)', at);
    term.type('n');
    at = await term.waitFor('Page: 2 of 3  (40 rows)', at);
    // Down twice selects the page's second row; Enter shows it in full, any key goes back.
    term.type('\x1b[B\x1b[B');
    at = await term.waitFor(/^>/m, at);
    term.type('\r');
    at = await term.waitFor('any other key: back to the table', at);
    const opened = /Row (\d+) of 40[\s\S]*?v \(INT NOT NULL\):[^\d]*(\d+)/.exec(term.screen.slice(term.screen.lastIndexOf('SQL Query Result (Row)', at), at));
    expect(opened?.[1]).toBe('17');
    expect(opened?.[2]).toBe('17');
    term.type('x');
    at = await term.waitFor('Page: 2 of 3  (40 rows)', at);
    term.type('q');
    at = await term.waitFor('Sluice SQL> ', at);

    // A running query's view refreshes every second; + and - step the rate through Flink's intervals.
    term.type('SELECT n FROM samples;\r');
    at = await term.waitFor('Refresh: 1 s', at);
    term.type('+');
    at = await term.waitFor('Refresh: 5 s', at);
    term.type('--');
    at = await term.waitFor('Refresh: 500 ms', at);
    term.type('q');
    at = await term.waitFor('[INFO] Query cancelled.', at);
    at = await term.waitFor('Sluice SQL> ', at);

    term.type('HELP;\r');
    at = await term.waitFor('QUIT/EXIT', at);
    at = await term.waitFor('In the table and changelog result views: Up/Down select a row, Enter opens it', at);
    term.type('QUIT;\r');
    await term.waitFor('Shutting down the session...', at);
  }, 180_000);

  it('recalls a multi-line statement whole, searches history with Ctrl-R, completes by context in the user\'s case, underlines errors and never cuts SET;', async () => {
    term = new Terminal(mkdtempSync(join(tmpdir(), 'sluice-repl-')));
    let at = await term.waitFor('Sluice SQL> ');

    term.type("SET 'sql-client.execution.result-mode' = 'tableau';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    // Format names and a format's own options complete inside WITH (...).
    term.type("CREATE TEMPORARY TABLE files (a INT) WITH ('connector' = 'filesystem', 'path' = 'in', 'format' = 'js\t");
    at = await term.waitFor("'format' = 'json'", at);
    term.type(", 'json.ignore-p\t");
    at = await term.waitFor("'json.ignore-parse-errors'", at);
    term.type(" = 'true');\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type("CREATE TEMPORARY TABLE orders (id INT, customerName STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3');\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);

    // Keywords and functions in the case being typed; after SELECT columns, after FROM tables.
    term.type('sel\t');
    at = await term.waitFor('Sluice SQL> select', at);
    // Readline echoes what is typed, then only the completed rest of the word.
    term.type(' customerN\t');
    at = await term.waitFor('customerName', at);
    term.type(', upp\t');
    at = await term.waitFor('upper', at);
    term.type('(customerName) from ord\t');
    at = await term.waitFor('from orders', at);
    term.type(' where nope = 1;\r');
    // The error names and underlines the culprit.
    at = await term.waitFor("From line 1, column 60 to line 1, column 63: Column 'nope' not found in any table", at);
    at = await term.waitFor('1 | select customerName, upper(customerName) from orders where nope = 1;', at);
    at = await term.waitFor(`${' '.repeat(4 + 59)}^^^^`, at);

    // A statement typed over two lines comes back with Up as one entry, and runs again.
    term.type('SELECT 40 + 2\r');
    at = await term.waitFor('> ', at);
    term.type('  AS answer;\r');
    at = await term.waitFor(/\|\s+answer \|/, at);
    at = await term.waitFor('Sluice SQL> ', at);
    term.type('\x1b[A');
    at = await term.waitFor('SELECT 40 + 2 AS answer;', at);
    term.type('\r');
    at = await term.waitFor(/\|\s+42 \|/, at);
    at = await term.waitFor('Sluice SQL> ', at);

    // Ctrl-R finds an older entry by any part of it; Enter runs it.
    term.type('SHOW TABLES;\r');
    at = await term.waitFor('|     orders |', at);
    term.type("SET 'sql-client.verbose' = 'false';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type('\x12TABL');
    at = await term.waitFor("(reverse-i-search)'TABL': SHOW TABLES;", at);
    term.type('\r');
    at = await term.waitFor('|     orders |', at);
    // Ctrl-G leaves the search and gives back the line as it was.
    term.type('SELEC\x12zzz');
    at = await term.waitFor("(failed reverse-i-search)'zzz': ", at);
    term.type('\x07');
    at = await term.waitFor('Sluice SQL> SELEC', at);
    term.type('\x15');

    // SET; shows the effective configuration, keys never cut.
    term.type('SET;\r');
    at = await term.waitFor(/\| +execution\.checkpointing\.externalized-checkpoint-retention \| NO_EXTERNALIZED_CHECKPOINTS \|/, at);
    term.type('QUIT;\r');
    await term.waitFor('Shutting down the session...', at);
  }, 180_000);

  it('keeps the prompt line whole while a print sink writes in the background', async () => {
    term = new Terminal(mkdtempSync(join(tmpdir(), 'sluice-repl-')));
    let at = await term.waitFor('Sluice SQL> ');
    term.type(
      "CREATE TEMPORARY TABLE src (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '5', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '100000');\r",
    );
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type("CREATE TEMPORARY TABLE shown (n BIGINT) WITH ('connector' = 'print');\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type('INSERT INTO shown SELECT n FROM src;\r');
    at = await term.waitFor('Job ID:', at);
    at = await term.waitFor('Sluice SQL> ', at);
    term.type('SELEC');
    at = await term.waitFor('SELEC', at);
    // A row printed while "SELEC" waits on the prompt: the prompt and the text are drawn again under it.
    await term.waitFor(/\+I\[\d+\]\r?\n\r?Sluice SQL> SELEC/, at);
  }, 120_000);

  it('holds print-sink output while a result view shows and writes it after; a print sink on stderr keeps the prompt whole too', async () => {
    term = new Terminal(mkdtempSync(join(tmpdir(), 'sluice-repl-')), { columns: 100, rows: 20 });
    let at = await term.waitFor('Sluice SQL> ');
    term.type(
      "CREATE TEMPORARY TABLE src (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '100000');\r",
    );
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type("CREATE TEMPORARY TABLE shown (n BIGINT) WITH ('connector' = 'print', 'standard-error' = 'true', 'print-identifier' = 'err');\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type('INSERT INTO shown SELECT n FROM src;\r');
    at = await term.waitFor('Job ID:', at);
    at = await term.waitFor('Sluice SQL> ', at);
    term.type('SELEC');
    at = await term.waitFor('SELEC', at);
    // A row printed on stderr while "SELEC" waits on the prompt: the prompt and the text are drawn again under it.
    at = await term.waitFor(/err> \+I\[\d+\]\r?\n\r?Sluice SQL> SELEC/, at);
    term.type('\x15');

    term.type("SET 'sql-client.execution.result-mode' = 'table';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type('SELECT 42 AS answer;\r');
    await term.waitForDisplay('Table program finished.');
    // The sink prints ten rows a second; none of them reaches the view.
    await new Promise((r) => setTimeout(r, 1500));
    const view = term.display!.text();
    expect(view.join('\n')).toContain('|     42 |');
    expect(view.filter((l) => l.includes('+I['))).toEqual([]);
    const printed = Number(/err> \+I\[(\d+)\]/.exec([...term.screen.matchAll(/err> \+I\[\d+\]/g)].at(-1)![0])![1]);
    term.type('q');
    // Afterwards the rows held back come out on the user's screen, in order, none lost.
    await term.waitFor(`err> +I[${printed + 10}]`, at);
    expect(term.display?.onAlternateScreen).toBe(false);
    const viewEnd = term.screen.lastIndexOf('SQL Query Result (Table)');
    let last = viewEnd;
    for (let n = printed + 1; n <= printed + 10; n++) {
      const i = term.screen.indexOf(`err> +I[${n}]`);
      expect(i).toBeGreaterThan(last);
      last = i;
    }
  }, 120_000);

  it('shows the table view full-screen, cut to the width, scrolls, opens a row, follows a resize and gives the screen back', async () => {
    term = new Terminal(mkdtempSync(join(tmpdir(), 'sluice-repl-')), { columns: 60, rows: 24 });
    let at = await term.waitFor('Sluice SQL> ');
    term.type("SET 'sql-client.execution.result-mode' = 'table';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    const cols = Array.from({ length: 8 }, (_, i) => `'value-${i}' AS column_${i}`).join(', ');
    term.type(`SELECT ${cols};\r`);
    at = await term.waitFor('(1 rows)', at);
    let lines = await term.waitForDisplay('Table program finished.');
    expect(term.display?.onAlternateScreen).toBe(true);
    // Every line written fits the width, so nothing wraps: the keys stay on the bottom two lines.
    const written = term.screen.slice(term.screen.lastIndexOf('SQL Query Result (Table)', at), at).split(/\r?\n/);
    for (const line of written) expect(line.length).toBeLessThanOrEqual(60);
    expect(lines[0]).toContain('SQL Query Result (Table)');
    // The keys take as many lines as the width needs, none cut.
    expect(lines.slice(20)).toEqual([
      'Q Quit  R Refresh  +/- Refresh Rate  Enter/O Open Row',
      'Up/Down Select  Left/Right Scroll  N/PgDn Next Page',
      'P/PgUp Prev Page  F/Home First Page  L/End Last Page',
      'G Goto Page',
    ]);
    expect(lines.find((l) => l.startsWith('| column_0'))).toMatch(/^\| column_0 \| column_1 .* column_4 \| col$/);
    expect(lines.join('\n')).not.toContain('column_7');

    // Right scrolls the wide table sideways; Left back.
    term.type('\x1b[C\x1b[C\x1b[C\x1b[C');
    lines = await term.waitForDisplay(/column_7 \|$/);
    expect(lines.join('\n')).not.toContain('column_0');
    term.type('\x1b[D\x1b[D\x1b[D\x1b[D');
    lines = await term.waitForDisplay(/^\| column_0/);

    // Enter opens the row in full, nothing cut; any other key goes back.
    term.type('\r');
    lines = await term.waitForDisplay('any other key: back to the table');
    // As Flink's row view: `name (TYPE):`, the value under it, an empty line.
    const column0 = lines.findIndex((l) => l.startsWith(' column_0 ('));
    expect(lines.slice(column0, column0 + 4)).toEqual([' column_0 (CHAR(7) NOT NULL):', ' value-0', '', ' column_1 (CHAR(7) NOT NULL):']);
    expect(lines.find((l) => l.includes('Row 1 of 1'))).toBeDefined();
    term.type('x');
    await term.waitForDisplay('Table program finished.');

    // A wider terminal shows the whole row, and the keys move down to the new bottom line.
    term.resize(100, 30);
    lines = await term.waitForDisplay(/column_7 \|$/);
    expect(lines.find((l) => l.startsWith('| column_0'))).toMatch(/column_7 \|$/);
    await term.waitForDisplay(/^N\/PgDn Next Page/);
    expect(term.display?.text()[29]).toMatch(/^N\/PgDn Next Page/);

    // Q gives back the screen as it was before the query, with the prompt under the statement.
    term.type('q');
    await term.waitFor('Sluice SQL> ', at);
    // (The display's lines drop trailing blanks: the prompt's space too.)
    lines = await term.waitForDisplay(/^Sluice SQL>$/);
    expect(term.display?.onAlternateScreen).toBe(false);
    const prompt = lines.findIndex((l) => l === 'Sluice SQL>');
    expect(lines.slice(0, prompt).join('\n')).toMatch(/\[INFO\] Execute statement succeeded\.\n(\r?\n)?Sluice SQL> SELECT 'value-0'/);
    expect(lines.join('\n')).not.toContain('SQL Query Result');
  }, 120_000);

  it('counts wide characters (CJK) as two columns: cut, aligned and opened in full without breaking the layout', async () => {
    term = new Terminal(mkdtempSync(join(tmpdir(), 'sluice-repl-')), { columns: 40, rows: 16 });
    let at = await term.waitFor('Sluice SQL> ');
    term.type("SET 'sql-client.execution.result-mode' = 'table';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    const wide = '数据流处理引擎'.repeat(4);
    term.type(`SELECT '${wide}' AS s, 7 AS n;\r`);
    at = await term.waitFor('Table program finished.', at);
    let lines = await term.waitForDisplay('Table program finished.');
    // Nothing wrapped: the title on the first line, the keys down to the last; the wide value cut by columns
    // (with max-column-width 30) and the borders in line.
    expect(lines[0]).toContain('SQL Query Result (Table)');
    expect(lines[15]).toBe('L/End Last Page  G Goto Page');
    expect(lines.slice(2, 7)).toEqual([
      '+--------------------------------+---+',
      '|                              s | n |',
      '+--------------------------------+---+',
      '|  数据流处理引擎数据流处理引... | 7 |',
      '+--------------------------------+---+',
    ]);
    term.type('\r');
    lines = await term.waitForDisplay('any other key: back to the table');
    // The value in full over as many lines as it needs, no character lost at a line's end.
    const start = lines.findIndex((l) => l.startsWith(' s ('));
    const end = lines.findIndex((l) => l.startsWith(' n ('));
    expect(lines.slice(start + 1, end).join('').replace(/^ /, '')).toBe(wide);
    expect(lines[end + 1]).toBe(' 7');
    term.type('x');
    await term.waitForDisplay(/^Q Quit/);
    term.type('q');
    at = await term.waitFor('Sluice SQL> ', at);

    // Tableau rows line up too (a batch result: its columns sized from the data).
    term.type("SET 'sql-client.execution.result-mode' = 'tableau';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type("SET 'execution.runtime-mode' = 'batch';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type("SELECT * FROM (VALUES ('数据', 1), ('ab', 22)) AS t(s, n);\r");
    at = await term.waitFor('2 rows in set', at);
    const table = term.screen.slice(term.screen.lastIndexOf('SELECT * FROM (VALUES'), at).split(/\r?\n/).filter((l) => /^[+|]/.test(l));
    expect(table).toContain('| 数据 |  1 |');
    expect(table).toContain('|   ab | 22 |');
  }, 120_000);

  it('takes the keyboard while a view shows: page keys, refresh keys, Ctrl-C cancels and says so, and no key leaks into the prompt', async () => {
    term = new Terminal(mkdtempSync(join(tmpdir(), 'sluice-repl-')), { columns: 100, rows: 20 });
    let at = await term.waitFor('Sluice SQL> ');
    term.type("CREATE TEMPORARY TABLE samples (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '200');\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type("SET 'sql-client.execution.result-mode' = 'table';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type('SELECT n FROM samples;\r');
    await term.waitForDisplay(/Refresh: 1 s .*Page: Last of/);
    term.type('--');
    await term.waitForDisplay(/Refresh: 100 ms .*Page: Last of ([3-9]|\d{2,})/);
    // Page Up / Page Down, Home and End, as well as Flink's letters.
    term.type('\x1b[H');
    await term.waitForDisplay(/Page: 1 of/);
    term.type('\x1b[6~');
    await term.waitForDisplay(/Page: 2 of/);
    term.type('\x1b[6~');
    await term.waitForDisplay(/Page: 3 of/);
    term.type('\x1b[5~');
    await term.waitForDisplay(/Page: 2 of/);
    // G asks for a page; a page that does not exist is not taken, Esc gives up.
    term.type('g3');
    await term.waitForDisplay(/^Enter page \[1 to \d+\]: 3$/);
    term.type('\r');
    await term.waitForDisplay(/Page: 3 of/);
    term.type('g99999999\r');
    await term.waitForDisplay(/^Enter page \[1 to \d+\]: 99999999$/);
    term.type('\x1b');
    await term.waitForDisplay(/^N\/PgDn Next Page/);
    expect(term.display?.text().join('\n')).toMatch(/Page: 3 of/);
    term.type('\x1b[F');
    await term.waitForDisplay(/Page: Last of/);
    term.type('\x03');
    at = await term.waitFor('[INFO] Query cancelled.', at);
    at = await term.waitFor('Sluice SQL> ', at);
    expect(term.display?.onAlternateScreen).toBe(false);
    // The keys the view took (letters, Enter, arrows) reached neither the line nor the history.
    term.type('SHOW TABLES;\r');
    at = await term.waitFor('|    samples |', at);
    const lines = await term.waitForDisplay('|    samples |');
    expect(lines).toContain('Sluice SQL> SHOW TABLES;');

    // The changelog view says so too when Esc leaves it while the query runs.
    term.type("SET 'sql-client.execution.result-mode' = 'changelog';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type('SELECT n FROM samples;\r');
    await term.waitForDisplay(/SQL Query Result \(Changelog\)/);
    await term.waitForDisplay(/changes\)/);
    term.type('\x1b');
    at = await term.waitFor('[INFO] Query cancelled.', at);
    at = await term.waitFor('Sluice SQL> ', at);
    expect(term.display?.onAlternateScreen).toBe(false);

    // A value that changed at the last refresh shows in bold while the query runs, as in Flink.
    term.type("SET 'sql-client.execution.result-mode' = 'table';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    const from = term.raw.length;
    term.type('SELECT COUNT(*) AS c FROM samples;\r');
    await term.waitForDisplay(/Refresh: 1 s/);
    for (const deadline = Date.now() + 30_000; !/\|\x1b\[1m +[1-9]\d* \x1b\[22m\|/.test(term.raw.slice(from)); ) {
      if (Date.now() > deadline) throw new Error(`no bold count in ${JSON.stringify(term.raw.slice(-2000))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    term.type('q');
    await term.waitFor('[INFO] Query cancelled.', at);
  }, 120_000);

  it('never cuts static results: a job id from SHOW JOBS stops its job, SET; shows the effective configuration', async () => {
    term = new Terminal(mkdtempSync(join(tmpdir(), 'sluice-repl-')), { columns: 60, rows: 24 });
    let at = await term.waitFor('Sluice SQL> ');
    // Cut-off settings would cut the id (32 characters) if static results followed them.
    term.type("SET 'table.display.max-column-width' = '10';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type("CREATE TEMPORARY TABLE src (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '5');\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type("CREATE TEMPORARY TABLE snk (n BIGINT) WITH ('connector' = 'blackhole');\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type('INSERT INTO snk SELECT n FROM src;\r');
    const before = at;
    at = await term.waitFor(/Job ID: [0-9a-f]{32}/, at);
    const submitted = /Job ID: ([0-9a-f]{32})/.exec(term.screen.slice(before))![1]!;
    term.type('SHOW JOBS;\r');
    at = await term.waitFor('1 row in set', at);
    const shown = /\| ([0-9a-f]+) \| insert-into_default_catalog\.default_database\.snk \| RUNNING \|/.exec(term.screen.slice(0, at));
    expect(shown?.[1]).toBe(submitted);
    term.type(`STOP JOB '${shown![1]}';\r`);
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type('SHOW JOBS;\r');
    at = await term.waitFor(/\| CANCELED \|/, at);

    // Defaults, and what the session set, each whole.
    term.type('SET;\r');
    at = await term.waitFor('rows in set', at);
    const set = term.screen.slice(term.screen.lastIndexOf('SET;', at), at);
    expect(set).toMatch(/\| +table\.display\.max-column-width \| +10 \|/);
    expect(set).toMatch(/\| +sql-client\.execution\.result-mode \| +table \|/);
    expect(set).toMatch(/\| +execution\.checkpointing\.externalized-checkpoint-retention \| NO_EXTERNALIZED_CHECKPOINTS \|/);
  }, 120_000);

  it('shows the changelog view: every change with its op, as it came, and opens one in full', async () => {
    term = new Terminal(mkdtempSync(join(tmpdir(), 'sluice-repl-')), { columns: 100, rows: 30 });
    let at = await term.waitFor('Sluice SQL> ');
    term.type("SET 'sql-client.execution.result-mode' = 'changelog';\r");
    at = await term.waitFor('[INFO] Execute statement succeeded.', at);
    term.type('SELECT k, COUNT(*) AS c FROM (VALUES (1), (2), (1)) AS t(k) GROUP BY k;\r');
    at = await term.waitFor('(4 changes)', at);
    let lines = await term.waitForDisplay('Table program finished.');
    expect(lines[0]).toContain('SQL Query Result (Changelog)');
    // Nothing in bold once the result is complete: bold marks what changed while it runs.
    expect(term.raw.slice(term.raw.lastIndexOf('\x1b[H'))).not.toContain('\x1b[1m');
    // The aggregate's changelog, retraction included; the table view would show only the two final rows.
    expect(lines.filter((l) => /^[|>] [+-][IUD] \|/.test(l)).map((l) => l.slice(2).replace(/\s+/g, ' ').trim())).toEqual([
      '+I | 1 | 1 |',
      '+I | 2 | 1 |',
      '-U | 1 | 1 |',
      '+U | 1 | 2 |',
    ]);
    // Up selects the last change on the page; O opens it.
    term.type('\x1b[A');
    lines = await term.waitForDisplay(/^> \+U/);
    term.type('o');
    lines = await term.waitForDisplay('any other key: back to the changelog');
    expect(lines.find((l) => l.includes('Row 4 of 4'))).toBeDefined();
    expect(lines.slice(lines.findIndex((l) => l.includes('Row 4 of 4')) + 2, -1).filter((l) => l !== '')).toEqual([
      ' op:',
      ' +U',
      ' k (INT NOT NULL):',
      ' 1',
      ' c (BIGINT NOT NULL):',
      ' 2',
    ]);
    term.type('x');
    await term.waitForDisplay('Table program finished.');
    term.type('q');
    await term.waitFor('Sluice SQL> ', at);
  }, 120_000);
});
