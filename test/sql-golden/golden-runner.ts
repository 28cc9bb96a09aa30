import { readFileSync } from 'node:fs';
import { formatRows, materialize, runQuery, TestContext } from '../planner/harness.js';

/**
 * Golden file format (one file per feature):
 *
 *   -- mode: streaming | batch | both      (applies to the following cases; default both)
 *   SELECT ...;                            (a statement, ending with ';')
 *   -- expect:                             (the materialized result, sorted, one row per line)
 *   [a, 1]
 *                                          (a blank line ends the block)
 *   -- expect-ordered:                     (the final rows in emitted order; only +I expected)
 *   -- changelog:                          (the exact changelog, +I/-U/+U/-D; streaming only)
 *   -- error: <substring of the message>
 */
export interface GoldenCase {
  readonly sql: string;
  readonly modes: readonly ('streaming' | 'batch')[];
  readonly check: 'expect' | 'expect-ordered' | 'changelog' | 'error';
  readonly expected: readonly string[];
  readonly line: number;
}

export function parseGolden(path: string): GoldenCase[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const cases: GoldenCase[] = [];
  let modes: ('streaming' | 'batch')[] = ['streaming', 'batch'];
  let sql: string[] = [];
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const t = line.trim();
    const mode = /^-- mode:\s*(\w+)/.exec(t);
    if (mode !== null) {
      modes = mode[1] === 'both' ? ['streaming', 'batch'] : [mode[1] as 'streaming' | 'batch'];
      continue;
    }
    const directive = /^-- (expect|expect-ordered|changelog|error):\s*(.*)$/.exec(t);
    if (directive !== null) {
      const check = directive[1] as GoldenCase['check'];
      const expected: string[] = [];
      if (check === 'error') expected.push(directive[2]!);
      else while (i + 1 < lines.length && lines[i + 1]!.trim() !== '') expected.push(lines[++i]!.trim());
      const text = sql.join('\n').trim().replace(/;\s*$/, '');
      const caseModes = check === 'changelog' ? modes.filter((m) => m === 'streaming') : modes;
      cases.push({ sql: text, modes: caseModes, check, expected, line: start + 1 });
      sql = [];
      continue;
    }
    if (t === '' && sql.length === 0) continue;
    if (t.startsWith('--') && sql.length === 0) continue;
    if (sql.length === 0) start = i;
    sql.push(line);
  }
  return cases;
}

/** Runs one case in one mode; returns a mismatch description or undefined. */
export async function runGolden(c: GoldenCase, mode: 'streaming' | 'batch'): Promise<{ actual: string[]; expected: string[] }> {
  const ctx = new TestContext(mode);
  try {
    const r = await runQuery(c.sql, ctx);
    switch (c.check) {
      case 'expect':
        return { actual: materialize(r.rows, r.types), expected: [...c.expected].sort() };
      case 'expect-ordered':
        return { actual: formatRows(r.rows, r.types).map((s) => s.slice(2)), expected: [...c.expected] };
      case 'changelog':
        return { actual: formatRows(r.rows, r.types), expected: [...c.expected] };
      case 'error':
        return { actual: ['<no error>'], expected: [`error: ${c.expected[0]}`] };
    }
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    if (c.check === 'error') {
      return msg.includes(c.expected[0]!) ? { actual: [], expected: [] } : { actual: [`error: ${msg}`], expected: [`error: ${c.expected[0]}`] };
    }
    return { actual: [`error: ${msg}`], expected: [...c.expected] };
  }
}
