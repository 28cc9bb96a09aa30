import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { pravegaAvailable } from '../pravega/pravega-env.js';
import { registryAvailable } from '../pravega-registry/registry-env.js';
import { CONTROLLER_URI, REGISTRY_URI, uniqueName } from './catalog-env.js';

/** Runs the built `sluice` (dist/bundle/bin.js) as a child process, as a user would. */
const root = join(import.meta.dirname, '..', '..', '..');
const bin = join(root, 'dist', 'bundle', 'bin.js');
const exec = promisify(execFile);

const available = (await pravegaAvailable()) && (await registryAvailable());

async function sluice(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, '-f', file], { timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

describe.skipIf(!available)('the Pravega catalog through the sluice CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-pravega-catalog-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs sql-examples/pravega-catalog.sql: creates the table, shows and describes it, writes and reads it, twice', async () => {
    expect(existsSync(bin), `${bin} is missing: run npm run build`).toBe(true);
    // The example as shipped, pointed at a fresh scope and this run's servers.
    const scope = uniqueName('sluicecatcli');
    const text = readFileSync(join(root, 'sql-examples', 'pravega-catalog.sql'), 'utf8');
    const sql = text
      .replaceAll("'sluice-examples'", `'${scope}'`)
      .replaceAll('tcp://127.0.0.1:9090', CONTROLLER_URI)
      .replaceAll('http://127.0.0.1:9097', REGISTRY_URI!);
    expect(sql, 'an option value still names a default port').not.toMatch(/'[^'\n]*:(9090|9097)'/);
    const file = join(dir, 'example.sql');
    writeFileSync(file, sql);

    const first = await sluice(file);
    expect(first.stderr).toBe('');
    expect(first.code, first.stdout).toBe(0);
    expect(first.stdout).toContain('| readings |');
    expect(first.stdout).toMatch(/\|\s+sensor \|\s+STRING \|\s+FALSE \|/);
    expect(first.stdout).toMatch(/\|\s+taken_at \| TIMESTAMP\(3\) \|\s+TRUE \|/);
    expect(first.stdout).toMatch(/\|\s+boiler \|\s+2 \|\s+73\.0 \|/);
    expect(first.stdout).toMatch(/\|\s+cellar \|\s+1 \|\s+12\.25 \|/);
    expect(first.stdout).toMatch(/\|\s+attic \|\s+1 \|\s+<NULL> \|/);

    // Again: the table is kept, the readings appended.
    const second = await sluice(file);
    expect(second.code, second.stdout).toBe(0);
    expect(second.stdout).toMatch(/\|\s+boiler \|\s+4 \|\s+73\.0 \|/);
  });
});
