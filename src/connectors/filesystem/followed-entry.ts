import { statSync, type Dirent } from 'node:fs';
import { stat } from 'node:fs/promises';

/**
 * What a directory entry is once a symbolic link is followed. Flink's local file system lists through
 * java.io.File, whose isFile / isDirectory follow links, so a linked file is read and a linked folder walked; a
 * Dirent reports the link itself, neither file nor folder, and the source skipped the data silently. A dangling
 * link, or one Sluice may not follow, holds no data to read: it counts as neither.
 */
export type FollowedKind = 'file' | 'directory' | 'other';

export async function followedKind(path: string, e: Dirent): Promise<FollowedKind> {
  if (!e.isSymbolicLink()) return e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'other';
  try {
    return kindOf(await stat(path));
  } catch {
    return 'other';
  }
}

export function followedKindSync(path: string, e: Dirent): FollowedKind {
  if (!e.isSymbolicLink()) return e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'other';
  try {
    return kindOf(statSync(path));
  } catch {
    return 'other';
  }
}

function kindOf(st: { isDirectory(): boolean; isFile(): boolean }): FollowedKind {
  return st.isDirectory() ? 'directory' : st.isFile() ? 'file' : 'other';
}
