import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The file sink writer's state: the hidden pending files it prepared for a checkpoint and that were not
 * renamed (committed) yet when the checkpoint was taken. Exactly these may still be committed after a
 * restore; every other hidden part file of the subtask is garbage of a failed attempt.
 */
export interface FileWriterState {
  readonly pending: readonly string[];
}

/** `.part-<uuid>-<subtask>-<n>[.ext].inprogress.<uuid>`, as the file writer names its hidden files. */
const HIDDEN_PART = /^\.part-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-(\d+)-\d+(?:\.[^.]+)?\.inprogress\.[0-9a-f-]{36}$/;

export interface StaleFileScope {
  readonly subtaskIndex: number;
  readonly parallelism: number;
  /** Pending files a restored checkpoint may still commit (absolute paths as the writer wrote them). */
  readonly keep: ReadonlySet<string>;
  /** The restoring writer's own uuid: its new files are never stale. */
  readonly ownUuid: string;
}

/**
 * Deletes the hidden in-progress and pending part files below `root` that a failed attempt left behind:
 * those named with this subtask's index (subtask 0 also takes indexes beyond the parallelism, which no
 * live writer uses) that are not in `keep` and not written by this writer. Called once by a writer
 * restored from a checkpoint, before its first write. A restore at a lower parallelism leaves indexes
 * no writer has any more: subtask 0 takes those. Pending files the checkpoint may still commit were
 * committed before any writer starts. Files of another job writing into the same folder with the same
 * subtask index would be removed too: as in Flink, a table folder has one writing job at a time.
 * Returns how many files it removed.
 */
export async function removeStaleFiles(root: string, scope: StaleFileScope): Promise<number> {
  let removed = 0;
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // the table folder does not exist yet, or a partition vanished meanwhile
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        await walk(p);
        continue;
      }
      const m = HIDDEN_PART.exec(e.name);
      if (!m || scope.keep.has(p) || e.name.includes(scope.ownUuid)) continue;
      const index = Number(m[1]);
      const mine = index === scope.subtaskIndex || (scope.subtaskIndex === 0 && index >= scope.parallelism);
      if (!mine) continue;
      await rm(p, { force: true });
      removed++;
    }
  };
  await walk(root);
  return removed;
}
