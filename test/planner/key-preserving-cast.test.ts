import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isKeyPreservingCast } from '../../src/planner/logical/key-preserving-cast.js';
import { parseLogicalType } from '../../src/types/parse-logical-type.js';

// What a real Flink 2.3 answers for each pair (scripts/flink-injective-casts.mjs): `key` when an upsert key cast this
// way is still the upsert key of the sink it feeds.
const table = readFileSync(fileURLToPath(new URL('./fixtures/flink-injective-casts.txt', import.meta.url)), 'utf8')
  .split('\n')
  .filter((l) => l !== '' && !l.startsWith('#'))
  .map((l) => {
    const m = /^(.+) -> (.+): (key|no)$/.exec(l);
    if (m === null) throw new Error(`bad line: ${l}`);
    return { from: m[1]!, to: m[2]!, key: m[3] === 'key' };
  });

describe('isKeyPreservingCast', () => {
  it('answers as a real Flink 2.3 for every measured pair', () => {
    expect(table.length).toBeGreaterThan(900);
    const wrong = table.filter(({ from, to, key }) => isKeyPreservingCast(parseLogicalType(from), parseLogicalType(to)) !== key);
    expect(wrong.map(({ from, to, key }) => `${from} -> ${to}: Flink says ${key ? 'key' : 'no'}`)).toEqual([]);
  });

  it('holds both ways of the table: some casts keep the key, some do not', () => {
    expect(table.filter((p) => p.key).length).toBeGreaterThan(100);
    expect(table.filter((p) => !p.key).length).toBeGreaterThan(100);
  });
});
