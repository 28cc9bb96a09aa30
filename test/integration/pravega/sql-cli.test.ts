import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTROLLER_URI, pravegaAvailable, uniqueName } from './pravega-env.js';

/** Runs the built `sluice` (dist/bundle/bin.js, built by `npm test`) as a child process, as a user would. */
const root = join(import.meta.dirname, '..', '..', '..');
const bin = join(root, 'dist', 'bundle', 'bin.js');
const run = promisify(execFile);

const available = await pravegaAvailable();

async function sluice(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, '-f', file], { timeout: 90_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

describe.skipIf(!available)('Pravega through the sluice CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-pravega-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs sql-examples/pravega-read-write.sql: 1000 orders written, read back bounded, summarized', async () => {
    expect(existsSync(bin), `${bin} is missing: run npm run build`).toBe(true);
    // The example as shipped, pointed at a fresh scope (and the test server) so earlier runs do not add up.
    const scope = uniqueName('sluicecli');
    const text = readFileSync(join(root, 'sql-examples', 'pravega-read-write.sql'), 'utf8');
    expect(text).toContain("'scope' = 'sluice-examples'");
    const file = join(dir, 'example.sql');
    // Every mention of the default controller: one left over would talk to whatever Pravega answers on 9090.
    const sql = text.replace("'scope' = 'sluice-examples'", `'scope' = '${scope}'`).replaceAll('tcp://127.0.0.1:9090', CONTROLLER_URI);
    expect(sql, 'an option value still names port 9090').not.toMatch(/'[^'\n]*:9090'/);
    writeFileSync(file, sql);

    const first = await sluice(file);
    expect(first.stderr).toBe('');
    expect(first.code, first.stdout).toBe(0);
    expect(first.stdout).toContain('[INFO] Complete execution of the SQL update statement.');
    expect(first.stdout).toContain('| orders | first_id | last_id | events |');
    expect(first.stdout).toContain('|   1000 |        1 |    1000 |   1000 |');
    expect(first.stdout).toContain('1 row in set');

    // Again on the same stream: the INSERT appends, the bounded read sees both runs' events.
    const second = await sluice(file);
    expect(second.code, second.stdout).toBe(0);
    expect(second.stdout).toContain('|   1000 |        1 |    1000 |   2000 |');
  });

  it('reports an unreachable controller as a connector error, not a hang', async () => {
    const file = join(dir, 'unreachable.sql');
    writeFileSync(
      file,
      `SET 'execution.runtime-mode' = 'batch';
       CREATE TEMPORARY TABLE t (a STRING) WITH ('connector' = 'pravega', 'controller-uri' = 'tcp://127.0.0.1:1',
         'scope' = 'nope', 'scan.streams' = 's', 'scan.execution.type' = 'batch', 'format' = 'json');
       SELECT * FROM t;`,
    );
    const r = await sluice(file);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/\[ERROR\][\s\S]*127\.0\.0\.1:1/);
  });
});
