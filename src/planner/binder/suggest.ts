import { editDistance, MAX_SUGGEST_LENGTH } from '../../util/suggest.js';
export { editDistance } from '../../util/suggest.js';

/** The candidate closest to `name` (case-insensitive), if close enough to be a likely typo. */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length > MAX_SUGGEST_LENGTH) return undefined;
  const max = Math.max(2, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestD = Infinity;
  const lower = name.toLowerCase();
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase(), max);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

/** "; did you mean 'x'?" or "". */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const n = nearestName(name, candidates);
  return n === undefined ? '' : `; did you mean '${n}'?`;
}
