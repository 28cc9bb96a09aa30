import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';

/**
 * The dashboard in a real browser: Debian's Chromium driven by playwright-core, against the built
 * `sluice --web -f` running a streaming Nexmark job. .ci/run installs Chromium; without it the test fails
 * in CI (CI=true) and is skipped, saying why, on a developer's machine.
 */
const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'dist', 'bundle', 'bin.js');
const CHROMIUM = process.env.SLUICE_CHROMIUM ?? '/usr/bin/chromium';
/** Where the test leaves its screenshot for a person to look at (docs/dashboard.png is a copy of one). */
const SCREENSHOT = join(root, 'dist', 'test-output', 'dashboard.png');
const haveChromium = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true' || process.env.CI === '1';

if (!haveChromium && !inCi) {
  console.warn(`[dashboard-browser] skipped: no Chromium at ${CHROMIUM} (install it with 'apt-get install chromium', or set SLUICE_CHROMIUM).`);
}

/** Flags that keep Chromium from reaching for the network (closed here) or a GPU, which would make it hang. */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A count as the dashboard prints it ("12,345 (50/s)" or "12,345"). */
function leadingCount(text: string | null): number {
  return Number((text ?? '').trim().split(' ')[0]!.replace(/,/g, ''));
}

const JOB = `
CREATE TEMPORARY TABLE nexmark (
    event_type INT,
    person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR, state VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR>,
    auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT, dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR>,
    bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR>,
    dateTime AS CASE WHEN event_type = 0 THEN person.dateTime WHEN event_type = 1 THEN auction.dateTime ELSE bid.dateTime END,
    WATERMARK FOR dateTime AS dateTime - INTERVAL '1' SECOND
) WITH ('connector' = 'nexmark', 'first-event.rate' = '500', 'next-event.rate' = '500');
CREATE TEMPORARY TABLE sink (auction BIGINT, bids BIGINT, window_end TIMESTAMP(3)) WITH ('connector' = 'blackhole');
INSERT INTO sink
SELECT bid.auction, COUNT(*), TUMBLE_END(dateTime, INTERVAL '1' SECOND)
FROM nexmark WHERE event_type = 2
GROUP BY bid.auction, TUMBLE(dateTime, INTERVAL '1' SECOND);
-- A second job that fails on its first row and restarts every second, for the exception history.
SET 'restart-strategy.type' = 'fixed-delay';
SET 'restart-strategy.fixed-delay.attempts' = '1000';
SET 'restart-strategy.fixed-delay.delay' = '1 s';
CREATE TEMPORARY TABLE numbers (n BIGINT) WITH ('connector' = 'datagen', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '1000000', 'rows-per-second' = '10');
CREATE TEMPORARY TABLE broken (n INT) WITH ('connector' = 'blackhole');
INSERT INTO broken SELECT CAST(CONCAT('x', CAST(n AS STRING)) AS INT) FROM numbers;
`;

/**
 * Sources in the wide job, each with its own aggregation, all unioned into one sink: WIDE sources, WIDE
 * aggregations and WIDE - 1 two-input unions (the last chained with the sink), 3 * WIDE - 1 = 74 vertices.
 */
const WIDE = 25;
const WIDE_JOB = [
  ...Array.from({ length: WIDE }, (_, i) => `CREATE TEMPORARY TABLE s${i} (k INT, v BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '5', 'fields.k.min' = '1', 'fields.k.max' = '3');`),
  "CREATE TEMPORARY TABLE sink (src INT, k INT, c BIGINT) WITH ('connector' = 'blackhole');",
  `INSERT INTO sink ${Array.from({ length: WIDE }, (_, i) => `SELECT ${i}, k, COUNT(*) FROM s${i} GROUP BY k`).join('\nUNION ALL ')};`,
].join('\n');

