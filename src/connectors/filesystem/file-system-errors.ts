import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConnectorError } from '../../errors/sluice-error.js';

/**
 * A Node file-system error as a ConnectorError a user can act on: what is wrong with which path, in
 * words ("is read-only", "does not exist"), instead of Node's raw "EACCES: permission denied, open ...".
 * `side` says whether the filesystem source was reading or the sink writing. The Node error is the cause.
 */
export function fileSystemError(e: unknown, path: string, side: 'read' | 'write'): ConnectorError {
  if (e instanceof ConnectorError) return e;
  const who = side === 'read' ? 'Filesystem source' : 'Filesystem sink';
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  let what: string;
  switch (code) {
    case 'ENOENT':
      what =
        side === 'read'
          ? `the path '${path}' does not exist. Check the table's 'path' option (a relative path is resolved against the working directory).`
          : `the directory '${path}' does not exist and could not be created.`;
      break;
    case 'EACCES':
    case 'EPERM': {
      if (side === 'read') {
        what = `the path '${path}' cannot be read: permission denied.`;
        break;
      }
      const blocking = nearestExisting(path);
      what =
        blocking === path
          ? `the output directory '${path}' is read-only for this user (permission denied); choose a writable 'path' or change the directory's permissions.`
          : `cannot create the output directory '${path}': '${blocking}' is read-only for this user (permission denied); choose a writable 'path' or change the directory's permissions.`;
      break;
    }
    case 'EROFS':
      what = `the output directory '${path}' is on a read-only file system; choose a writable 'path'.`;
      break;
    case 'ENOTDIR':
    case 'EEXIST':
      what = `'${path}' or one of its parents is a file where a directory is needed.`;
      break;
    case 'ENOSPC':
    case 'EDQUOT':
      what = `no space left to write into '${path}'.`;
      break;
    default:
      what = `'${path}': ${(e as Error | undefined)?.message ?? String(e)}`;
  }
  // A translated error stands alone (the raw "EACCES: permission denied, open ..." adds nothing); the code
  // stays in the message for searching, and an unknown error keeps its cause.
  return code === undefined || what.includes((e as Error).message) ? new ConnectorError(`${who}: ${what}`, { cause: e }) : new ConnectorError(`${who}: ${what} (${code})`);
}

/** `path` itself or its deepest ancestor that exists: the directory a permission error is about. */
function nearestExisting(path: string): string {
  let p = path;
  while (!existsSync(p)) {
    const parent = dirname(p);
    if (parent === p) return path;
    p = parent;
  }
  return p;
}
