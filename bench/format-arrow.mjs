// Arrow IPC read vs JSON read of the same rows (target: arrow >= 10x), and arrow write vs JSON write
// (the filesystem sink's encoder per part file vs serializing each row as a JSON message). Run after
// `npm run build`.
// "arrow read, columnar" is what the filesystem source hands on when the next operator takes columns
// (ColumnBatch: buffers in place, strings decoded once per batch); "arrow read -> Row" builds the rows too,
// as it happens before any row-based operator.
import { CLOCK, ROWS, bids, compare, decodeInBatches, load, report } from './format-bench-util.mjs';

const { ArrowBulkDecoder, ArrowBulkEncoder, JsonRowDecoder, JsonRowEncoder } = await load('formats/index.js');
const { DEFAULT_JSON_DECODE, DEFAULT_JSON_ENCODE } = await load('formats/json/json-options.js');
const { Row, RowKind } = await load('types/index.js');
const { type, rows } = await bids();
const json = new JsonRowEncoder(type, DEFAULT_JSON_ENCODE);
const messages = rows.map((r) => json.serialize(r));
const arrowEnc = new ArrowBulkEncoder(type, { ipcFormat: 'stream', batchSize: 8192 });
const ipc = arrowEnc.encode(rows);

// The bound on any reader producing these rows: building the same Row objects (fresh bigints from a
// BigInt64Array, substrings, epoch-ms numbers) from values decoded up front, with no decoding at all.
const n = rows.length;
const big = (c) => BigInt64Array.from(rows, (r) => r.fields[c]);
const [auction, bidder, price] = [big(0), big(1), big(2)];
const dateTime = Float64Array.from(rows, (r) => r.fields[5]);
const text = (c) => {
  const offsets = new Int32Array(n + 1);
  const parts = rows.map((r, i) => ((offsets[i + 1] = offsets[i] + r.fields[c].length), r.fields[c]));
  return { all: parts.join(''), offsets };
};
const [channel, url, extra] = [text(3), text(4), text(6)];
const cut = (t, i) => t.all.substring(t.offsets[i], t.offsets[i + 1]);

const runs = Number(process.env.BENCH_RUNS ?? 7);
console.log(`arrow: ${ROWS} Nexmark bids, IPC stream ${(ipc.length / 1e6).toFixed(1)} MB; median of ${runs}, interleaved, ${CLOCK} clock`);
let sink = 0;
const jsonDec = new JsonRowDecoder(type, DEFAULT_JSON_DECODE);
const arrowDec = new ArrowBulkDecoder(type);
// json and arrow reads are timed in alternation; the whole-file read and the write leave old-generation
// garbage whose collection would land in the next case's time, so they are timed in a second phase.
const r = compare({
  jsonRead: () => (sink += decodeInBatches(jsonDec, messages)),
  // Both sides hand batches on one by one (json: 1000 messages, arrow: at most 1024 rows per batch).
  arrowColumns: () => {
    for (const batch of arrowDec.decodeColumnBatches(ipc)) sink += batch.length;
  },
  arrowRead: () => {
    for (const batch of arrowDec.decodeBatches(ipc)) sink += batch.length;
  },
  rowsOnly: () => {
    for (let from = 0; from < n; from += 1024) {
      const to = Math.min(n, from + 1024);
      const out = new Array(to - from);
      for (let i = from; i < to; i++) {
        out[i - from] = new Row(RowKind.INSERT, [auction[i], bidder[i], price[i], cut(channel, i), cut(url, i), dateTime[i], cut(extra, i)]);
      }
      sink += out.length;
    }
  },
}, runs);
const w = compare({
  arrowWhole: () => {
    sink += new ArrowBulkDecoder(type).decode(ipc).length;
  },
  arrowWrite: () => {
    sink += arrowEnc.encode(rows).length;
  },
  jsonWrite: () => {
    for (const row of rows) sink += json.serialize(row).length;
  },
}, runs);
report('json read (JsonRowDecoder) -> Row', r.ms.jsonRead);
report('arrow read, columnar (decodeColumnBatches)', r.ms.arrowColumns);
report('arrow read (decodeBatches) -> Row', r.ms.arrowRead);
report('rows only, no decoding (bound for any reader)', r.ms.rowsOnly);
report('arrow read (decode, one Row[] per file)', w.ms.arrowWhole);
report('arrow write (ArrowBulkEncoder) <- Row', w.ms.arrowWrite);
report('json write (JsonRowEncoder) <- Row', w.ms.jsonWrite);
console.log(`ratio arrow read, columnar / json read: ${r.ratio('jsonRead', 'arrowColumns').toFixed(2)}x (target >= 10x)`);
console.log(`ratio arrow read -> Row / json read: ${r.ratio('jsonRead', 'arrowRead').toFixed(2)}x (when the next operator needs rows)`);
console.log(`ratio rows only / json read: ${r.ratio('jsonRead', 'rowsOnly').toFixed(2)}x (what a reader that decoded nothing would reach)`);
console.log(`ratio arrow write / json write: ${w.ratio('jsonWrite', 'arrowWrite').toFixed(2)}x (how many times faster the arrow sink encodes)`);
if (sink === -1) console.log(sink);
