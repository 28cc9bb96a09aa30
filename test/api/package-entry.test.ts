import { describe, expect, it } from 'vitest';
import * as sluice from '../../src/index.js';

describe('the package entry point', () => {
  it('exports the API a user and a connector author need', async () => {
    for (const name of ['TableEnvironment', 'TableDescriptor', 'Schema', 'DataTypes', 'Decimal', 'Row', 'RowKind', 'ConfigOptions', 'ChangelogMode', 'createTableFactoryHelper', 'SourceReaderBase', 'SqlParseError', 'ValidationError']) {
      expect(sluice, name).toHaveProperty(name);
    }
    const env = sluice.TableEnvironment.create({ mode: 'batch' });
    const rows: unknown[][] = [];
    for await (const r of (await env.executeSql('SELECT 1 + 1 AS two')).collect()) rows.push(r.fields);
    expect(rows).toEqual([[2]]);
    await env.close();
  });
});
