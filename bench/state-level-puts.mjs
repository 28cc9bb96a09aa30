// The LSM counterpart of bench/state-lmdb-puts.mjs: the same N random 32-bit keys (6-byte keys, as the
// on-disk state backend writes hashed keys) with 24-byte values, written into LevelDB (classic-level, whose
// writes are asynchronous) or RocksDB (@nxtedition/rocksdb, with synchronous batch writes) in write
// batches of B puts. Both write a batch to a log and a memtable and compact sorted tables in background
// threads of this process, so process.cpuUsage() includes the compactions. Prints CPU and wall
// microseconds per put, the store's size on disk and the process's RSS (anonymous and file-backed) for
// each further million keys, then a final line after the store has no compaction pending.
//
//   node bench/state-level-puts.mjs [keys=6000000] [batch=150000] [--sorted] [--reads R]
//     [--write-buffer MB] [--file-size MB]                        (LevelDB)
//     --rocksdb [--no-compression] [--no-wal-compression] [--cache-index]   (RocksDB; --cache-index keeps
//     index and filter blocks in the 8 MB block cache instead of the heap)
//
// classic-level is not a dependency of Sluice (the backend cannot use it, see docs/state-format.md): install
// it with `npm install --no-save classic-level@3.0.0` to measure LevelDB.
//
// --sorted sorts each batch's keys (as the backend's write-back does). --reads R reads R random keys that
// were written (getSync) after each million puts and reports microseconds per read: the backend's read path
// for a key evicted from its cache.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args.splice(i, 2)[1]) : dflt;
};
const writeBufferMb = opt('--write-buffer', 16);
const fileSizeMb = opt('--file-size', 8);
const reads = opt('--reads', 0);
const [N = 6_000_000, B = 150_000] = args.filter((a) => /^\d+$/.test(a)).map(Number);
const sorted = args.includes('--sorted');
const rocks = args.includes('--rocksdb');
const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'sluice-level-puts-'));
const options = { keyEncoding: 'buffer', valueEncoding: 'buffer' };
const db = rocks
  ? new (require('@nxtedition/rocksdb').RocksLevel)(dir, { ...options, compression: !args.includes('--no-compression'), walCompression: !args.includes('--no-wal-compression'), optimize: 'point-lookup', cacheIndexAndFilterBlocks: args.includes('--cache-index') })
  : new (require('classic-level').ClassicLevel)(dir, { ...options, writeBufferSize: writeBufferMb << 20, maxFileSize: fileSizeMb << 20 });
await db.open();
/** One batch written: RocksDB's chained batch writes synchronously, LevelDB's in a worker thread. */
const writeBatch = async (keys) => {
  if (rocks) {
    const b = db.batch();
    for (let i = 0; i < keys.length; i++) b._put(key(keys[i]), value);
    b._writeSync();
    b._closeSync();
    return;
  }
  const ops = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) ops[i] = { type: 'put', key: key(keys[i]), value };
  await db.batch(ops);
};
const getSync = (k) => (rocks ? db._getManySync([k])[0] ?? undefined : db.getSync(k));
const level0 = () => (rocks ? 0 : Number(db.getProperty('leveldb.num-files-at-level0')));
console.log(
  `${rocks ? 'RocksDB (its default write buffer and table files)' : `LevelDB, write buffer ${writeBufferMb} MB, table files ${fileSizeMb} MB`}, ` +
    `${N} keys, ${B} puts per batch, ${sorted ? 'sorted' : 'unsorted'}, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`,
);
let x = 12345;
const random = () => {
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  return x | 0;
};
const value = Buffer.alloc(24, 7);
const written = new Int32Array(N);
const key = (k) => {
  const b = Buffer.allocUnsafe(6);
  b[0] = 0;
  b[1] = 3;
  b.writeInt32BE(k, 2);
  return b;
};
const storeMb = () => {
  let blocks = 0;
  for (const f of readdirSync(dir)) blocks += statSync(join(dir, f)).blocks;
  return blocks / 2048;
};
const rss = () => {
  const s = readFileSync('/proc/self/status', 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(s)[1]) / 1024;
  return `RSS ${kb('VmRSS').toFixed(0)} MB (${kb('RssAnon').toFixed(0)} anon + ${kb('RssFile').toFixed(0)} file)`;
};
let t0 = performance.now();
let c0 = process.cpuUsage();
let since = 0;
const cAll = process.cpuUsage();
const tAll = performance.now();
for (let done = 0; done < N; done += B) {
  const n = Math.min(B, N - done);
  const keys = new Int32Array(n);
  for (let i = 0; i < n; i++) keys[i] = random();
  written.set(keys, done);
  if (sorted) new Uint32Array(keys.buffer).sort();
  await writeBatch(keys);
  since += n;
  if (since >= 1_000_000 || done + n >= N) {
    const c = process.cpuUsage(c0);
    const wall = performance.now() - t0;
    let readText = '';
    if (reads > 0) {
      const r0 = performance.now();
      let found = 0;
      for (let i = 0; i < reads; i++) if (getSync(key(written[Math.floor(Math.random() * (done + n))])) !== undefined) found++;
      readText = `, ${((1000 * (performance.now() - r0)) / reads).toFixed(2)} us per read (${found}/${reads} found)`;
    }
    console.log(
      `${((done + n) / 1e6).toFixed(1)} M keys: ${((c.user + c.system) / since).toFixed(2)} us CPU, ${((1000 * wall) / since).toFixed(2)} us wall per put; ` +
        `store ${storeMb().toFixed(0)} MB, ${rss()}, load ${loadavg()[0].toFixed(2)}${readText}`,
    );
    t0 = performance.now();
    c0 = process.cpuUsage();
    since = 0;
  }
}
// Compactions still running in the background are part of the cost of these puts: wait until level 0
// has no more files than LevelDB's trigger (4) and report the whole run's CPU per put with them.
while (level0() > 4) await new Promise((r) => setTimeout(r, 100));
await new Promise((r) => setTimeout(r, 1000));
const c = process.cpuUsage(cAll);
console.log(
  `all ${N} puts: ${((c.user + c.system) / N).toFixed(2)} us CPU, ${((1000 * (performance.now() - tAll)) / N).toFixed(2)} us wall per put ` +
    `(compactions included); store ${storeMb().toFixed(0)} MB, ${rss()}, load ${loadavg()[0].toFixed(2)}`,
);
await db.close();
rmSync(dir, { recursive: true, force: true });
