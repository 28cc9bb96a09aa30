// CSV decode throughput, with a bare split-and-convert loop for scale. Run after `npm run build`.
import { CLOCK, ROWS, bids, compare, load, report } from './format-bench-util.mjs';

const { CsvRowDecoder, CsvRowEncoder } = await load('formats/index.js');
const { DEFAULT_CSV } = await load('formats/csv/csv-options.js');
const { type, rows } = await bids();
const enc = new CsvRowEncoder(type, DEFAULT_CSV);
const messages = rows.map((r) => enc.serialize(r));
const lines = messages.map((m) => Buffer.from(m).toString('utf8'));

const runs = Number(process.env.BENCH_RUNS ?? 7);
console.log(`csv: ${ROWS} Nexmark bids, ${(messages.reduce((s, m) => s + m.length, 0) / ROWS).toFixed(0)} bytes each; median of ${runs}, interleaved, ${CLOCK} clock`);
let sink = 0;
const dec = new CsvRowDecoder(type, DEFAULT_CSV);
const r = compare({
  bare: () => {
    for (const l of lines) {
      const p = l.slice(0, -1).split(',');
      sink += Number(p[2]) + Date.parse(p[5].slice(1, -1).replace(' ', 'T') + 'Z');
    }
  },
  sluice: () => {
    // Rows are handed on per batch of 1000 messages, as a source reader does; keeping all of them alive
    // would measure the garbage collector's old generation instead of the decoder.
    let out = [];
    for (const m of messages) {
      dec.deserialize(m, out);
      if (out.length >= 1000) {
        sink += out.length;
        out = [];
      }
    }
  },
  encode: () => {
    for (const row of rows) sink += enc.serialize(row).length;
  },
}, runs);
report('bare split + Number + Date.parse', r.ms.bare);
report('CsvRowDecoder.deserialize(bytes) -> Row', r.ms.sluice);
report('CsvRowEncoder.serialize(Row) -> bytes', r.ms.encode);
console.log(`ratio decode / bare split: ${r.ratio('bare', 'sluice').toFixed(2)}x`);
if (sink === -1) console.log(sink);
