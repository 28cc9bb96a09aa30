import { describe, expect, it } from 'vitest';
import { builtinFormatFactories, isBulkFormatFactory } from '../../src/formats/index.js';
import { isDecodingFormatFactory, isEncodingFormatFactory } from '../../src/factories/format.js';

describe('builtinFormatFactories', () => {
  it('lists every format once with its Flink identifier', () => {
    expect(builtinFormatFactories.map((f) => f.factoryIdentifier)).toEqual(['json', 'csv', 'raw', 'debezium-json', 'canal-json', 'avro', 'arrow']);
  });

  it('message formats decode and encode; arrow is a bulk format', () => {
    for (const f of builtinFormatFactories) {
      const bulk = f.factoryIdentifier === 'arrow';
      expect(isBulkFormatFactory(f)).toBe(bulk);
      expect(isDecodingFormatFactory(f)).toBe(!bulk);
      expect(isEncodingFormatFactory(f)).toBe(!bulk);
    }
  });

  it('declares options with unique keys and descriptions', () => {
    for (const f of builtinFormatFactories) {
      const keys = f.optionalOptions().map((o) => o.key);
      expect(new Set(keys).size).toBe(keys.length);
      for (const o of f.optionalOptions()) expect(o.description).not.toBe('');
    }
  });
});
