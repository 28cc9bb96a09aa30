import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { followedKindSync } from './followed-entry.js';

/**
 * Bytes of the visible files below `root` (as list-files.ts sees them: names starting with `.` or `_` are
 * hidden, `pathRegex` filters), read synchronously when a query is planned. The walk stops once `enough`
 * bytes are counted or `maxEntries` entries are seen, returning what it counted so far, and then at least
 * `enough`: the caller only asks whether the input is large. A path that cannot be read counts as empty;
 * reading the files reports it properly.
 */
export function inputBytesAtLeast(root: string, pathRegex: RegExp | undefined, enough: number, maxEntries = 10_000): number {
  let total = 0;
  let seen = 0;
  const start = resolve(root);
  const stack = [start];
  const walked = new Set<string>();
  try {
    const top = statSync(start);
    if (!top.isDirectory()) return top.size;
    walked.add(realpathSync(start));
  } catch {
    return 0;
  }
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > maxEntries) return Math.max(total, enough);
      if (e.name.startsWith('.') || e.name.startsWith('_')) continue;
      const p = join(dir, e.name);
      const kind = followedKindSync(p, e);
      if (kind === 'directory') {
        if (e.isSymbolicLink()) {
          // As list-files.ts: a link to an enclosing folder is walked once.
          const real = realPath(p);
          if (real === undefined || walked.has(real)) continue;
          walked.add(real);
        }
        stack.push(p);
      } else if (kind === 'file' && (pathRegex === undefined || pathRegex.test(p))) {
        try {
          total += statSync(p).size;
        } catch {
          // Removed since the listing: not part of the input.
        }
        if (total >= enough) return total;
      }
    }
  }
  return total;
}

function realPath(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}
