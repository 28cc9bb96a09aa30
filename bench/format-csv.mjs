// CSV decode vs a bare split + Number + Date.parse loop over the same lines (target: >= 0.8x). Run after
// `npm run build`.
//
// The baseline gets ready strings and converts two fields (ignoring quotes); a like-for-like one
// decodes the same bytes and converts all seven fields as the decoder must (BigInt, Date.parse, quotes
// sliced off), still trusting that no field holds a delimiter. The decoder's general path (fast path off)
// runs in the same interleaved rounds, so the fast path's gain is measured on the same lines and load.
import { CLOCK, ROWS, bids, compare, decodeInBatches, load, report } from './format-bench-util.mjs';

const { CsvRowDecoder, CsvRowEncoder } = await load('formats/index.js');
const { DEFAULT_CSV } = await load('formats/csv/csv-options.js');
const { type, rows } = await bids();
const enc = new CsvRowEncoder(type, DEFAULT_CSV);
const messages = rows.map((r) => enc.serialize(r)); // Buffers (utf8Encode), so utf8Slice below works
const lines = messages.map((m) => Buffer.from(m).toString('utf8'));

const runs = Number(process.env.BENCH_RUNS ?? 7);
console.log(`csv: ${ROWS} Nexmark bids, ${(messages.reduce((s, m) => s + m.length, 0) / ROWS).toFixed(0)} bytes each; median of ${runs}, interleaved, ${CLOCK} clock`);
let sink = 0;
const dec = new CsvRowDecoder(type, DEFAULT_CSV);
const general = new CsvRowDecoder(type, DEFAULT_CSV, { fastPath: false });
const unquote = (f) => (f.charCodeAt(0) === 34 ? f.slice(1, -1) : f);
const r = compare({
  bare: () => {
    for (const l of lines) {
      const p = l.slice(0, -1).split(',');
      sink += Number(p[2]) + Date.parse(p[5].slice(1, -1).replace(' ', 'T') + 'Z');
    }
  },
  bareAllFields: () => {
    for (const m of messages) {
      const p = m.utf8Slice(0, m.length - 1).split(',');
      const fields = [BigInt(p[0]), BigInt(p[1]), BigInt(p[2]), unquote(p[3]), unquote(p[4]), Date.parse(unquote(p[5]).replace(' ', 'T') + 'Z'), unquote(p[6])];
      sink += fields.length;
    }
  },
  sluice: () => (sink += decodeInBatches(dec, messages)),
  general: () => (sink += decodeInBatches(general, messages)),
  encode: () => {
    for (const row of rows) sink += enc.serialize(row).length;
  },
}, runs);
report('bare split + Number + Date.parse', r.ms.bare);
report('bare utf8 + split, converts all 7', r.ms.bareAllFields);
report('CsvRowDecoder.deserialize(bytes) -> Row', r.ms.sluice);
report('  the same, general path only (fast path off)', r.ms.general);
report('CsvRowEncoder.serialize(Row) -> bytes', r.ms.encode);
console.log(`ratio decode / bare split:                      ${r.ratio('bare', 'sluice').toFixed(2)}x (target >= 0.8x)`);
console.log(`ratio decode / bare split of bytes, like for like: ${r.ratio('bareAllFields', 'sluice').toFixed(2)}x`);
console.log(`ratio general path / bare split (before the fast path): ${r.ratio('bare', 'general').toFixed(2)}x`);
if (sink === -1) console.log(sink);
