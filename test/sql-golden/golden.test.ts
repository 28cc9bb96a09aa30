import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseGolden, runGolden } from './golden-runner.js';

const dir = dirname(fileURLToPath(import.meta.url));

for (const file of readdirSync(dir).filter((f) => f.endsWith('.sql')).sort()) {
  describe(file, () => {
    for (const c of parseGolden(join(dir, file))) {
      for (const mode of c.modes) {
        it(`line ${c.line} [${mode}]: ${c.sql.replace(/\s+/g, ' ').slice(0, 80)}`, async () => {
          const { actual, expected } = await runGolden(c, mode);
          expect(actual).toEqual(expected);
        });
      }
    }
  });
}
