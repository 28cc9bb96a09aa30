import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { splitStatements } from '../../src/sql/split-statements.js';

// EXPLAIN output of a real Apache Flink 2.3.0 (test/planner/flink-explain-goldens, README there), for the statements of
// test/java/flink-reference/goldens/explain.sql, each marked by the `-- @golden <file>` line above it. The script's DDL
// and SET run through one TableEnvironment, as Flink's SQL client ran them; each EXPLAIN is compared with its file.
const script = readFileSync(fileURLToPath(new URL('../java/flink-reference/goldens/explain.sql', import.meta.url)), 'utf8');
const goldenDir = new URL('./flink-explain-goldens/', import.meta.url);

interface Step {
  readonly sql: string;
  /** The golden file this statement's output is compared with; absent for DDL and SET. */
  readonly golden?: string;
}

function steps(): Step[] {
  let prevEnd = 0;
  return splitStatements(script).map((s) => {
    const marker = /--\s*@golden\s+(\S+)/.exec(script.slice(prevEnd, s.pos.offset));
    prevEnd = s.end;
    return marker ? { sql: s.text, golden: marker[1]! } : { sql: s.text };
  });
}

// Goldens whose plan differs in shape from Sluice's, not only in how it is printed: the whole-text test fails
// (it.fails) until Sluice plans as Flink does, so that this file lists the differences; `differ` names the sections
// that differ, and the others are still compared exactly.
type Section = 'Abstract Syntax Tree' | 'Optimized Physical Plan' | 'Optimized Execution Plan';
const knownDifferences: Readonly<Record<string, { readonly differ: readonly Section[] }>> = {
};

/** The text of each `== <title> ==` section (a title with "With Advice" counts as the plain one). */
function sections(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts = text.split(/^== (.+?) ==$/m);
  for (let i = 1; i < parts.length; i += 2) out.set(parts[i]!.replace(/ With Advice$/, ''), parts[i + 1]!);
  return out;
}

/** `text` without the spaces or tabs that end its lines; line breaks, trailing ones too, are kept. */
function normalize(text: string): string {
  return text.replace(/[ \t]+$/gm, '');
}

const env = TableEnvironment.create({ discoverPackages: false });
const all = steps();
// DDL and SET run in script order before any EXPLAIN; none of the EXPLAINs changes the session.
const setup = (async () => {
  for (const s of all) if (!s.golden) await env.executeSql(s.sql);
})();

async function explainText(sql: string): Promise<string> {
  await setup;
  const result = await env.executeSql(sql);
  for await (const row of result.collect()) return String(row.fields[0]);
  throw new Error(`EXPLAIN returned no row: ${sql}`);
}

afterAll(async () => {
  await env.close();
});

describe('EXPLAIN against a real Flink 2.3.0 run', () => {
  it('finds every golden file of the script', () => {
    expect(all.filter((s) => s.golden).length).toBe(30);
  });

  for (const s of all) {
    if (!s.golden) continue;
    const golden = s.golden;
    const expected = normalize(readFileSync(new URL(golden, goldenDir), 'utf8'));
    const known = knownDifferences[golden];
    const title = `${golden}: ${s.sql.replace(/\s+/g, ' ').slice(0, 90)}`;
    // The reference runner prints the plan string, then a line break (FlinkReference.java, `sink.println()`).
    const actual = async (): Promise<string> => normalize(`${await explainText(s.sql)}\n`);
    (known === undefined ? it : it.fails)(title, async () => {
      expect(await actual()).toBe(expected);
    });
    if (known !== undefined) {
      it(`${golden}: sections other than ${known.differ.join(', ')} match`, async () => {
        const want = sections(expected);
        const got = sections(await actual());
        expect([...got.keys()]).toEqual([...want.keys()]);
        for (const [name, text] of want) if (!known.differ.includes(name as Section)) expect(got.get(name), name).toBe(text);
      });
    }
  }
});
