import type { Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { ConnectorError } from '../../errors/sluice-error.js';
import type { FileSourceSettings, FileSplit } from './file-source.js';
import { fileSystemError } from './file-system-errors.js';
import { followedKind } from './followed-entry.js';
import { partitionValuesOf } from './partitions.js';

/**
 * Lists the visible files below the source's `path` (names starting with `.` or `_` are hidden, as in
 * Flink), each as one whole-file split; symbolic links are followed (followed-entry.ts). As Flink's enumerator: a `path` naming one file reads that file;
 * a `path` that does not exist fails a bounded source, while a monitored (continuous) source keeps
 * looking for it at every interval, as Flink's continuous enumerator does (it logs and retries).
 *
 * @throws ConnectorError naming the path when it does not exist (bounded) or cannot be read.
 */
export async function listFiles(settings: FileSourceSettings): Promise<FileSplit[]> {
  const root = resolve(settings.root);
  let rootStat;
  try {
    rootStat = await stat(root);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && settings.monitorIntervalMs !== undefined) return [];
    throw sourcePathError(e, root);
  }
  if (!rootStat.isDirectory()) return singleFile(settings, root, rootStat);
  const out: FileSplit[] = [];
  // Folders reached through a symbolic link, by real path: a link to an enclosing folder is walked once.
  const walked = new Set<string>([await realpath(root)]);
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      // A folder removed between listing its parent and reading it is simply gone.
      if (dir !== root && (e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw sourcePathError(e, dir);
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.name.startsWith('.') || e.name.startsWith('_')) continue;
      const p = join(dir, e.name);
      const kind = await followedKind(p, e);
      if (kind === 'directory') {
        if (e.isSymbolicLink()) {
          // Gone since it was listed: nothing to read.
          const real = await realpath(p).catch(() => undefined);
          if (real === undefined || walked.has(real)) continue;
          walked.add(real);
        }
        await walk(p);
      } else if (kind === 'file') {
        if (settings.pathRegex && !settings.pathRegex.test(p)) continue;
        const partition = partitionValuesOf(relative(root, dir), settings.partitionKeys);
        if (partition === undefined) continue;
        const st = await stat(p);
        out.push({ splitId: p, path: p, offset: 0, size: st.size, modificationTime: Math.floor(st.mtimeMs), partition });
      }
    }
  };
  await walk(root);
  return out;
}

/** `path` names one file: that file is the whole input (even with a hidden-looking name: the user named it). */
function singleFile(settings: FileSourceSettings, path: string, st: Stats): FileSplit[] {
  if (settings.partitionKeys.length > 0) {
    throw new ConnectorError(
      `Filesystem source: the path '${path}' names a file, but the table is partitioned by ${settings.partitionKeys.join(', ')}; ` +
        `point 'path' at the table's directory, whose ${settings.partitionKeys[0]}=... folders hold the partitions.`,
    );
  }
  if (settings.pathRegex && !settings.pathRegex.test(path)) return [];
  return [{ splitId: path, path, offset: 0, size: st.size, modificationTime: Math.floor(st.mtimeMs), partition: [] }];
}

function sourcePathError(e: unknown, path: string): ConnectorError {
  return fileSystemError(e, path, 'read');
}
