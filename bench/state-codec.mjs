// Checkpoint state codec (encodeState / decodeState) against node:v8 serialize / deserialize, the codec it
// replaced, on the same values in the same run (target: encode >= 1.0x v8). Run after `npm run build`.
//
// Two realistic states, shaped as the heap state backend snapshots them ({ states: [{ name, kind, entries }] }):
// - agg: 200k keyed entries [bigint key, [count, sum bigint, Row(+I, [bigint, string, timestamp ms, Decimal])]]
//   (a group aggregate's accumulator and last emitted row);
// - map: 20k keys each holding a Map of 10 string -> string entries (a map state of strings).
// The v8 baseline is fed what the old codec gave it (the Row and Decimal turned into plain objects first,
// the old toPlain pass) and, separately, the already-plain tree alone, so both the end-to-end old path and
// bare v8 are shown.
import { loadavg } from 'node:os';
import { deserialize, serialize } from 'node:v8';
import { CLOCK, compare, load } from './format-bench-util.mjs';

const { encodeState, decodeState } = await load('runtime/state/state-codec.js');
const { Row, RowKind } = await load('types/index.js');
const { Decimal } = await load('types/decimal.js');

const N = Number(process.env.BENCH_ENTRIES ?? 200_000);

function aggState() {
  const entries = [];
  for (let i = 0; i < N; i++) {
    const key = BigInt(1_000_000 + i * 7);
    const row = new Row(RowKind.INSERT, [key, `user-${i % 5000}`, 1_700_000_000_000 + i * 13, Decimal.of(BigInt(i * 101), 2)]);
    entries.push([key, [i % 1000, BigInt(i) * 12_345n, row]]);
  }
  return { states: [{ name: 'acc', kind: 'value', entries }] };
}

function mapState() {
  const entries = [];
  for (let i = 0; i < N / 10; i++) {
    const m = new Map();
    for (let j = 0; j < 10; j++) m.set(`attribute-${j}`, `value ${i}-${j} of some length`);
    entries.push([`key-${i}`, m]);
  }
  return { states: [{ name: 'attrs', kind: 'map', entries }] };
}

// The old codec's pre-pass (Row -> { $row, f }, Decimal -> { $cls, v }), so v8 sees what it saw in Sluice.
function oldToPlain(v) {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(oldToPlain);
  if (v instanceof Row) return { $row: v.kind, f: v.fields.map(oldToPlain) };
  if (v instanceof Decimal) return { $cls: 'Decimal', v: [v.unscaled, v.scale] };
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [oldToPlain(k), oldToPlain(x)]));
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = oldToPlain(x);
  return out;
}

const runs = Number(process.env.BENCH_RUNS ?? 7);
const load1 = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`state codec: ${N} entries; median of ${runs}, interleaved, ${CLOCK} clock; MB/s of each codec's own output; load average ${load1()}`);
let sink = 0;
for (const [name, state] of [['agg', aggState()], ['map', mapState()]]) {
  const plain = oldToPlain(state);
  const ours = encodeState(state);
  const v8bytes = serialize(plain);
  const r = compare(
    {
      v8Encode: () => (sink += serialize(oldToPlain(state)).length),
      v8EncodeBare: () => (sink += serialize(plain).length),
      encode: () => (sink += encodeState(state).length),
      v8Decode: () => (sink += deserialize(v8bytes) === null ? 1 : 0),
      decode: () => (sink += decodeState(ours) === null ? 1 : 0),
    },
    runs,
  );
  const mbs = (bytes, ms) => ((bytes / 1e6 / ms) * 1000).toFixed(0).padStart(5);
  console.log(`\n${name}: ${ours.length} bytes (v8: ${v8bytes.length} bytes of the plain tree)`);
  const line = (label, ms, bytes) => console.log(`${label.padEnd(52)} ${ms.toFixed(1).padStart(8)} ms  ${mbs(bytes, ms)} MB/s`);
  line('v8 serialize incl. old toPlain pass (old encodeState)', r.ms.v8Encode, v8bytes.length);
  line('v8 serialize of the ready plain tree', r.ms.v8EncodeBare, v8bytes.length);
  line('encodeState (format v1)', r.ms.encode, ours.length);
  line('v8 deserialize (without the old fromPlain pass)', r.ms.v8Decode, v8bytes.length);
  line('decodeState (format v1)', r.ms.decode, ours.length);
  console.log(`ratio encode / old encodeState:       ${r.ratio('v8Encode', 'encode').toFixed(2)}x`);
  console.log(`ratio encode / bare v8 serialize:     ${r.ratio('v8EncodeBare', 'encode').toFixed(2)}x (target >= 1.0x)`);
  console.log(`ratio decode / bare v8 deserialize:   ${r.ratio('v8Decode', 'decode').toFixed(2)}x`);
}
console.log(`\nload average at the end ${load1()}`);
if (sink === -1) console.log(sink);
