/**
 * Java's textual forms of floating point numbers, which Flink prints for FLOAT and DOUBLE
 * (`1.0`, `0.1`, `1.0E7`, `1.234E-5`, `NaN`, `Infinity`).
 */

/** Shortest round-trip digits and decimal exponent of a finite non-zero number: 1234.5 -> ['12345', 3]. */
function digitsAndExponent(text: string): [string, number] {
  // text is JS toExponential output: d[.ddd]e[+-]n
  const [mantissa, exp] = text.split('e') as [string, string];
  return [mantissa.replace('.', '').replace('-', ''), Number(exp)];
}

function javaStyle(value: number, exponentialText: string): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const [digits, exp] = digitsAndExponent(exponentialText);
  const abs = Math.abs(value);
  if (abs >= 1e-3 && abs < 1e7) {
    if (exp >= 0) {
      const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
      const frac = digits.slice(exp + 1);
      return `${sign}${intPart}.${frac === '' ? '0' : frac}`;
    }
    return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  }
  const frac = digits.slice(1);
  return `${sign}${digits[0]}.${frac === '' ? '0' : frac}E${exp}`;
}

/**
 * Java's `Double.toString(d)`: the shortest digits that read back, except that where one digit would do Java picks
 * the two-digit decimal closest to the value (`4.9E-324` for the smallest subnormal, where JavaScript prints `5e-324`).
 * That closest two-digit decimal always reads back too, as it lies between the value and the one-digit one.
 */
export function formatDouble(value: number): string {
  const shortest = value.toExponential();
  return javaStyle(value, /^-?\de/.test(shortest) ? twoDigits(value) : shortest);
}

/** The closest two-digit decimal in toExponential form, a trailing zero dropped (`1.0e-1` prints `0.1`). */
function twoDigits(value: number): string {
  return value.toExponential(1).replace(/\.0e/, 'e');
}

/** Java's `Float.toString(f)`: the shortest digits that read back to the same float. */
export function formatFloat(value: number): string {
  const f = Math.fround(value);
  if (!Number.isFinite(f) || f === 0) return javaStyle(f, '0e+0');
  // One digit is never printed alone: the closest two-digit decimal (see formatDouble).
  if (Math.fround(Number(f.toExponential(0))) === f) return javaStyle(f, twoDigits(f));
  for (let p = 2; p <= 9; p++) {
    const text = f.toExponential(p - 1);
    if (Math.fround(Number(text)) === f) return javaStyle(f, text);
  }
  return javaStyle(f, f.toExponential(8));
}
