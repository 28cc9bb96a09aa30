// Arrow IPC read vs JSON read of the same rows (target: arrow >= 10x). Run after `npm run build`.
import { CLOCK, ROWS, bids, compare, load, report } from './format-bench-util.mjs';

const { ArrowBulkDecoder, ArrowBulkEncoder, JsonRowDecoder, JsonRowEncoder } = await load('formats/index.js');
const { DEFAULT_JSON_DECODE, DEFAULT_JSON_ENCODE } = await load('formats/json/json-options.js');
const { type, rows } = await bids();
const json = new JsonRowEncoder(type, DEFAULT_JSON_ENCODE);
const messages = rows.map((r) => json.serialize(r));
const arrowEnc = new ArrowBulkEncoder(type, { ipcFormat: 'stream', batchSize: 8192 });
const ipc = arrowEnc.encode(rows);

const runs = Number(process.env.BENCH_RUNS ?? 7);
console.log(`arrow: ${ROWS} Nexmark bids, IPC stream ${(ipc.length / 1e6).toFixed(1)} MB; median of ${runs}, interleaved, ${CLOCK} clock`);
let sink = 0;
const jsonDec = new JsonRowDecoder(type, DEFAULT_JSON_DECODE);
const arrowDec = new ArrowBulkDecoder(type);
// json and arrow reads are timed in alternation; the whole-file read and the write leave old-generation
// garbage whose collection would land in the next case's time, so they are timed in a second phase.
const r = compare({
  jsonRead: () => {
    let out = [];
    for (const m of messages) {
      jsonDec.deserialize(m, out);
      if (out.length >= 1000) {
        sink += out.length;
        out = [];
      }
    }
  },
  // Both sides hand rows on batch by batch (json: 1000 messages, arrow: at most 1024 rows per batch).
  arrowRead: () => {
    for (const batch of arrowDec.decodeBatches(ipc)) sink += batch.length;
  },
}, runs);
const w = compare({
  arrowWhole: () => {
    sink += new ArrowBulkDecoder(type).decode(ipc).length;
  },
  arrowWrite: () => {
    sink += arrowEnc.encode(rows).length;
  },
}, runs);
report('json read (JsonRowDecoder) -> Row', r.ms.jsonRead);
report('arrow read (decodeBatches) -> Row', r.ms.arrowRead);
report('arrow read (decode, one Row[] per file)', w.ms.arrowWhole);
report('arrow write (ArrowBulkEncoder) <- Row', w.ms.arrowWrite);
console.log(`ratio arrow read / json read: ${r.ratio('jsonRead', 'arrowRead').toFixed(2)}x (target >= 10x)`);
if (sink === -1) console.log(sink);
