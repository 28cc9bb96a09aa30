import { describe, expect, it } from 'vitest';
import { JsonNumber, jacksonNumberText, parseJsonLossless, stringifyJson } from '../../../src/planner/functions/builtins/json-text.js';

describe('lossless JSON text', () => {
  it('keeps number digits and leaves strings alone', () => {
    const v = parseJsonLossless('{"a": 123456789.987654321, "b": ["7", -0.50, 1e3], "c": true, "d": null}') as Record<string, unknown>;
    expect(v.a).toEqual(new JsonNumber('123456789.987654321'));
    expect(stringifyJson(v)).toBe('{"a":123456789.987654321,"b":["7",-0.50,1000],"c":true,"d":null}');
    expect(parseJsonLossless('"x 12 y"')).toBe('x 12 y');
    expect(parseJsonLossless('"quote \\" 12"')).toBe('quote " 12');
  });

  it('refuses what JSON.parse refuses', () => {
    for (const bad of ['01', '[1 2]', '{', '1.', '.5', '-', '{"a":}', '+1']) expect(() => parseJsonLossless(bad), bad).toThrow(SyntaxError);
  });

  it('prints numbers back as Flink (Jackson: long or BigDecimal, plain notation): exponents written out, no negative zero', () => {
    // Flink 2.3: JSON_VALUE('{"a":-1.25E2}', '$.a') is '-125' (goldens/regressions.json, query 0).
    const cases: [string, string][] = [
      ['-1.25E2', '-125'],
      ['1.5E-3', '0.0015'],
      ['1.50', '1.50'],
      ['1E2', '100'],
      ['1.0E2', '100'],
      ['-1.5e+1', '-15'],
      ['2.50E1', '25.0'],
      ['0E-5', '0.00000'],
      ['-0', '0'],
      ['-0.0', '0.0'],
      ['-0.5', '-0.5'],
      ['9223372036854775807', '9223372036854775807'],
      ['12', '12'],
    ];
    for (const [text, flink] of cases) expect(jacksonNumberText(text), text).toBe(flink);
    expect(stringifyJson(parseJsonLossless('[-1.25E2,"-1.25E2"]'))).toBe('[-125,"-1.25E2"]');
  });
});
