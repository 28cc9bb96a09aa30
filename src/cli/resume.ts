import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ValidationError } from '../errors/sluice-error.js';
import { findLatestCompletedCheckpoint } from '../runtime/checkpoint/checkpoint-storage.js';

/**
 * The newest complete checkpoint under `dir`, which is either one job's directory (holding `chk-N/`)
 * or a checkpoint root holding one directory per job id. A `chk-N` without `_metadata` never counts;
 * one whose files are torn is skipped with a warning.
 */
export async function newestCheckpoint(dir: string, warn: (message: string) => void): Promise<string> {
  const onSkipped = (path: string, reason: string): void =>
    warn(`Skipping checkpoint '${path}': ${reason} (it was torn by a crash or a full disk); trying an older one.`);
  const direct = await findLatestCompletedCheckpoint(dir, onSkipped).catch(() => undefined);
  if (direct) return direct;
  let best: { path: string; mtime: number } | undefined;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => {
    throw new ValidationError(`--resume: checkpoint directory '${dir}' does not exist.`);
  });
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const found = await findLatestCompletedCheckpoint(join(dir, e.name), onSkipped).catch(() => undefined);
    if (!found) continue;
    const mtime = (await stat(join(found, '_metadata'))).mtimeMs;
    if (!best || mtime > best.mtime) best = { path: found, mtime };
  }
  if (!best) throw new ValidationError(`--resume: no complete checkpoint (a chk-N directory with _metadata) found under '${dir}'.`);
  return best.path;
}
