// datagen source throughput: rows/s, median of 5 runs, next to a plain JS loop generating the same rows.
// Run after `npm run build`: node bench/connector-datagen.mjs [rows] (SLUICE_DIST picks another build).
import { load } from './format-bench-util.mjs';

const { DataGenTableSourceFactory } = await load('connectors/datagen/index.js');
const { BlackHoleSink } = await load('connectors/blackhole/index.js');
// The rest from the public entry point, as a connector author would.
const { defaultRuntimeConfig, executeJob, FactoryRegistry, Configuration, ResolvedSchema, Columns, DataTypes } = await load('index.js');

const N = Number(process.argv[2] ?? 1_000_000);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(name, run) {
  const rates = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await run();
    rates.push(N / ((performance.now() - t0) / 1000));
  }
  console.log(`${name.padEnd(44)} median ${(median(rates) / 1e6).toFixed(2)} M rows/s  (runs: ${rates.map((r) => (r / 1e6).toFixed(2)).join(', ')})`);
}

const HEX = '0123456789abcdef';
function plainLoop() {
  let sink = 0;
  for (let i = 0; i < N; i++) {
    let s = '';
    for (let k = 0; k < 10; k++) s += HEX[(Math.random() * 16) | 0];
    const row = [BigInt(i + 1), Math.floor(Math.random() * 1000), s, Math.random() * 100, Date.now()];
    sink += row.length;
  }
  return sink;
}

const schema = ResolvedSchema.of([
  Columns.physical('id', DataTypes.BIGINT()),
  Columns.physical('n', DataTypes.INT()),
  Columns.physical('s', DataTypes.STRING()),
  Columns.physical('d', DataTypes.DOUBLE()),
  Columns.physical('ts', DataTypes.TIMESTAMP(3)),
]);

async function sourceJob() {
  const src = new DataGenTableSourceFactory().createDynamicTableSource({
    identifier: { catalog: 'c', database: 'd', object: 'gen' },
    table: {
      kind: 'table',
      schema,
      partitionKeys: [],
      options: {
        connector: 'datagen',
        'rows-per-second': '1000000000',
        'fields.id.kind': 'sequence',
        'fields.id.start': '1',
        'fields.id.end': String(N),
        'fields.n.min': '0',
        'fields.n.max': '999',
        'fields.s.length': '10',
        'fields.d.min': '0',
        'fields.d.max': '100',
      },
    },
    configuration: new Configuration(),
    isTemporary: true,
    factories: new FactoryRegistry([]),
  });
  const { source } = src.getScanRuntimeProvider({ batchMode: false });
  await executeJob(
    {
      jobName: 'datagen-bench',
      vertices: [
        { kind: 'source', id: 'src', name: 'datagen', parallelism: 1, source },
        { kind: 'sink', id: 'snk', name: 'blackhole', parallelism: 1, sink: new BlackHoleSink() },
      ],
      edges: [{ from: 'src', to: 'snk', partitioner: { kind: 'forward' } }],
    },
    defaultRuntimeConfig(),
  ).waitForCompletion();
}

console.log(`datagen, ${N} rows per run (BIGINT seq, INT, STRING(10), DOUBLE, TIMESTAMP), node ${process.version}`);
await measure('plain JS loop (same row shapes)', plainLoop);
await measure('datagen source -> blackhole job (p=1)', sourceJob);
