import { describe, expect, it } from 'vitest';
import { JsonNumber, jacksonNumberText, parseJsonLossless, stringifyJson } from '../../../src/planner/functions/builtins/json-text.js';

describe('lossless JSON text', () => {
  it('keeps number digits and leaves strings alone', () => {
    const v = parseJsonLossless('{"a": 123456789.987654321, "b": ["7", -0.50, 1e3], "c": true, "d": null}') as Record<string, unknown>;
    expect(v.a).toEqual(new JsonNumber('123456789.987654321'));
    expect(stringifyJson(v)).toBe('{"a":123456789.987654321,"b":["7",-0.50,1E+3],"c":true,"d":null}');
    expect(parseJsonLossless('"x 12 y"')).toBe('x 12 y');
    expect(parseJsonLossless('"quote \\" 12"')).toBe('quote " 12');
  });

  it('refuses what JSON.parse refuses', () => {
    for (const bad of ['01', '[1 2]', '{', '1.', '.5', '-', '{"a":}', '+1']) expect(() => parseJsonLossless(bad), bad).toThrow(SyntaxError);
  });

  it('prints numbers back as Flink (Jackson: long, or BigDecimal as BigDecimal.toString prints it), no negative zero', () => {
    // Flink 2.3: JSON_VALUE('{"a":-1.25E2}', '$.a') is '-125' (goldens/regressions.json, query 0); JSON_QUERY of
    // a JSON array holding DOUBLE.MAX_VALUE prints 1.7976931348623157E+308 (differential seed 31337, query 398).
    const cases: [string, string][] = [
      ['-1.25E2', '-125'],
      ['1.5E-3', '0.0015'],
      ['1.50', '1.50'],
      ['1E2', '1E+2'],
      ['1.0E2', '1.0E+2'],
      ['-1.5e+1', '-15'],
      ['2.50E1', '25.0'],
      ['0E-5', '0.00000'],
      ['-0', '0'],
      ['-0.0', '0.0'],
      ['-0.5', '-0.5'],
      ['0.0000001', '1E-7'],
      ['4.9E-324', '4.9E-324'],
      ['1.7976931348623157E308', '1.7976931348623157E+308'],
      ['9223372036854775807', '9223372036854775807'],
      ['12', '12'],
    ];
    for (const [text, flink] of cases) expect(jacksonNumberText(text), text).toBe(flink);
    expect(stringifyJson(parseJsonLossless('[-1.25E2,"-1.25E2"]'))).toBe('[-125,"-1.25E2"]');
  });
});
