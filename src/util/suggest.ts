/**
 * Words longer than this get no "did you mean" hint: nobody mistypes a 300-character name, and the
 * edit distance costs length x length (a 1 M-character SET key took 20 s to answer).
 */
export const MAX_SUGGEST_LENGTH = 256;

/**
 * The candidate nearest to `word` by edit distance, if it is near enough to be a likely typo
 * (at most a third of the word's length, and at least 1 edit allowed). Used for "did you mean" hints.
 */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  if (word.length > MAX_SUGGEST_LENGTH) return undefined;
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = word.toLowerCase();
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase(), Math.min(limit, bestDistance));
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/**
 * Levenshtein distance with one rolling row. With `max`, any answer above `max` may be returned as
 * some value above `max` (the work stops early): callers that only want near candidates pass it.
 */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  const lengthGap = Math.abs(a.length - b.length);
  if (lengthGap > max) return lengthGap;
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    let rowMin = row[0];
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (row[j]! < rowMin) rowMin = row[j]!;
      diagonal = above;
    }
    // Distances never shrink from one row to the next: once every cell is past `max`, so is the answer.
    if (rowMin > max) return rowMin;
  }
  return row[b.length]!;
}