describe.skipIf(!haveChromium && !inCi)('the dashboard in Chromium', () => {
  it('lists the jobs, draws the graph with busy time, shows counters, checkpoints, SQL, configuration and exception history live, and cancels', async () => {
    if (!haveChromium) throw new Error(`Chromium is not installed at ${CHROMIUM}; .ci/run installs it with 'apt-get install -y chromium'.`);
    const dir = mkdtempSync(join(tmpdir(), 'sluice-dashboard-'));
    const file = join(dir, 'job.sql');
    writeFileSync(file, JOB);
    const child = spawn(
      process.execPath,
      [bin, '--web', '-D', 'rest.port=0', '-D', 'parallelism.default=2', '-D', 'execution.checkpointing.interval=500ms', '-D', 's3.secret-key=hunter2', '-f', file],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const profile = mkdtempSync(join(tmpdir(), 'sluice-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1400, height: 1000 } });
    try {
      const url = await until('the dashboard URL', async () => /at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stderr)?.[1]);
      const page = browser.pages()[0] ?? (await browser.newPage());
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      await page.goto(`${url}/`);

      // The job list shows the running jobs; a link opens a job's page.
      const link = page.getByRole('link', { name: 'insert-into_default_catalog.default_database.sink', exact: true });
      await link.waitFor({ timeout: 30_000 });
      await expect.poll(() => page.locator('#jobs tbody tr').count(), { timeout: 30_000 }).toBe(2);
      await expect.poll(() => page.locator('#jobs tr', { has: link }).locator('.state').textContent(), { timeout: 30_000 }).toBe('RUNNING');
      const brokenHref = await page.getByRole('link', { name: 'insert-into_default_catalog.default_database.broken', exact: true }).getAttribute('href');
      await link.click();
      await page.locator('svg.graph .node').first().waitFor({ timeout: 30_000 });

      // One node per vertex of the REST API's plan, with its full name, and the hash exchange between them.
      const jobId = /#\/jobs\/([0-9a-f]{32})$/.exec(page.url())![1]!;
      const job = (await (await fetch(`${url}/jobs/${jobId}`)).json()) as { vertices: { id: string; name: string; parallelism: number }[] };
      expect(job.vertices.length).toBeGreaterThanOrEqual(2);
      expect(await page.locator('svg.graph .node').count()).toBe(job.vertices.length);
      for (const v of job.vertices) {
        expect(await page.locator(`svg.graph .node[data-vertex="${v.id}"] title`).textContent()).toBe(v.name);
        expect(await page.locator(`svg.graph .node[data-vertex="${v.id}"]`).textContent()).toContain(`Parallelism ${v.parallelism}`);
      }
      expect(await page.locator('svg.graph .edge text').allTextContents()).toContain('HASH');

      // Counters rise without a reload: the same row's cell, read twice.
      const firstIn = page.locator(`table.vertices tr[data-vertex="${job.vertices[0]!.id}"] td:nth-child(3)`);
      const before = leadingCount(await firstIn.textContent());
      await expect.poll(async () => leadingCount(await firstIn.textContent()), { timeout: 20_000 }).toBeGreaterThan(before);
      const lastOut = page.locator(`svg.graph .node[data-vertex="${job.vertices.at(-1)!.id}"]`);
      await expect.poll(async () => /In ([\d,]+)/.exec((await lastOut.textContent()) ?? '')?.[1]?.replace(/,/g, '') ?? '0', { timeout: 20_000 }).not.toBe('0');
      // A rate and a watermark show once the server has sampled twice and windows have fired.
      await expect.poll(async () => (await page.locator('table.vertices tbody tr').first().locator('td:nth-child(5)').textContent()) ?? '', { timeout: 20_000 }).not.toBe('0/s');
      await expect.poll(async () => (await page.locator('table.vertices tbody tr').last().locator('td:nth-child(8)').textContent()) ?? '', { timeout: 20_000 }).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
      // Checkpoints every 500 ms: one shows up in the summary and the history.
      await expect.poll(async () => Number(await page.locator('#checkpoint-summary dd[data-key="Completed"]').textContent()), { timeout: 20_000 }).toBeGreaterThan(0);
      await expect.poll(() => page.locator('table').filter({ hasText: 'Recent checkpoints' }).locator('tbody tr').count(), { timeout: 20_000 }).toBeGreaterThan(0);
      expect(await page.locator('#exception').textContent()).toBe('No exceptions.');
      // Busy time per vertex: in the graph's nodes and the table, once the server sampled for a while.
      await expect.poll(async () => (await page.locator(`svg.graph .node[data-vertex="${job.vertices[0]!.id}"]`).textContent()) ?? '', { timeout: 20_000 }).toMatch(/Busy \d+ % · back-pressured \d+ %/);
      expect(await page.locator(`table.vertices tr[data-vertex="${job.vertices[0]!.id}"] td:nth-child(10)`).textContent()).toMatch(/^\d+ %$/);
      expect(await page.locator(`svg.graph .node[data-vertex="${job.vertices[0]!.id}"] rect`).getAttribute('fill')).toMatch(/^hsl\(\d+, 80%, \d+%\)$/);

      // State size per vertex, from the newest completed checkpoint: the window aggregation holds its windows.
      const last = job.vertices.at(-1)!;
      const SIZE = /^\d+(\.\d+)? (B|KiB|MiB)$/;
      await expect.poll(async () => (await page.locator(`table.vertices tr[data-vertex="${last.id}"] td:nth-child(12)`).textContent()) ?? '', { timeout: 20_000 }).toMatch(SIZE);
      expect(await lastOut.textContent()).toMatch(/State \d+(\.\d+)? (B|KiB|MiB)/);

      // A click on a node opens its subtasks: one row per subtask, numbered as Flink's UI numbers them, with
      // records that rise; a click on the same node closes them, one on another vertex's name switches.
      expect(await page.locator('#subtasks').isVisible()).toBe(false);
      await lastOut.click();
      const subtaskRows = page.locator('#subtasks tbody tr');
      await expect.poll(() => subtaskRows.count(), { timeout: 10_000 }).toBe(last.parallelism);
      expect(await page.locator('#subtasks caption').textContent()).toBe(`Subtasks of GlobalWindowAggregate → Sink: sink (${last.parallelism})`);
      expect(await subtaskRows.locator('td:first-child').allTextContents()).toEqual(Array.from({ length: last.parallelism }, (_, i) => `${i + 1} / ${last.parallelism}`));
      expect(await page.locator(`table.vertices button[data-vertex="${last.id}"]`).getAttribute('aria-pressed')).toBe('true');
      expect(await lastOut.getAttribute('class')).toContain('selected');
      const subtaskIn = subtaskRows.first().locator('td:nth-child(2)');
      const subtaskBefore = leadingCount(await subtaskIn.textContent());
      await expect.poll(async () => leadingCount(await subtaskIn.textContent()), { timeout: 20_000 }).toBeGreaterThan(subtaskBefore);
      await lastOut.click();
      expect(await page.locator('#subtasks').isVisible()).toBe(false);
      expect(await page.locator('#subtasks-hint').isVisible()).toBe(true);
      const first = job.vertices[0]!;
      await page.locator(`table.vertices button[data-vertex="${first.id}"]`).click();
      await expect.poll(() => subtaskRows.count(), { timeout: 10_000 }).toBe(first.parallelism);
      // The source knows no size (unbounded): its pending column says so.
      expect(await subtaskRows.first().locator('td:nth-child(9)').textContent()).toBe('–');

      // The tabs: checkpoints with their alignment, the statement and its plan, the configuration (secrets masked).
      await page.click('#tab-checkpoints');
      expect(await page.locator('#panel-overview').isVisible()).toBe(false);
      const cpRow = page.locator('table').filter({ hasText: 'Recent checkpoints' }).locator('tbody tr').first();
      await cpRow.waitFor({ timeout: 20_000 });
      expect(await cpRow.locator('td:nth-child(5)').textContent()).toMatch(/^\d+ ms$/);
      await page.click('#tab-sql');
      await expect.poll(() => page.locator('#job-sql').textContent(), { timeout: 10_000 }).toContain('INSERT INTO `sink`');
      expect(await page.locator('#job-sql').textContent()).toContain("TUMBLE(`dateTime`, INTERVAL '1' SECOND)");
      expect(await page.locator('#job-explain').textContent()).toContain('== Optimized Execution Plan ==');
      expect(await page.locator('#job-explain').isVisible()).toBe(true);
      await page.click('#tab-config');
      const configRow = (key: string) => page.locator('table.config tr', { has: page.locator('td:first-child', { hasText: key }) }).locator('td:nth-child(2)');
      expect(await configRow('parallelism.default').textContent()).toBe('2');
      expect(await configRow('s3.secret-key').textContent()).toBe('******');
      expect(await page.content()).not.toContain('hunter2');
      expect(await page.locator('#config-summary').textContent()).toContain('Default parallelism2');
      await page.click('#tab-overview');

      mkdirSync(join(root, 'dist', 'test-output'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      console.info(`[dashboard-browser] screenshot: ${SCREENSHOT}`);

      // The failing job: each failure it restarted from is in its exception history, newest first.
      await page.goto(`${url}/${brokenHref!}`);
      await page.click('#tab-exceptions');
      const failures = page.locator('table.exception-history tbody tr');
      await expect.poll(() => failures.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
      expect(await failures.first().locator('td:nth-child(2)').textContent()).toMatch(/^TableSourceScan\(.*\(\d\/2\)$/);
      // The first row of either subtask (1..500000 and 500001..1000000 at parallelism 2): on worker threads either
      // may fail first.
      expect(await failures.first().locator('td:nth-child(3)').textContent()).toMatch(/Cannot cast 'x(1|500001)' of type STRING to type INT\./);
      expect(await page.locator('#exception').textContent()).toMatch(/Cannot cast 'x(1|500001)'/);
      expect(await page.locator('#tab-exceptions').textContent()).toMatch(/^Exceptions \(\d+\+?\)$/);
      mkdirSync(join(root, 'dist', 'test-output'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-exceptions.png'), fullPage: true });
      const brokenId = /([0-9a-f]{32})$/.exec(brokenHref!)![1]!;
      expect((await fetch(`${url}/jobs/${brokenId}?mode=cancel`, { method: 'PATCH' })).status).toBe(202);
      // The list keeps an ended job beside the running one: state, start, duration and records read.
      await page.goto(`${url}/#/`);
      const brokenRow = page.locator(`#jobs tr[data-job="${brokenId}"]`);
      await expect.poll(() => brokenRow.locator('.state').textContent(), { timeout: 20_000 }).toBe('CANCELED');
      const sinkRow = page.locator(`#jobs tr[data-job="${jobId}"]`);
      expect(await sinkRow.locator('.state').textContent()).toBe('RUNNING');
      for (const row of [brokenRow, sinkRow]) {
        expect(await row.locator('td:nth-child(3)').textContent()).toMatch(/^\d\d\/\d\d\/\d{4}, \d\d:\d\d:\d\d$/);
        expect(await row.locator('td:nth-child(4)').textContent()).toMatch(/^\d+ ms$|^\d+\.\d s$|^(\d+h )?\d+m \d+s$/);
      }
      await expect.poll(async () => leadingCount(await sinkRow.locator('td:nth-child(5)').textContent()), { timeout: 10_000 }).toBeGreaterThan(0);
      // An ended job's duration stops growing.
      const endedFor = await brokenRow.locator('td:nth-child(4)').textContent();
      await page.waitForTimeout(1500);
      expect(await brokenRow.locator('td:nth-child(4)').textContent()).toBe(endedFor);
      await page.goto(`${url}/#/jobs/${jobId}`);
      await page.locator('svg.graph .node').first().waitFor({ timeout: 30_000 });

      expect(errors).toEqual([]);
      // Cancel asks for a second click; then the job ends and `sluice -f`, its only job gone, exits (and the
      // page says it lost the server, as it would if sluice were stopped any other way).
      await page.click('#cancel');
      expect(await page.locator('#cancel').textContent()).toBe('Click again to cancel');
      expect(child.exitCode).toBeNull();
      await page.click('#cancel');
      await expect.poll(() => page.locator('.actions + p').textContent(), { timeout: 10_000 }).toBe('Cancel requested.');
      expect(await exited).toBe(0);
      await expect.poll(() => page.locator('#connection').textContent(), { timeout: 10_000 }).toMatch(/^Cannot reach sluice/);
    } finally {
      await browser.close();
      child.kill('SIGKILL');
      rmSync(profile, { recursive: true, force: true });
    }
  }, 120_000);

  it('stops a job with a savepoint from its page, and the job resumed from it says which savepoint it started from', async () => {
    if (!haveChromium) throw new Error(`Chromium is not installed at ${CHROMIUM}; .ci/run installs it with 'apt-get install -y chromium'.`);
    const dir = mkdtempSync(join(tmpdir(), 'sluice-dashboard-'));
    const file = join(dir, 'counts.sql');
    writeFileSync(
      file,
      "CREATE TEMPORARY TABLE s (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '50', 'fields.k.min' = '1', 'fields.k.max' = '20');\n" +
        "CREATE TEMPORARY TABLE b (k INT, c BIGINT) WITH ('connector' = 'blackhole');\n" +
        'INSERT INTO b SELECT k, COUNT(*) FROM s GROUP BY k;\n',
    );
    const profile = mkdtempSync(join(tmpdir(), 'sluice-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1400, height: 1000 } });
    const children: ReturnType<typeof spawn>[] = [];
    const start = async (extra: string[]): Promise<{ url: string; jobId: string; exited: Promise<number | null>; out: () => string }> => {
      const child = spawn(process.execPath, [bin, '--web', '-D', 'rest.port=0', ...extra, '-f', file], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let stderr = '';
      let stdout = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      const url = await until('the dashboard URL', async () => /at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stderr)?.[1]);
      const jobId = await until('the job', async () => {
        const r = (await (await fetch(`${url}/jobs/overview`)).json()) as { jobs: { jid: string; state: string }[] };
        return r.jobs.find((j) => j.state === 'RUNNING')?.jid;
      });
      return { url, jobId, exited, out: () => stdout + stderr };
    };
    try {
      const page = browser.pages()[0] ?? (await browser.newPage());
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const first = await start([]);
      await page.goto(`${first.url}/#/jobs/${first.jobId}`);
      await page.locator('svg.graph .node').first().waitFor({ timeout: 30_000 });
      const note = page.locator('.actions + p');
      // Without a directory the button asks for one, and the job runs on.
      await page.click('#stop');
      expect(await note.textContent()).toBe('Enter the directory to write the savepoint into.');
      const savepoints = join(dir, 'savepoints');
      await page.fill('#savepoint-dir', savepoints);
      await page.click('#stop');
      await expect.poll(() => note.textContent(), { timeout: 30_000 }).toMatch(/^Stopped; savepoint at /);
      const path = /^Stopped; savepoint at (.+)$/.exec((await note.textContent())!)![1]!;
      expect(path.startsWith(`${savepoints}/savepoint-`)).toBe(true);
      expect(existsSync(path)).toBe(true);
      expect(await first.exited).toBe(0);
      // sluice, which served the page, says where the savepoint went too, as `flink stop` does.
      expect(first.out()).toContain(`[INFO] Job ${first.jobId} stopped with a savepoint at ${path}\n`);

      // Resumed from that savepoint: the checkpoints tab names it.
      const second = await start(['-D', `execution.state-recovery.path=${path}`]);
      await page.goto(`${second.url}/#/jobs/${second.jobId}`);
      await page.click('#tab-checkpoints');
      await expect.poll(() => page.locator('#checkpoint-summary dd[data-key="Restored from"]').textContent(), { timeout: 20_000 }).toMatch(new RegExp(`^savepoint \\d+ \\(${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`));
      expect((await fetch(`${second.url}/jobs/${second.jobId}?mode=cancel`, { method: 'PATCH' })).status).toBe(202);
      expect(await second.exited).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
      rmSync(profile, { recursive: true, force: true });
    }
  }, 120_000);

  it('stays usable with a job of 74 vertices: every node drawn, laid out and refreshed within bounds, scrolled inside its box', async () => {
    if (!haveChromium) throw new Error(`Chromium is not installed at ${CHROMIUM}; .ci/run installs it with 'apt-get install -y chromium'.`);
    const dir = mkdtempSync(join(tmpdir(), 'sluice-dashboard-'));
    const file = join(dir, 'wide.sql');
    writeFileSync(file, WIDE_JOB);
    const child = spawn(process.execPath, [bin, '--web', '-D', 'rest.port=0', '-f', file], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const profile = mkdtempSync(join(tmpdir(), 'sluice-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1400, height: 1000 } });
    try {
      const url = await until('the dashboard URL', async () => /at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stderr)?.[1]);
      const page = browser.pages()[0] ?? (await browser.newPage());
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const jobs = await until('the job', async () => {
        const r = (await (await fetch(`${url}/jobs/overview`)).json()) as { jobs: { jid: string }[] };
        return r.jobs[0]?.jid;
      });
      const job = (await (await fetch(`${url}/jobs/${jobs}`)).json()) as { vertices: { id: string; name: string }[] };
      // A hash exchange keeps each aggregation apart from its source, and a union takes two inputs.
      expect(job.vertices.length).toBe(3 * WIDE - 1);
      await page.goto(`${url}/#/jobs/${jobs}`);
      await page.locator('svg.graph .node').first().waitFor({ timeout: 30_000 });
      expect(await page.locator('svg.graph .node').count()).toBe(job.vertices.length);
      // A tree: one edge into each vertex but the sink's.
      expect(await page.locator('svg.graph .edge').count()).toBe(job.vertices.length - 1);
      for (const v of job.vertices) expect(await page.locator(`svg.graph .node[data-vertex="${v.id}"] title`).textContent()).toBe(v.name);
      await expect.poll(() => page.locator('table.vertices tbody tr').count(), { timeout: 10_000 }).toBe(job.vertices.length);
      // No two nodes overlap: dagre placed them all.
      const boxes = await page.locator('svg.graph .node rect').evaluateAll((rects) => rects.map((r) => (r as SVGRectElement).getBBox()).map((b) => ({ x: b.x, y: b.y, w: b.width, h: b.height })));
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i]!, boxes[j]!];
          expect(a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y).toBe(true);
        }
      }
      // Laying out 74 nodes happens once, on the first refresh; it must not keep the page blank for more
      // than two poll intervals (2 s). Measured 340-550 ms with the machine's 2 cores at load average 8-10
      // (this suite and others beside it), so the bound holds on a busy CI host and still catches a layout
      // that grows out of hand.
      const measure = (name: string) => page.evaluate((n) => performance.getEntriesByName(n).map((e) => e.duration), name);
      const layout = await measure('sluice:graph-layout');
      expect(layout).toHaveLength(1);
      expect(layout[0]).toBeLessThan(2000);
      // Each refresh redraws 74 nodes and table rows in place: under a quarter of the 1 s between refreshes
      // (measured 5-25 ms under the same load), so clicks are answered between them. Sampled over five.
      const renders: number[] = [];
      for (let i = 0; i < 5; i++) {
        await page.waitForTimeout(1100);
        renders.push(...(await measure('sluice:refresh-render')));
      }
      console.info(`[dashboard-browser] ${job.vertices.length} vertices: layout ${layout[0]!.toFixed(1)} ms, refresh render ${renders.map((r) => r.toFixed(1)).join(', ')} ms`);
      expect(renders.length).toBeGreaterThanOrEqual(5);
      for (const r of renders) expect(r).toBeLessThan(250);
      // The tall graph scrolls inside its box, so the vertex table and tabs stay within reach below it.
      const box = await page.locator('.graph-box').evaluate((b) => ({ client: b.clientHeight, scroll: b.scrollHeight }));
      expect(box.scroll).toBeGreaterThan(box.client);
      expect(box.client).toBeLessThanOrEqual(0.7 * 1000 + 2);
      // A node far down the graph is still one click away: it scrolls into view and shows its subtasks.
      const sink = job.vertices.find((v) => v.name.includes('Sink('))!;
      await page.locator(`svg.graph .node[data-vertex="${sink.id}"]`).click();
      await expect.poll(() => page.locator('#subtasks tbody tr').count(), { timeout: 10_000 }).toBe(1);
      expect(await page.locator('#subtasks caption').textContent()).toBe('Subtasks of Union → Sink: sink (1)');
      mkdirSync(join(root, 'dist', 'test-output'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-74-vertices.png') });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      child.kill('SIGKILL');
      rmSync(profile, { recursive: true, force: true });
    }
  }, 120_000);
});
