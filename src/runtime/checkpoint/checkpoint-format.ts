import { ExecutionError } from '../../errors/sluice-error.js';

/**
 * The `format` field of a checkpoint's `_metadata`: names the layout of the metadata record and of the
 * task files it lists (not the byte encoding of values, which docs/state-format.md versions separately).
 * A new name is introduced when that layout changes; every name ever written stays in READABLE.
 * v1: task files named only. v2: each task file's length and CRC-32, and the key groups
 * (`maxParallelism`) keyed state was split into (a v1 checkpoint's keyed state is regrouped on restore).
 * v3: state keyed by job-graph vertex instead of by task, so a change of chaining between runs does not
 * lose it (v1 and v2 are read by recovering the chaining they were written with: `toVertexLayout`).
 * v4: as v3, with deltas (incremental checkpoints) among the operator snapshots and `needs`, the earlier
 * checkpoints they build on; written only when a checkpoint holds a delta (a whole one stays v3, which
 * earlier releases read), so a release that cannot merge deltas refuses it instead of restoring one.
 * v5: as v4, with rows in flight (`TaskSnapshot.inFlight`, unaligned checkpoints); written only when a checkpoint
 * holds some, so a release that would drop them refuses it instead.
 */
export const CHECKPOINT_METADATA_FORMAT = 'sluice-checkpoint-v3';

/** The metadata format of a checkpoint holding deltas (see above). */
export const INCREMENTAL_METADATA_FORMAT = 'sluice-checkpoint-v4';

/** The metadata format of a checkpoint holding rows in flight (see above). */
export const IN_FLIGHT_METADATA_FORMAT = 'sluice-checkpoint-v5';

/** Metadata formats whose state is keyed by task (the id of a chain's first vertex). */
export const TASK_LAYOUT_FORMATS: readonly string[] = ['sluice-checkpoint-v1', 'sluice-checkpoint-v2'];

/** Metadata formats this release restores, oldest first. */
const READABLE: readonly string[] = [...new Set([...TASK_LAYOUT_FORMATS, CHECKPOINT_METADATA_FORMAT, INCREMENTAL_METADATA_FORMAT, IN_FLIGHT_METADATA_FORMAT])];

/**
 * Refuses a checkpoint or savepoint whose metadata format this release does not know, rather than
 * misreading it (a newer Sluice's savepoint, or a directory that is not a Sluice checkpoint).
 *
 * @param format the `format` field read from `_metadata`
 * @param path the checkpoint or savepoint directory, for the message
 * @throws ExecutionError naming the path and the format found
 */
export function checkMetadataFormat(format: unknown, path: string): void {
  if (typeof format === 'string' && READABLE.includes(format)) return;
  const found = typeof format === 'string' ? `format '${format}'` : format === undefined ? 'no format field' : `format ${String(format)}`;
  const newer = typeof format === 'string' && /^sluice-checkpoint-v\d+$/.test(format) ? ' It was probably written by a newer Sluice.' : '';
  throw new ExecutionError(
    `Cannot restore from '${path}': its _metadata has ${found}; this version of Sluice reads ${READABLE.map((f) => `'${f}'`).join(', ')}.${newer}`,
  );
}
