// Kafka connector throughput against the bundled broker (scripts/kafka.sh start), next to bare kafkajs
// doing the same work in the same run. Run after `npm run build`:
//   node bench/kafka-source.mjs [records]        (default 200000; KAFKA_BOOTSTRAP overrides 127.0.0.1:9092)
// 1. source: a bare kafkajs consumer (eachBatch, JSON.parse of every value) vs a Sluice job
//    kafka (json, bounded latest-offset) -> blackhole, both reading the same topic from the start.
// 2. sink:   a bare kafkajs producer (awaited sendBatch of 1024 JSON records, acks=all) vs a Sluice job
//    datagen -> kafka (json, at-least-once).
// 3. exactly-once sink with 1 s checkpoints vs the at-least-once sink (streaming mode, both).
// Each pair is measured interleaved (bare, sluice, bare, sluice, ...) so load drift on the shared machine
// hits both sides alike. Prints records/s as the median of RUNS (default 3) runs and the ratios; targets:
// source >= 0.8x, sink >= 0.8x, exactly-once >= 0.7x of at-least-once. Always exits 0: the figures are the output.
// Env: SLUICE_DIST=<dir> runs a build other than ./dist; BENCH_ONLY=source|sink|eos runs one section;
// RUNS=<n>. For a profile of the source path: BENCH_ONLY=source node --cpu-prof bench/kafka-source.mjs
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Kafka, logLevel, Partitioners } = require('kafkajs');
const dist = process.env.SLUICE_DIST
  ? new URL(`file://${process.env.SLUICE_DIST.replace(/\/?$/, '/')}`)
  : new URL('../dist/', import.meta.url);
const { TableEnvironment } = await import(new URL('api/table-environment.js', dist).href);

const N = Number(process.argv[2] ?? 200_000);
const RUNS = Number(process.env.RUNS ?? 3);
const ONLY = process.env.BENCH_ONLY;
const BOOTSTRAP = process.env.KAFKA_BOOTSTRAP ?? '127.0.0.1:9092';
const kafka = new Kafka({ clientId: 'sluice-bench', brokers: [BOOTSTRAP], logLevel: logLevel.NOTHING });
const tag = randomUUID().slice(0, 8);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => `${Math.round(x).toLocaleString('en-US')} rec/s`;
const record = (i) => JSON.stringify({ id: i, name: `name-${i % 1000}`, amount: (i % 10_000) / 100, flag: i % 2 === 0 });

async function createTopic(topic) {
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }], waitForLeaders: true });
  await admin.disconnect();
}

async function produceInput(topic) {
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  for (let i = 0; i < N; i += 5000) {
    const messages = [];
    for (let j = i; j < Math.min(N, i + 5000); j++) messages.push({ value: record(j) });
    await producer.send({ topic, acks: -1, messages });
  }
  await producer.disconnect();
}

