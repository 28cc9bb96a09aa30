// Nexmark source throughput: events/s, median of 5 runs, next to a plain JS loop building the same objects.
// Run after `npm run build`: node bench/connector-nexmark.mjs [events]
import { NexmarkGenerator, DEFAULT_NEXMARK_CONFIG, NexmarkTableSourceFactory } from '../dist/connectors/nexmark/index.js';
import { BlackHoleSink } from '../dist/connectors/blackhole/index.js';
import { defaultRuntimeConfig, executeJob } from '../dist/runtime/index.js';
import { FactoryRegistry } from '../dist/factories/factory-registry.js';
import { Configuration } from '../dist/config/configuration.js';
import { ResolvedSchema, Columns } from '../dist/types/schema.js';
import { DataTypes } from '../dist/types/data-types.js';

const N = Number(process.argv[2] ?? 1_000_000);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => `${(x / 1e6).toFixed(2)} M events/s`;

async function measure(name, run) {
  const rates = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await run();
    rates.push(N / ((performance.now() - t0) / 1000));
  }
  console.log(`${name.padEnd(44)} median ${fmt(median(rates))}  (runs: ${rates.map((r) => (r / 1e6).toFixed(2)).join(', ')})`);
}

// Baseline: the same shapes from Math.random, no determinism, no pools.
function plainLoop() {
  let sink = 0;
  for (let n = 0; n < N; n++) {
    const r = n % 50;
    let row;
    if (r < 1) row = [0, [BigInt(n), 'Peter Smith', 'abc@def.com', '1234 5678 9012 3456', 'Boise', 'ID', n, 'x'.repeat(100)], null, null];
    else if (r < 4) row = [1, null, [BigInt(n), 'item', 'description', 100n, 200n, n, n + 10, 1000n, 10n, 'x'.repeat(300)], null];
    else row = [2, null, null, [BigInt(1000 + Math.floor(Math.random() * 100)), BigInt(2000 + Math.floor(Math.random() * 1000)), BigInt(Math.round(10 ** (Math.random() * 6) * 100)), 'Google', 'https://www.nexmark.com/a/b/c/item.htm?query=1', n, 'x'.repeat(40)]];
    sink += row.length;
  }
  return sink;
}

function generatorLoop() {
  const g = new NexmarkGenerator({ ...DEFAULT_NEXMARK_CONFIG, baseTime: 0 });
  let sink = 0;
  for (let n = 0; n < N; n++) sink += g.event(n).length;
  return sink;
}

const S = DataTypes.STRING(), B = DataTypes.BIGINT(), T = DataTypes.TIMESTAMP(3);
const F = (name, type) => ({ name, type });
const schema = ResolvedSchema.of([
  Columns.physical('event_type', DataTypes.INT()),
  Columns.physical('person', DataTypes.ROW(F('id', B), F('name', S), F('emailAddress', S), F('creditCard', S), F('city', S), F('state', S), F('dateTime', T), F('extra', S))),
  Columns.physical('auction', DataTypes.ROW(F('id', B), F('itemName', S), F('description', S), F('initialBid', B), F('reserve', B), F('dateTime', T), F('expires', T), F('seller', B), F('category', B), F('extra', S))),
  Columns.physical('bid', DataTypes.ROW(F('auction', B), F('bidder', B), F('price', B), F('channel', S), F('url', S), F('dateTime', T), F('extra', S))),
]);

async function sourceJob() {
  const src = new NexmarkTableSourceFactory().createDynamicTableSource({
    identifier: { catalog: 'c', database: 'd', object: 'nexmark' },
    table: { kind: 'table', schema, partitionKeys: [], options: { connector: 'nexmark', 'events.num': String(N), 'rate-limited': 'false' } },
    configuration: new Configuration(),
    isTemporary: true,
    factories: new FactoryRegistry([]),
  });
  const { source } = src.getScanRuntimeProvider({ batchMode: false });
  const graph = {
    jobName: 'nexmark-bench',
    vertices: [
      { kind: 'source', id: 'src', name: 'nexmark', parallelism: 1, source },
      { kind: 'sink', id: 'snk', name: 'blackhole', parallelism: 1, sink: new BlackHoleSink() },
    ],
    edges: [{ from: 'src', to: 'snk', partitioner: { kind: 'forward' } }],
  };
  await executeJob(graph, defaultRuntimeConfig()).waitForCompletion();
}

console.log(`Nexmark, ${N} events per run, node ${process.version}`);
await measure('plain JS loop (same shapes, Math.random)', plainLoop);
await measure('NexmarkGenerator.event (deterministic)', generatorLoop);
await measure('nexmark source -> blackhole job (p=1)', sourceJob);
