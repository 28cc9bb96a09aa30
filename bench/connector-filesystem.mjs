// filesystem source throughput: rows/s of one json file read by a job at parallelism 1 and 2 (the file is
// cut into byte ranges at 2, 'source.split-max-size' default), next to a plain JS loop that reads the same
// file and JSON.parses every line; and the same rows as one Arrow IPC file, read into the blackhole sink as
// columns (the sink takes them) and into a sink that needs rows. Interleaved rounds (loop, p1, p2, arrow,
// arrowRows, loop, ...), medians, ratios per round.
// Run after `npm run build`: node bench/connector-filesystem.mjs [rows] [rounds]
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystemTableFactory } from '../dist/connectors/filesystem/index.js';
import { BlackHoleSink } from '../dist/connectors/blackhole/index.js';
import { ArrowBulkEncoder, builtinFormatFactories } from '../dist/formats/index.js';
import { Row, RowKind } from '../dist/types/index.js';
import { defaultRuntimeConfig, executeJob } from '../dist/runtime/index.js';
import { FactoryRegistry } from '../dist/factories/factory-registry.js';
import { Configuration } from '../dist/config/configuration.js';
import { ResolvedSchema, Columns } from '../dist/types/schema.js';
import { DataTypes } from '../dist/types/data-types.js';

const N = Number(process.argv[2] ?? 300_000);
const ROUNDS = Number(process.argv[3] ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), 'sluice-bench-fs-'));
const file = join(dir, 'bids.json');
{
  const channels = ['Google', 'Facebook', 'Baidu', 'Apple'];
  const lines = [];
  for (let i = 0; i < N; i++) {
    lines.push(
      JSON.stringify({
        auction: 1000 + (i % 997),
        bidder: 2000 + (i % 1999),
        price: 100 + ((i * 7919) % 100_000),
        channel: channels[i % 4],
        url: `https://www.nexmark.com/item.htm?query=1&channel_id=${i % 1000}`,
        extra: 'x'.repeat(20 + (i % 13)),
      }),
    );
  }
  writeFileSync(file, lines.join('\n') + '\n');
}
const size = statSync(file).size;
const arrowDir = mkdtempSync(join(tmpdir(), 'sluice-bench-fs-arrow-'));

const schema = ResolvedSchema.of([
  Columns.physical('auction', DataTypes.BIGINT()),
  Columns.physical('bidder', DataTypes.BIGINT()),
  Columns.physical('price', DataTypes.BIGINT()),
  Columns.physical('channel', DataTypes.STRING()),
  Columns.physical('url', DataTypes.STRING()),
  Columns.physical('extra', DataTypes.STRING()),
]);

{
  const rows = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue;
    const o = JSON.parse(line);
    rows.push(new Row(RowKind.INSERT, [BigInt(o.auction), BigInt(o.bidder), BigInt(o.price), o.channel, o.url, o.extra]));
  }
  writeFileSync(join(arrowDir, 'bids.arrow'), new ArrowBulkEncoder(DataTypes.ROW(...schema.columns.map((c) => ({ name: c.name, type: c.type }))), { ipcFormat: 'file', batchSize: 8192 }).encode(rows));
}

/** A sink without a columnar write: the rows of every batch are built for it (any row-based consumer). */
const rowSink = () => ({ createWriter: () => ({ write: () => undefined, flush: async () => undefined, close: async () => undefined }) });

/** The baseline: read the file, cut lines, parse each and touch every field (what the job's rows hold). */
function plainLoop() {
  const text = readFileSync(file, 'utf8');
  let sink = 0;
  let from = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
    if (nl > from) {
      const o = JSON.parse(text.slice(from, nl));
      sink += o.auction + o.bidder + o.price + o.channel.length + o.url.length + o.extra.length;
    }
    from = nl + 1;
  }
  return sink;
}

async function job(parallelism, format = 'json', sink = new BlackHoleSink()) {
  const table = new FileSystemTableFactory().createDynamicTableSource({
    identifier: { catalog: 'c', database: 'd', object: 'bids' },
    table: { kind: 'table', schema, partitionKeys: [], options: { connector: 'filesystem', path: format === 'json' ? dir : arrowDir, format } },
    configuration: new Configuration(),
    isTemporary: true,
    factories: new FactoryRegistry(builtinFormatFactories),
  });
  const { source } = table.getScanRuntimeProvider({ batchMode: true });
  await executeJob(
    {
      jobName: 'bench-filesystem',
      vertices: [
        { kind: 'source', id: 'src', name: 'src', parallelism, source },
        { kind: 'sink', id: 'snk', name: 'snk', parallelism, sink },
      ],
      edges: [{ from: 'src', to: 'snk', partitioner: { kind: 'forward' } }],
    },
    defaultRuntimeConfig({ runtimeMode: 'batch' }),
  ).waitForCompletion();
}

const cases = { loop: async () => plainLoop(), p1: () => job(1), p2: () => job(2), arrow: () => job(1, 'arrow'), arrowRows: () => job(1, 'arrow', rowSink()) };
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
try {
  for (const k of Object.keys(cases)) await cases[k](); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const k of Object.keys(cases)) {
      const t0 = performance.now();
      await cases[k]();
      times[k].push(performance.now() - t0);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  rmSync(arrowDir, { recursive: true, force: true });
}
console.log(`filesystem json: ${N} rows in one file of ${(size / 1e6).toFixed(1)} MB; median of ${ROUNDS} interleaved rounds, wall clock`);
const rate = (ms) => `${((N / ms) * 1000 / 1e6).toFixed(2)} M rows/s`;
for (const [k, name] of [
  ['loop', 'plain loop: readFileSync + JSON.parse per line'],
  ['p1', 'filesystem source, parallelism 1'],
  ['p2', 'filesystem source, parallelism 2 (2 ranges)'],
  ['arrow', 'arrow file, p1, into blackhole (as columns)'],
  ['arrowRows', 'arrow file, p1, into a sink needing rows'],
]) {
  console.log(`${name.padEnd(50)} ${median(times[k]).toFixed(0).padStart(7)} ms  ${rate(median(times[k]))}`);
}
const ratio = (a, b) => median(times[a].map((t, i) => t / times[b][i]));
console.log(`ratio p1 / plain loop:  ${ratio('loop', 'p1').toFixed(2)}x`);
console.log(`ratio p2 / plain loop:  ${ratio('loop', 'p2').toFixed(2)}x`);
console.log(`ratio p2 / p1:          ${ratio('p1', 'p2').toFixed(2)}x`);
console.log(`ratio arrow job (columns) / json job p1: ${ratio('p1', 'arrow').toFixed(2)}x`);
console.log(`ratio arrow job (rows) / json job p1:    ${ratio('p1', 'arrowRows').toFixed(2)}x`);
