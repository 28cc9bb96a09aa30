// Arrow IPC read vs JSON read of the same rows (target: arrow >= 10x). Run after `npm run build`.
import { ROWS, bids, load, median, report } from './format-bench-util.mjs';

const { ArrowBulkDecoder, ArrowBulkEncoder, JsonRowDecoder, JsonRowEncoder } = await load('formats/index.js');
const { DEFAULT_JSON_DECODE, DEFAULT_JSON_ENCODE } = await load('formats/json/json-options.js');
const { type, rows } = await bids();
const json = new JsonRowEncoder(type, DEFAULT_JSON_ENCODE);
const messages = rows.map((r) => json.serialize(r));
const arrowEnc = new ArrowBulkEncoder(type, { ipcFormat: 'stream', batchSize: 8192 });
const ipc = arrowEnc.encode(rows);

console.log(`arrow: ${ROWS} Nexmark bids, IPC stream ${(ipc.length / 1e6).toFixed(1)} MB; median of 5`);
let sink = 0;
const jsonDec = new JsonRowDecoder(type, DEFAULT_JSON_DECODE);
const jsonRead = median(() => {
  let out = [];
  for (const m of messages) {
    jsonDec.deserialize(m, out);
    if (out.length >= 1000) {
      sink += out.length;
      out = [];
    }
  }
});
report('json read (JsonRowDecoder) -> Row', jsonRead);
const arrowDec = new ArrowBulkDecoder(type);
// Both sides hand rows on batch by batch (json: 1000 messages, arrow: one record batch of 8192 rows).
const arrowRead = median(() => {
  for (const batch of arrowDec.decodeBatches(ipc)) sink += batch.length;
});
report('arrow read (decodeBatches) -> Row', arrowRead);
const arrowWhole = median(() => {
  sink += arrowDec.decode(ipc).length;
});
report('arrow read (decode, one Row[] per file)', arrowWhole);
const arrowWrite = median(() => {
  sink += arrowEnc.encode(rows).length;
});
report('arrow write (ArrowBulkEncoder) <- Row', arrowWrite);
console.log(`ratio arrow read / json read: ${(jsonRead / arrowRead).toFixed(2)}x (target >= 10x)`);
if (sink === -1) console.log(sink);
