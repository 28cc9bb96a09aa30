import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { progressLine, rowsLeft } from '../../src/cli/progress.js';
import { nexmarkDdl } from '../../src/connectors/nexmark/nexmark-ddl.js';
import type { JobClient } from '../../src/runtime/job-client.js';

/**
 * The progress bar's sizes from real sources (the issue names datagen sequences and `number-of-rows`, and
 * nexmark `events.num`; files by bytes are in test/e2e/cli.test.ts and file-source-restore-bytes.test.ts):
 * each bounded source reports the rows it has left, so the line shows a bar and an ETA while it runs.
 */

const BAR = /\[[#-]{20}\] \d{1,3}%, ETA \d\d:\d\d/;

/** Watches a running INSERT: the rows left it reports, and a progress line seen with rows read and rows left. */
async function watch(job: JobClient, total: number): Promise<{ lefts: number[]; midLine: string | undefined }> {
  const started = Date.now();
  const lefts: number[] = [];
  let midLine: string | undefined;
  while (job.status() === 'RUNNING' || job.status() === 'CREATED') {
    const left = rowsLeft(job);
    if (left !== undefined) {
      lefts.push(left);
      if (left > 0 && left < total && midLine === undefined) {
        const line = progressLine([job], Date.now() - started, false);
        if (!line.includes(' 0 rows read')) midLine = line;
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  expect((await job.waitForCompletion()).status).toBe('FINISHED');
  return { lefts, midLine };
}

function expectFalling(lefts: readonly number[], total: number): void {
  expect(lefts.some((l) => l > 0 && l < total)).toBe(true);
  for (const l of lefts) expect(l).toBeLessThanOrEqual(total);
  for (let i = 1; i < lefts.length; i++) expect(lefts[i]).toBeLessThanOrEqual(lefts[i - 1]!);
}

describe('the progress bar from bounded sources', () => {
  it("knows a datagen sequence's size: the rows left fall to 0 and the line shows a bar with an ETA", async () => {
    const env = TableEnvironment.create({ config: { 'parallelism.default': '2' }, discoverPackages: false });
    try {
      await env.executeSql("CREATE TEMPORARY TABLE s (n BIGINT) WITH ('connector' = 'datagen', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '3000', 'rows-per-second' = '3000')");
      await env.executeSql("CREATE TEMPORARY TABLE b (n BIGINT) WITH ('connector' = 'blackhole')");
      const job = (await env.executeSql('INSERT INTO b SELECT n FROM s')).getJobClient()!;
      const { lefts, midLine } = await watch(job, 3000);
      expectFalling(lefts, 3000);
      expect(midLine).toMatch(BAR);
      expect(rowsLeft(job)).toBe(0);
    } finally {
      await env.close();
    }
  });

  it("knows nexmark's events.num: the rows left fall to 0 and the line shows a bar with an ETA", async () => {
    const env = TableEnvironment.create({ config: { 'parallelism.default': '2' }, discoverPackages: false });
    try {
      for (const stmt of nexmarkDdl(4000, 4000).split(/;\s*\n/).filter((x) => x.trim() !== '')) await env.executeSql(stmt);
      await env.executeSql("CREATE TEMPORARY TABLE b (auction BIGINT, price BIGINT) WITH ('connector' = 'blackhole')");
      // The scan reads every event, bids or not: its rows left count down from events.num.
      const job = (await env.executeSql('INSERT INTO b SELECT auction, price FROM bid')).getJobClient()!;
      const { lefts, midLine } = await watch(job, 4000);
      expectFalling(lefts, 4000);
      expect(midLine).toMatch(BAR);
      expect(rowsLeft(job)).toBe(0);
    } finally {
      await env.close();
    }
  });
});
