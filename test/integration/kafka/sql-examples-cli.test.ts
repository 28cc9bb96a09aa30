// Runs the Kafka SQL examples (sql-examples/kafka-*.sql, upsert-kafka-*.sql) through the real CLI against
// the bundled broker and checks what they print. Topic names and the transactional-id prefix are made
// unique per run (the examples use fixed 'sluice-example-' names) so reruns start from empty topics.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { BOOTSTRAP, brokerAvailable } from './broker.js';
import { cliAvailable, runCli } from './cli-process.js';

const up = (await brokerAvailable()) && cliAvailable();
const examples = fileURLToPath(new URL('../../../sql-examples/', import.meta.url));

/** Runs an example with unique names; returns the JSON lines it printed on stdout. */
async function runExample(file: string): Promise<Record<string, unknown>[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-kafka-example-'));
  try {
    // The examples name the bundled broker's default address; the test talks to this run's own broker.
    const sql = readFileSync(join(examples, file), 'utf8')
      .replaceAll('sluice-example-', `sluice-test-ex-${randomUUID().slice(0, 8)}-`)
      .replaceAll("'127.0.0.1:9092'", `'${BOOTSTRAP}'`);
    expect(sql, 'the example no longer names 127.0.0.1:9092; update this test').toContain(`'${BOOTSTRAP}'`);
    expect(sql, 'an option value still names port 9092').not.toMatch(/'[^'\n]*:9092'/);
    const path = join(dir, file);
    writeFileSync(path, sql);
    const { code, stdout, stderr } = await runCli(['--catalog-dir', join(dir, 'catalog'), '--output', 'jsonl', '-f', path], dir, 90_000);
    expect(code, stderr).toBe(0);
    return stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!up)('Kafka SQL examples through the CLI', () => {
  it('kafka-to-kafka-exactly-once.sql copies every generated order exactly once', async () => {
    const rows = await runExample('kafka-to-kafka-exactly-once.sql');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.copied_rows).toBe(1000);
    expect(rows[0]!.distinct_orders).toBe(1000);
    expect(Number(rows[0]!.total_amount)).toBeGreaterThanOrEqual(1000);
  }, 100_000);

  it('upsert-kafka-materialized-view.sql materializes one row per customer with all purchases counted', async () => {
    const rows = await runExample('upsert-kafka-materialized-view.sql');
    expect(rows.map((r) => r.customer).sort()).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    expect(rows.every((r) => r.purchases === 100)).toBe(true);
    const revenue = rows.reduce((s, r) => s + Number(r.revenue), 0);
    expect(revenue).toBeGreaterThanOrEqual(500);
    expect(revenue).toBeLessThanOrEqual(500 * 20);
  }, 100_000);
});
