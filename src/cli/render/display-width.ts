/**
 * Columns a string takes on a terminal: East Asian wide and fullwidth characters (CJK, Hangul, fullwidth
 * forms, most emoji) take two, as Flink's tableau counts them (Unicode TR11, `W` and `F`); combining marks,
 * zero-width spaces and joiners, and variation selectors take none, as a terminal draws them on the character
 * before (Flink counts them as one column each, which misaligns its borders); every other code point one.
 */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/** 2 for a wide or fullwidth code point, 0 for one drawn on the character before it, else 1. */
export function charWidth(cp: number): 0 | 1 | 2 {
  if (cp < 0x300) return 1;
  if (isZeroWidth(cp)) return 0;
  if (cp < 0x1100) return 1;
  let lo = 0;
  let hi = WIDE.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < WIDE[2 * mid]!) hi = mid - 1;
    else if (cp > WIDE[2 * mid + 1]!) lo = mid + 1;
    else return 2;
  }
  return 1;
}

const COMBINING_MARK = /^[\p{Mn}\p{Me}]$/u;

/** Combining (non-spacing and enclosing) marks, zero-width space, joiners, word joiner, BOM, variation selectors. */
function isZeroWidth(cp: number): boolean {
  if ((cp >= 0x200b && cp <= 0x200d) || cp === 0x2060 || cp === 0xfeff) return true;
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)) return true;
  return COMBINING_MARK.test(String.fromCodePoint(cp));
}

/**
 * The part of `s` from column `from` up to column `to` (exclusive). A wide character cut in two by
 * either edge becomes a space, so the result takes exactly the columns asked for (or fewer at the end).
 */
export function columnSlice(s: string, from: number, to = Number.POSITIVE_INFINITY): string {
  if (from <= 0 && to >= s.length * 2) return s;
  let out = '';
  let col = 0;
  let baseKept = false; // a zero-width character goes with the character it is drawn on
  for (const ch of s) {
    const w = charWidth(ch.codePointAt(0)!);
    if (w === 0) {
      if (baseKept) out += ch;
      continue;
    }
    if (col >= to) break;
    baseKept = col >= from && col + w <= to;
    if (baseKept) out += ch;
    else if (col + w > from && col < to) out += ' '.repeat(Math.min(col + w, to) - Math.max(col, from));
    col += w;
  }
  return out;
}

/** Inclusive ranges of East Asian wide (W) and fullwidth (F) code points, from Unicode's EastAsianWidth.txt. */
const WIDE: readonly number[] = [
  0x1100, 0x115f, 0x231a, 0x231b, 0x2329, 0x232a, 0x23e9, 0x23ec, 0x23f0, 0x23f0, 0x23f3, 0x23f3, 0x25fd, 0x25fe, 0x2614, 0x2615,
  0x2648, 0x2653, 0x267f, 0x267f, 0x2693, 0x2693, 0x26a1, 0x26a1, 0x26aa, 0x26ab, 0x26bd, 0x26be, 0x26c4, 0x26c5, 0x26ce, 0x26ce,
  0x26d4, 0x26d4, 0x26ea, 0x26ea, 0x26f2, 0x26f3, 0x26f5, 0x26f5, 0x26fa, 0x26fa, 0x26fd, 0x26fd, 0x2705, 0x2705, 0x270a, 0x270b,
  0x2728, 0x2728, 0x274c, 0x274c, 0x274e, 0x274e, 0x2753, 0x2755, 0x2757, 0x2757, 0x2795, 0x2797, 0x27b0, 0x27b0, 0x27bf, 0x27bf,
  0x2b1b, 0x2b1c, 0x2b50, 0x2b50, 0x2b55, 0x2b55, 0x2e80, 0x303e, 0x3041, 0x33ff, 0x3400, 0x4dbf, 0x4e00, 0x9fff, 0xa000, 0xa4cf,
  0xa960, 0xa97f, 0xac00, 0xd7a3, 0xf900, 0xfaff, 0xfe10, 0xfe19, 0xfe30, 0xfe6f, 0xff00, 0xff60, 0xffe0, 0xffe6, 0x16fe0, 0x16fe4,
  0x17000, 0x18aff, 0x1b000, 0x1b2ff, 0x1f004, 0x1f004, 0x1f0cf, 0x1f0cf, 0x1f18e, 0x1f18e, 0x1f191, 0x1f19a, 0x1f200, 0x1f202,
  0x1f210, 0x1f23b, 0x1f240, 0x1f248, 0x1f250, 0x1f251, 0x1f260, 0x1f265, 0x1f300, 0x1f320, 0x1f32d, 0x1f335, 0x1f337, 0x1f37c,
  0x1f37e, 0x1f393, 0x1f3a0, 0x1f3ca, 0x1f3cf, 0x1f3d3, 0x1f3e0, 0x1f3f0, 0x1f3f4, 0x1f3f4, 0x1f3f8, 0x1f43e, 0x1f440, 0x1f440,
  0x1f442, 0x1f4fc, 0x1f4ff, 0x1f53d, 0x1f54b, 0x1f54e, 0x1f550, 0x1f567, 0x1f57a, 0x1f57a, 0x1f595, 0x1f596, 0x1f5a4, 0x1f5a4,
  0x1f5fb, 0x1f64f, 0x1f680, 0x1f6c5, 0x1f6cc, 0x1f6cc, 0x1f6d0, 0x1f6d2, 0x1f6d5, 0x1f6d7, 0x1f6dc, 0x1f6df, 0x1f6eb, 0x1f6ec,
  0x1f6f4, 0x1f6fc, 0x1f7e0, 0x1f7eb, 0x1f7f0, 0x1f7f0, 0x1f90c, 0x1f93a, 0x1f93c, 0x1f945, 0x1f947, 0x1f9ff, 0x1fa70, 0x1fa7c,
  0x1fa80, 0x1fa89, 0x1fa8f, 0x1fac6, 0x1face, 0x1fadc, 0x1fadf, 0x1fae9, 0x1faf0, 0x1faf8, 0x20000, 0x2fffd, 0x30000, 0x3fffd,
];

/** `s` in pieces of at most `width` columns, a wide character never split. */
export function wrapColumns(s: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let col = 0;
  for (const ch of s) {
    const w = charWidth(ch.codePointAt(0)!);
    if (col + w > width && piece !== '') {
      pieces.push(piece);
      piece = '';
      col = 0;
    }
    piece += ch;
    col += w;
  }
  pieces.push(piece);
  return pieces;
}
