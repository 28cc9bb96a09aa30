import { mkdir, open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * fsync helpers of the file sink. A checkpoint may be acknowledged only once what it depends on survives
 * a machine crash: the bytes of each pending file (fsync of the file) and the directory entries naming it,
 * its partition folders and, after the commit, the renamed file (fsync of the directory). Written once per
 * file per checkpoint, never per write.
 */

/** Codes with which a platform says it cannot open or fsync a directory (Windows, some network mounts). */
const CANNOT_SYNC_DIRECTORY = new Set(['EINVAL', 'EISDIR', 'EPERM', 'EBADF', 'ENOTSUP', 'EOPNOTSUPP']);

function cannotSyncDirectory(e: unknown): boolean {
  return CANNOT_SYNC_DIRECTORY.has((e as NodeJS.ErrnoException).code ?? '');
}

/**
 * Makes the entries of `dir` (files created, renamed or deleted in it) durable. Where the platform cannot
 * fsync a directory this does nothing: there the rename is as durable as the platform makes it. Any other
 * error (EIO, a missing directory) fails the caller's checkpoint or commit.
 */
export async function syncDirectory(dir: string): Promise<void> {
  let fh;
  try {
    fh = await open(dir, 'r');
  } catch (e) {
    if (cannotSyncDirectory(e)) return;
    throw e;
  }
  try {
    await fh.sync();
  } catch (e) {
    if (!cannotSyncDirectory(e)) throw e;
  } finally {
    await fh.close();
  }
}

/** `mkdir -p` that makes every directory it creates durable, by syncing the parent of each new one. */
export async function makeDirectories(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined) return;
  const top = resolve(first);
  const parents: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    parents.push(dirname(d));
    if (d === top || dirname(d) === d) break;
  }
  for (const p of parents.reverse()) await syncDirectory(p);
}

/** Writes a whole file and fsyncs it before returning (its directory entry is the caller's to sync). */
export async function writeFileSynced(path: string, data: Uint8Array | string): Promise<void> {
  const fh = await open(path, 'w');
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
}
