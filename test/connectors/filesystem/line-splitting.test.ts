import { describe, expect, it } from 'vitest';
import { Configuration } from '../../../src/config/configuration.js';
import { isSplittableLineFormat } from '../../../src/connectors/filesystem/line-splitting.js';
import { ChangelogMode } from '../../../src/factories/changelog-mode.js';
import type { DecodingFormat } from '../../../src/factories/format.js';
import { CsvFormatFactory } from '../../../src/formats/csv/csv-format-factory.js';
import { JsonFormatFactory } from '../../../src/formats/json/json-format-factory.js';
import { RawFormatFactory } from '../../../src/formats/raw/raw-format-factory.js';
import { DataTypes } from '../../../src/types/data-types.js';
import { tableContext } from '../datagen/context.js';

const ctx = tableContext([['s', DataTypes.STRING()]], { connector: 'filesystem', path: '/nowhere' });
const conf = (o: Record<string, string>): Configuration => new Configuration(o);

describe('line-splittable formats', () => {
  it('json and raw declare themselves splittable, csv only without quote and escape characters', () => {
    expect(new JsonFormatFactory().createDecodingFormat(ctx, conf({})).isSplittable()).toBe(true);
    expect(new RawFormatFactory().createDecodingFormat(ctx, conf({})).isSplittable()).toBe(true);
    const csv = (o: Record<string, string>) => new CsvFormatFactory().createDecodingFormat(ctx, conf(o)).isSplittable();
    expect(csv({})).toBe(false);
    expect(csv({ 'disable-quote-character': 'true' })).toBe(true);
    // An escaped line break continues the record on the next line.
    expect(csv({ 'disable-quote-character': 'true', 'escape-character': '\\' })).toBe(false);
  });

  it('follows the declaration, whatever the identifier, and says no for a format that declares none', () => {
    const plain: DecodingFormat = { createRuntimeDecoder: () => { throw new Error('unused'); }, getChangelogMode: () => ChangelogMode.insertOnly() };
    expect(isSplittableLineFormat(plain, 'json', {})).toBe(false);
    expect(isSplittableLineFormat({ ...plain, isSplittable: () => true } as DecodingFormat, 'avro', {})).toBe(true);
    expect(isSplittableLineFormat({ ...plain, isSplittable: () => false } as DecodingFormat, 'json', {})).toBe(false);
  });
});
