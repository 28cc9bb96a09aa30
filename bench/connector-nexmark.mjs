// Nexmark source throughput: events/s, median of 5 interleaved rounds, next to a plain JS loop building the same objects.
// Run after `npm run build`: node bench/connector-nexmark.mjs [events] (SLUICE_DIST picks another build).
import { loadavg } from 'node:os';
import { load } from './format-bench-util.mjs';

const { NexmarkGenerator, DEFAULT_NEXMARK_CONFIG, NexmarkTableSourceFactory } = await load('connectors/nexmark/index.js');
const { BlackHoleSink } = await load('connectors/blackhole/index.js');
const { defaultRuntimeConfig, executeJob } = await load('runtime/index.js');
const { FactoryRegistry } = await load('factories/factory-registry.js');
const { Configuration } = await load('config/configuration.js');
const { ResolvedSchema, Columns } = await load('types/schema.js');
const { DataTypes } = await load('types/data-types.js');

const N = Number(process.argv[2] ?? 1_000_000);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => `${(x / 1e6).toFixed(2)} M events/s`;

/** Rates of each case, timed in interleaved rounds so a change in the machine's load hits every case alike. */
async function measureAll(cases, rounds = 5) {
  const rates = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < rounds; i++) {
    for (const [name, run] of Object.entries(cases)) {
      const t0 = performance.now();
      await run();
      rates[name].push(N / ((performance.now() - t0) / 1000));
    }
  }
  for (const [name, rs] of Object.entries(rates)) {
    console.log(`${name.padEnd(44)} median ${fmt(median(rs))}  (runs: ${rs.map((r) => (r / 1e6).toFixed(2)).join(', ')})`);
  }
  return rates;
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

// The machine is shared: the load average says how far to trust a run's figures.
const load1 = () => loadavg()[0].toFixed(2);
console.log(`Nexmark, ${N} events per run, node ${process.version}, load average ${load1()}`);
const PLAIN = 'plain JS loop (same shapes, Math.random)';
const GEN = 'NexmarkGenerator.event (deterministic)';
const rates = await measureAll({ [PLAIN]: plainLoop, [GEN]: generatorLoop, 'nexmark source -> blackhole job (p=1)': sourceJob });
const perRound = rates[GEN].map((g, i) => g / rates[PLAIN][i]);
console.log(`ratio generator / plain loop (median of rounds): ${median(perRound).toFixed(2)}x  (per round: ${perRound.map((r) => r.toFixed(2)).join(', ')}; load average now ${load1()})`);
