// What a put costs in lmdb itself as the store grows, without Sluice: N random 32-bit keys (6-byte keys, as
// the lmdb state backend writes hashed keys) with 24-byte values, written in write transactions of B puts,
// with the store options of src/runtime/state/lmdb-store.ts. Prints CPU and wall microseconds per put, the
// file's size and the process's RSS for each further million keys.
//
//   node bench/state-lmdb-puts.mjs [keys=6000000] [batch=150000] [--sorted] [--no-remap] [--writemap]
//
// --sorted sorts each transaction's keys (as the backend's write-back does); --no-remap maps the whole file
// (lmdb's default; --writemap then writes through the map instead of copying pages).
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const [N = 6_000_000, B = 150_000] = args.filter((a) => /^\d+$/.test(a)).map(Number);
const sorted = args.includes('--sorted');
const remap = !args.includes('--no-remap');
const writemap = args.includes('--writemap');
const lmdb = createRequire(import.meta.url)('lmdb');
const dir = mkdtempSync(join(tmpdir(), 'sluice-lmdb-puts-'));
const db = lmdb.open({
  path: dir, keyEncoding: 'binary', encoding: 'binary', noSync: true, noMetaSync: true, noMemInit: true,
  noReadAhead: true, cache: false, remapChunks: remap, useWritemap: writemap,
});
console.log(`${N} keys, ${B} puts per transaction, ${sorted ? 'sorted' : 'unsorted'}, remapChunks ${remap}, writemap ${writemap}, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
let x = 12345;
const random = () => {
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  return x | 0;
};
const value = Buffer.alloc(24, 7);
let t0 = performance.now();
let c0 = process.cpuUsage();
let since = 0;
for (let done = 0; done < N; done += B) {
  const keys = new Int32Array(B);
  for (let i = 0; i < B; i++) keys[i] = random();
  if (sorted) new Uint32Array(keys.buffer).sort();
  db.transactionSync(() => {
    for (let i = 0; i < B; i++) {
      const k = Buffer.allocUnsafe(6);
      k[0] = 0;
      k[1] = 3;
      k.writeInt32BE(keys[i], 2);
      db.putSync(k, value);
    }
  });
  since += B;
  if (since >= 1_000_000 || done + B >= N) {
    const c = process.cpuUsage(c0);
    const wall = performance.now() - t0;
    const st = statSync(join(dir, 'data.mdb'));
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
    console.log(
      `${((done + B) / 1e6).toFixed(1)} M keys: ${((c.user + c.system) / since).toFixed(2)} us CPU, ${((1000 * wall) / since).toFixed(2)} us wall per put; ` +
        `file ${(st.blocks / 2048).toFixed(0)} MB, RSS ${rss.toFixed(0)} MB, load ${loadavg()[0].toFixed(2)}`,
    );
    t0 = performance.now();
    c0 = process.cpuUsage();
    since = 0;
  }
}
await db.close();
rmSync(dir, { recursive: true, force: true });
