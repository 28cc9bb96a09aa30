import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScript, parseStatement } from '../../src/sql/parse.js';
import { unparseStatement } from '../../src/sql/unparse.js';
import { stripPositions } from './helpers.js';

const dir = join(import.meta.dirname, 'golden');
const files = readdirSync(dir).filter((f) => f.endsWith('.sql'));

describe('golden corpus of Flink documentation statements', () => {
  let total = 0;
  for (const file of files) {
    const script = readFileSync(join(dir, file), 'utf8');
    describe(file, () => {
      const parsed = parseScript(script);
      total += parsed.length;
      for (const p of parsed) {
        const title = `line ${p.pos.line}: ${p.text.replace(/\s+/g, ' ').slice(0, 70)}`;
        it(`${title} round-trips through unparse`, () => {
          const text = unparseStatement(p.statement);
          let reparsed;
          try {
            reparsed = parseStatement(text);
          } catch (e) {
            throw new Error(`${(e as Error).message}\n--- unparsed ---\n${text}`);
          }
          expect(stripPositions(reparsed)).toEqual(stripPositions(p.statement));
          expect(unparseStatement(reparsed)).toBe(text);
        });
      }
    });
  }
  it('holds at least 150 statements', () => {
    expect(total).toBeGreaterThanOrEqual(150);
  });
});
