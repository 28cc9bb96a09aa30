// JSON decode vs a bare JSON.parse loop over the same lines (target: >= 0.8x). Run after `npm run build`.
import { ROWS, bids, load, median, report } from './format-bench-util.mjs';

const { JsonRowDecoder, JsonRowEncoder } = await load('formats/index.js');
const { DEFAULT_JSON_DECODE, DEFAULT_JSON_ENCODE } = await load('formats/json/json-options.js');
const { type, rows } = await bids();
const enc = new JsonRowEncoder(type, DEFAULT_JSON_ENCODE);
const messages = rows.map((r) => enc.serialize(r));
const lines = messages.map((m) => Buffer.from(m).toString('utf8'));
const td = new TextDecoder();

console.log(`json: ${ROWS} Nexmark bids, ${(messages.reduce((s, m) => s + m.length, 0) / ROWS).toFixed(0)} bytes each; median of 5`);
let sink = 0;
const bare = median(() => {
  for (const l of lines) sink += JSON.parse(l).price;
});
report('bare JSON.parse(string)', bare);
const bareBytes = median(() => {
  for (const m of messages) sink += JSON.parse(td.decode(m)).price;
});
report('bare JSON.parse(utf8 decode(bytes))', bareBytes);
const dec = new JsonRowDecoder(type, DEFAULT_JSON_DECODE);
const sluice = median(() => {
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
});
report('JsonRowDecoder.deserialize(bytes) -> Row', sluice);
const encode = median(() => {
  for (const r of rows) sink += enc.serialize(r).length;
});
report('JsonRowEncoder.serialize(Row) -> bytes', encode);
console.log(`ratio decode / bare JSON.parse(string): ${(bare / sluice).toFixed(2)}x (target >= 0.8x)`);
console.log(`ratio decode / bare JSON.parse(bytes):  ${(bareBytes / sluice).toFixed(2)}x`);
if (sink === -1) console.log(sink);
