import { describe, expect, it } from 'vitest';
import { JsonNumber, parseJsonLossless, stringifyJson } from '../../../src/planner/functions/builtins/json-text.js';

describe('lossless JSON text', () => {
  it('keeps number digits and leaves strings alone', () => {
    const v = parseJsonLossless('{"a": 123456789.987654321, "b": ["7", -0.50, 1e3], "c": true, "d": null}') as Record<string, unknown>;
    expect(v.a).toEqual(new JsonNumber('123456789.987654321'));
    expect(stringifyJson(v)).toBe('{"a":123456789.987654321,"b":["7",-0.50,1e3],"c":true,"d":null}');
    expect(parseJsonLossless('"x 12 y"')).toBe('x 12 y');
    expect(parseJsonLossless('"quote \\" 12"')).toBe('quote " 12');
  });

  it('refuses what JSON.parse refuses', () => {
    for (const bad of ['01', '[1 2]', '{', '1.', '.5', '-', '{"a":}', '+1']) expect(() => parseJsonLossless(bad), bad).toThrow(SyntaxError);
  });
});
