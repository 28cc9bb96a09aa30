import type { AlignmentRegistry } from './task-host.js';

/** The watermark alignment groups of the source subtasks one thread runs: the minimum over each group's splits. */
export function createAlignmentRegistry(): AlignmentRegistry {
  const groups = new Map<string, Map<string, number>>();
  return {
    report(group, key, wm) {
      let g = groups.get(group);
      if (!g) groups.set(group, (g = new Map()));
      g.set(key, wm);
      let min = Infinity;
      for (const v of g.values()) if (v < min) min = v;
      return min;
    },
    remove(group, key) {
      groups.get(group)?.delete(key);
    },
  };
}
