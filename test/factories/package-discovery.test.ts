import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

describe('factories from installed npm packages', () => {
  it('registers the factories a package declares in its package.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-pkg-'));
    const pkg = join(dir, 'node_modules', '@acme', 'sluice-connector-thing');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@acme/sluice-connector-thing', sluice: { factories: './factories.mjs' } }));
    writeFileSync(
      join(pkg, 'factories.mjs'),
      `export const factories = [{ factoryIdentifier: 'thing', requiredOptions: () => [], optionalOptions: () => [],
        createDynamicTableSink() { throw new Error('thing sink built'); } }];\n`,
    );
    mkdirSync(join(dir, 'node_modules', 'plain'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'plain', 'package.json'), JSON.stringify({ name: 'plain' }));

    const env = TableEnvironment.create({ mode: 'batch', baseDir: dir });
    await env.executeSql("CREATE TEMPORARY TABLE t (a INT) WITH ('connector' = 'thing')");
    await expect(env.executeSql('INSERT INTO t VALUES (1)')).rejects.toThrow('thing sink built');
    await expect(env.executeSql("CREATE TEMPORARY TABLE u (a INT) WITH ('connector' = 'nope')").then(() => env.executeSql('SELECT * FROM u'))).rejects.toThrow(
      /Available factory identifiers are:[\s\S]*\bdatagen\b/,
    );
    await env.close();
  });

  it('names a package whose module exports no factories', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-pkg-'));
    const pkg = join(dir, 'node_modules', 'broken');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'broken', sluice: { factories: './f.mjs' } }));
    writeFileSync(join(pkg, 'f.mjs'), 'export const other = 1;\n');
    const env = TableEnvironment.create({ baseDir: dir });
    await expect(env.executeSql('SHOW TABLES')).rejects.toThrow("Package 'broken' declares factories in './f.mjs'");
    await env.close();
  });
});
