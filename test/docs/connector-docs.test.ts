import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectorDocs } from '../../src/cli/option-docs.js';

const dir = join(import.meta.dirname, '..', '..', 'docs', 'connectors');

describe('generated connector docs', () => {
  it('are current: regenerate with `npm run docs` after changing an options class', async () => {
    const generated = await connectorDocs();
    expect(readdirSync(dir).filter((f) => f.endsWith('.md')).sort()).toEqual([...generated.keys()].sort());
    for (const [file, text] of generated) expect(readFileSync(join(dir, file), 'utf8'), file).toBe(text);
  });

  it('document every option of the kafka connector with its default', async () => {
    const kafka = (await connectorDocs()).get('kafka.md')!;
    expect(kafka).toContain('| `scan.startup.mode` | no | `group-offsets` |');
    expect(kafka).toContain('`properties.bootstrap.servers` | yes');
  });
});
