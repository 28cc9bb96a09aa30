// JSON decode vs a bare JSON.parse loop over the same lines (target: >= 0.8x). Run after `npm run build`.
//
// Like for like: the decoder gets bytes and must read every field, so the fair baseline decodes the same
// bytes (with Buffer's native UTF-8 slice, the fastest Node has) and reads all seven properties. The
// issue's original baseline (JSON.parse of ready strings, one property read) is reported too.
import { CLOCK, ROWS, bids, compare, decodeInBatches, load, report } from './format-bench-util.mjs';

const { JsonRowDecoder, JsonRowEncoder } = await load('formats/index.js');
const { DEFAULT_JSON_DECODE, DEFAULT_JSON_ENCODE } = await load('formats/json/json-options.js');
const { type, rows } = await bids();
const enc = new JsonRowEncoder(type, DEFAULT_JSON_ENCODE);
const messages = rows.map((r) => Buffer.from(enc.serialize(r)));
const lines = messages.map((m) => m.toString('utf8'));
const names = type.fields.map((f) => f.name);
if (names.join() !== 'auction,bidder,price,channel,url,dateTime,extra') throw new Error(`bench rows changed: ${names}`);

let sink = 0;
const dec = new JsonRowDecoder(type, DEFAULT_JSON_DECODE);
const runs = Number(process.env.BENCH_RUNS ?? 7);
console.log(`json: ${ROWS} Nexmark bids, ${(messages.reduce((s, m) => s + m.length, 0) / ROWS).toFixed(0)} bytes each; median of ${runs}, interleaved, ${CLOCK} clock`);
const r = compare({
  bareString: () => {
    for (const l of lines) sink += JSON.parse(l).price;
  },
  bareBytesAllFields: () => {
    for (const m of messages) {
      const o = JSON.parse(m.utf8Slice(0, m.length));
      sink += o.auction + o.bidder + o.price + o.channel.length + o.url.length + o.dateTime.length + o.extra.length;
    }
  },
  sluice: () => (sink += decodeInBatches(dec, messages)),
  encode: () => {
    for (const row of rows) sink += enc.serialize(row).length;
  },
}, runs);
report('bare JSON.parse(string), reads .price', r.ms.bareString);
report('bare JSON.parse(utf8(bytes)), reads all 7', r.ms.bareBytesAllFields);
report('JsonRowDecoder.deserialize(bytes) -> Row', r.ms.sluice);
report('JsonRowEncoder.serialize(Row) -> bytes', r.ms.encode);
console.log(`ratio decode / bare JSON.parse(string):            ${r.ratio('bareString', 'sluice').toFixed(2)}x (target >= 0.8x)`);
console.log(`ratio decode / bare JSON.parse(bytes), like for like: ${r.ratio('bareBytesAllFields', 'sluice').toFixed(2)}x`);
if (sink === -1) console.log(sink);