/** Bare kafkajs: a fresh group reads the topic from the start until N records were parsed. */
async function bareConsumer(topic) {
  const consumer = kafka.consumer({ groupId: `bench-${randomUUID()}`, maxBytes: 50 * 1024 * 1024, maxBytesPerPartition: 1024 * 1024 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const t0 = performance.now();
  let seen = 0;
  let checksum = 0;
  await new Promise((resolve, reject) => {
    consumer
      .run({
        eachBatch: async ({ batch }) => {
          for (const m of batch.messages) checksum += JSON.parse(m.value.toString()).id;
          seen += batch.messages.length;
          if (seen >= N) resolve();
        },
      })
      .catch(reject);
  });
  const s = (performance.now() - t0) / 1000;
  await consumer.disconnect();
  if (checksum < 0) console.log(checksum);
  return N / s;
}

async function runSql(statements, mode = 'batch', config = {}) {
  // One thread, as every earlier figure of this bench: an unset parallelism.default would mean every core.
  const env = TableEnvironment.create({ mode, config: { 'parallelism.default': '1', ...config } });
  try {
    for (const s of statements.slice(0, -1)) await (await env.executeSql(s)).await();
    const t0 = performance.now();
    await (await env.executeSql(statements[statements.length - 1])).await();
    return (performance.now() - t0) / 1000;
  } finally {
    await env.close();
  }
}

const kafkaWith = (topic, extra = {}) =>
  Object.entries({ connector: 'kafka', topic, 'properties.bootstrap.servers': BOOTSTRAP, format: 'json', ...extra })
    .map(([k, v]) => `'${k}' = '${v}'`)
    .join(', ');
const COLUMNS = 'id BIGINT, name STRING, amount DOUBLE, flag BOOLEAN';

/** Sluice: kafka (json, bounded) -> blackhole, timed from submit to end. */
async function sluiceSource(topic) {
  const s = await runSql([
    `CREATE TEMPORARY TABLE src (${COLUMNS}) WITH (${kafkaWith(topic, { 'scan.startup.mode': 'earliest-offset', 'scan.bounded.mode': 'latest-offset' })})`,
    `CREATE TEMPORARY TABLE sink (${COLUMNS}) WITH ('connector' = 'blackhole')`,
    'INSERT INTO sink SELECT * FROM src',
  ]);
  return N / s;
}

/** Bare kafkajs producer: awaited sends of 1024 JSON records with acks=all. */
async function bareProducer(topic) {
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const t0 = performance.now();
  for (let i = 0; i < N; i += 1024) {
    const messages = [];
    for (let j = i; j < Math.min(N, i + 1024); j++) messages.push({ value: record(j) });
    await producer.send({ topic, acks: -1, messages });
  }
  const s = (performance.now() - t0) / 1000;
  await producer.disconnect();
  return N / s;
}

/** Sluice: datagen -> kafka (json), with the given guarantee. */
async function sluiceSink(topic, guarantee, mode, config = {}) {
  const extra = guarantee === 'exactly-once' ? { 'sink.transactional-id-prefix': `bench-${topic}` } : {};
  const s = await runSql(
    [
      `CREATE TEMPORARY TABLE gen (${COLUMNS}) WITH ('connector' = 'datagen', 'number-of-rows' = '${N}', 'rows-per-second' = '1000000000', 'fields.name.length' = '10')`,
      `CREATE TEMPORARY TABLE dst (${COLUMNS}) WITH (${kafkaWith(topic, { 'sink.delivery-guarantee': guarantee, ...extra })})`,
      'INSERT INTO dst SELECT * FROM gen',
    ],
    mode,
    config,
  );
  return N / s;
}

/**
 * Runs `a` and `b` alternately RUNS times (a, b, a, b, ...), prints both medians and returns the ratio
 * b/a of the medians; the per-run ratios are printed too so drift is visible, and the process CPU time
 * of each side (both run in this process), which a busy shared machine disturbs far less than wall time.
 */
async function pair(labelA, a, labelB, b) {
  const xs = [];
  const ys = [];
  const cpu = [[], []];
  const timed = async (f, r, into) => {
    const c0 = process.cpuUsage();
    const rate = await f(r);
    const c = process.cpuUsage(c0);
    into.push((c.user + c.system) / 1000);
    return rate;
  };
  for (let r = 0; r < RUNS; r++) {
    xs.push(await timed(a, r, cpu[0]));
    ys.push(await timed(b, r, cpu[1]));
  }
  for (const [label, v, c] of [[labelA, xs, cpu[0]], [labelB, ys, cpu[1]]]) {
    console.log(`  ${label.padEnd(44)} ${fmt(median(v))}   (runs: ${v.map((x) => Math.round(x)).join(', ')}; cpu ms: ${c.map(Math.round).join(', ')})`);
  }
  console.log(`  per-run ratios: ${ys.map((y, i) => (y / xs[i]).toFixed(2)).join(', ')}; cpu-time ratio ${labelA.split(' (')[0]} / ${labelB.split(' (')[0]}: ${(median(cpu[0]) / median(cpu[1])).toFixed(2)}`);
  return median(ys) / median(xs);
}

function verdict(name, ratio, target) {
  console.log(`  => ${name}: ${ratio.toFixed(2)}x (target >= ${target}x) ${ratio >= target ? 'OK' : 'MISSED'}`);
}

const wants = (section) => ONLY === undefined || ONLY === section;

try {
  console.log(`Kafka bench: ${N.toLocaleString('en-US')} JSON records (~${record(N).length} bytes), broker ${BOOTSTRAP}, median of ${RUNS}`);
  if (wants('source')) {
    const input = `bench-in-${tag}`;
    await createTopic(input);
    const t0 = performance.now();
    await produceInput(input);
    console.log(`  (produced the input in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    console.log('source');
    const ratio = await pair(
      'bare kafkajs consumer (eachBatch + JSON.parse)',
      () => bareConsumer(input),
      'sluice kafka json source -> blackhole',
      () => sluiceSource(input),
    );
    verdict('source', ratio, 0.8);
  }

  if (wants('sink')) {
    console.log('sink');
    const ratio = await pair(
      'bare kafkajs producer (1024/send, acks=all)',
      async (r) => {
        const t = `bench-bare-out-${tag}-${r}`;
        await createTopic(t);
        return bareProducer(t);
      },
      'sluice datagen -> kafka json (at-least-once)',
      async (r) => {
        const t = `bench-alo-out-${tag}-${r}`;
        await createTopic(t);
        return sluiceSink(t, 'at-least-once', 'batch');
      },
    );
    verdict('sink', ratio, 0.8);
  }

  if (wants('eos')) {
    console.log('exactly-once (streaming, checkpoints every 1 s)');
    const cp = { 'execution.checkpointing.interval': '1 s' };
    const ratio = await pair(
      'at-least-once',
      async (r) => {
        const t = `bench-alo-s-${tag}-${r}`;
        await createTopic(t);
        return sluiceSink(t, 'at-least-once', 'streaming', cp);
      },
      'exactly-once',
      async (r) => {
        const t = `bench-eo-${tag}-${r}`;
        await createTopic(t);
        return sluiceSink(t, 'exactly-once', 'streaming', cp);
      },
    );
    verdict('exactly-once vs at-least-once', ratio, 0.7);
  }
} catch (e) {
  console.log(`bench failed: ${e instanceof Error ? e.stack : String(e)}`);
}
process.exit(0);
