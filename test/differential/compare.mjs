// Running generated queries on both engines and comparing what they answer. Both sides render each row as the
// reference runner's `-- @tsv` does: the row kind, then each field's Java toString() (Sluice: formatValueJava),
// tab-separated, with \t \n \\ escaped and NULL as \N. Results are compared as multisets, or as lists when the
// query's ORDER BY fixes the order.

const esc = (t) => t.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n');

/**
 * The reference runner's script for `queries`: the runtime mode, the DDL, then each query under `-- @tsv`. One
 * subtask per operator: the tables are tiny, and on a loaded machine each extra task costs more than it gives.
 * `batch` > 1 puts each run of `batch` consecutive queries under `-- @tsv-batch G` instead: the runner runs them as
 * one job and prints the same blocks (FlinkReference.java says how, and how a failing job is split); queries for which
 * `alone(q)` holds (those likely to fail, which would fail their group's job) keep `-- @tsv`.
 */
export function flinkScript(ddl, queries, mode = 'batch', batch = 1, alone = () => false) {
  let batched = 0;
  const marker = (q) => (batch > 1 && !alone(q) ? `-- @tsv-batch ${Math.floor(batched++ / batch)}` : '-- @tsv');
  return [`SET 'execution.runtime-mode' = '${mode}';`, "SET 'parallelism.default' = '1';", ...ddl.map((d) => `${d};`), ...queries.map((q) => `${marker(q)}\n${q};`)].join('\n\n') + '\n';
}

/**
 * The answers in the reference runner's stdout, in statement order, for the statements that are queries:
 * `{ sql, rows }` or `{ sql, error }`.
 */
export function parseFlinkOutput(stdout) {
  const out = [];
  const blocks = stdout.split(/^#### STATEMENT \d+\n/m).slice(1);
  for (const b of blocks) {
    const [sql, rest = ''] = b.split(/^#### OUTPUT\n/m);
    const end = /^#### END \d+ (OK|ERROR (.*))$/m.exec(rest);
    const body = rest.slice(0, rest.search(/^#### ELAPSED/m));
    const text = sql.trim();
    if (!/^(SELECT|WITH)\b/i.test(text)) continue;
    if (end === null) out.push({ sql: text, error: 'no END line (the JVM died?)' });
    else if (end[1] === 'OK') out.push({ sql: text, rows: body.split('\n').filter((l) => l !== '') });
    else out.push({ sql: text, error: end[2] });
  }
  return out;
}

/**
 * Runs `sql` on a Sluice TableEnvironment and renders its rows like the runner's `-- @tsv`. `sluice` holds
 * formatValueJava and rowKindShortString (from src/ in tests, from dist/ in the script). Never throws: an error
 * becomes `{ error }`.
 */
export async function runOnSluice(env, sql, sluice, timeoutMs = 30_000) {
  let timer;
  const work = (async () => {
    const result = await env.executeSql(sql);
    const types = result.getResolvedSchema().columnTypes();
    const rows = [];
    for await (const row of result.collect()) {
      rows.push([sluice.rowKindShortString(row.kind), ...row.fields.map((v, i) => (v === null || v === undefined ? '\\N' : esc(sluice.formatValueJava(v, types[i]))))].join('\t'));
    }
    return { rows };
  })();
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ error: `timed out after ${timeoutMs} ms` }), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } catch (err) {
    return { error: `${err?.name ?? 'Error'}: ${String(err?.message ?? err).split('\n')[0]}` };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The verdict on one query: `agree` (same rows), `both-error` (both refuse it: an agreement too), or a divergence:
 * `sluice-error` (Flink answers, Sluice fails), `flink-error` (Sluice answers what Flink refuses) or `rows`.
 */
export function verdict(flink, sluice, isOrdered) {
  if (flink.error !== undefined && sluice.error !== undefined) return 'both-error';
  if (flink.error !== undefined) return 'flink-error';
  if (sluice.error !== undefined) return 'sluice-error';
  const a = isOrdered ? flink.rows : [...flink.rows].sort();
  const b = isOrdered ? sluice.rows : [...sluice.rows].sort();
  return a.length === b.length && a.every((r, i) => r === b[i]) ? 'agree' : 'rows';
}

/**
 * A streaming answer's changelog applied to an empty table: the rows left, each as an insertion (`+I`). A
 * retraction of a row that is not there makes the answer an error, since no table could have given that changelog.
 */
export function materialize(answer) {
  if (answer.rows === undefined) return answer;
  const count = new Map();
  for (const line of answer.rows) {
    const tab = line.indexOf('\t');
    const kind = tab < 0 ? line : line.slice(0, tab);
    const fields = tab < 0 ? '' : line.slice(tab);
    const n = count.get(fields) ?? 0;
    if (kind === '+I' || kind === '+U') count.set(fields, n + 1);
    else if (n === 0) return { error: `changelog retracts a row it never inserted: ${line}` };
    else count.set(fields, n - 1);
  }
  return { rows: [...count].flatMap(([fields, n]) => Array(n).fill(`+I${fields}`)) };
}

/**
 * The verdict in a runtime mode: in streaming mode on the materialized changelogs (the final table), as a multiset
 * (a streaming ORDER BY only sorts by time, and the changelog's order is not the table's). When the tables agree
 * and the query reads one table once (given `sql`), the changelogs themselves must agree too, as multisets of
 * changes: both engines then read one file in one order, so every +I, -U, +U and -D is determined (with two
 * scans, the interleaving of the two sources decides, e.g., when an outer join first emits a null-padded row).
 * `changelog` is that divergence: the same final table reached through other changes (an updating plan where
 * Flink's is insert-only, an update Flink does not emit).
 */
export function verdictIn(mode, flink, sluice, isOrdered, sql) {
  if (mode !== 'streaming') return verdict(flink, sluice, isOrdered);
  const v = verdict(materialize(flink), materialize(sluice), false);
  if (v !== 'agree' || sql === undefined || !readsOneTableOnce(sql)) return v;
  return verdict(flink, sluice, false) === 'agree' ? 'agree' : 'changelog';
}

/** Whether the generated query scans exactly one of the fixed tables, once. */
export function readsOneTableOnce(sql) {
  return (sql.match(/\b(?:FROM|JOIN|TABLE)\s+t\d\b/g) ?? []).length === 1;
}

export const AGREEMENTS = new Set(['agree', 'both-error']);

/** The rows only one side has (multiset difference), for the report. */
export function rowDiff(flinkRows, sluiceRows) {
  const count = new Map();
  for (const r of flinkRows) count.set(r, (count.get(r) ?? 0) + 1);
  const onlySluice = [];
  for (const r of sluiceRows) {
    const n = count.get(r) ?? 0;
    if (n > 0) count.set(r, n - 1);
    else onlySluice.push(r);
  }
  const onlyFlink = [...count].flatMap(([r, n]) => Array(n).fill(r));
  return { onlyFlink, onlySluice };
}
