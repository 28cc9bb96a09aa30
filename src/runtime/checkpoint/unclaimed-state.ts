import { ExecutionError } from '../../errors/sluice-error.js';
import type { OperatorSnapshot } from '../operator-chain.js';
import { decodeState } from '../state/state-codec.js';
import type { CompletedCheckpoint, TaskSnapshot } from './completed-checkpoint.js';

/**
 * State a checkpoint holds for a job-graph vertex the restoring job does not have (Flink: state of an
 * operator "not available in the new program"). Restoring without it would silently start that part of
 * the query from nothing, so by default the restore is refused; with
 * `execution.state-recovery.ignore-unclaimed-state` (Flink's `--allowNonRestoredState`) it is dropped
 * with a warning. A vertex whose snapshots hold nothing (a stateless operator, a finished subtask) is
 * dropped without a word, as Flink skips empty operator state.
 */
export interface UnclaimedVertex {
  readonly vertexId: string;
  /** The vertex's operator description when the checkpoint recorded it (format v3 onwards). */
  readonly name: string | undefined;
  /** What of it the checkpoint holds, e.g. `keyed state`, `reader splits`, `2 committable(s)`. */
  readonly kinds: readonly string[];
}

/** Refusal of a restore whose checkpoint holds state no vertex of the job claims. Not worth a restart. */
export class UnclaimedStateError extends ExecutionError {
  constructor(readonly path: string, readonly unclaimed: readonly UnclaimedVertex[]) {
    super(
      `Failed to rollback to checkpoint/savepoint '${path}'. Cannot map checkpoint/savepoint state for ${describeAll(unclaimed)} to the new program, because ${unclaimed.length === 1 ? 'the operator is' : 'the operators are'} not available in the new program ` +
        '(the query, or how it is planned, changed since the checkpoint was taken). ' +
        "If you want to allow to skip this, set 'execution.state-recovery.ignore-unclaimed-state' = 'true' (SET, or -D on the command line): that state is then dropped.",
    );
  }
}

function describeOne(u: UnclaimedVertex): string {
  return `operator ${u.vertexId}${u.name === undefined ? '' : ` '${u.name}'`} (${u.kinds.join(', ')})`;
}

function describeAll(unclaimed: readonly UnclaimedVertex[]): string {
  return unclaimed.map(describeOne).join('; ');
}

/** The vertices a checkpoint holds non-empty state of that are not in `claimed` (the job's vertex ids). */
export function findUnclaimedState(cp: CompletedCheckpoint, claimed: ReadonlySet<string>): UnclaimedVertex[] {
  const ids = new Set<string>([...cp.parallelism.keys(), ...cp.enumerators.keys(), ...cp.committables.map((c) => c.sinkId)]);
  const out: UnclaimedVertex[] = [];
  for (const id of ids) {
    if (claimed.has(id)) continue;
    const kinds = new Set<string>();
    for (let i = 0; i < (cp.parallelism.get(id) ?? 0); i++) {
      const s = cp.vertices.get(`${id}#${i}`);
      if (s !== undefined) for (const k of snapshotKinds(s)) kinds.add(k);
    }
    if (cp.enumerators.has(id)) kinds.add('split enumerator');
    const committables = cp.committables.filter((c) => c.sinkId === id).length;
    if (committables > 0) kinds.add(`${committables} committable(s)`);
    if (kinds.size > 0) out.push({ vertexId: id, name: cp.vertexNames?.get(id), kinds: [...kinds] });
  }
  return out.sort((a, b) => a.vertexId.localeCompare(b.vertexId, undefined, { numeric: true }));
}

/** What kinds of state one subtask's part of a vertex holds; empty when it holds none. */
function snapshotKinds(s: TaskSnapshot): string[] {
  const kinds: string[] = [];
  if ((s.splits?.length ?? 0) > 0) kinds.push('reader splits');
  if ((s.writerState?.length ?? 0) > 0) kinds.push('sink writer state');
  for (const bytes of s.operators) kinds.push(...operatorKinds(bytes));
  return kinds;
}

function operatorKinds(bytes: Uint8Array): string[] {
  let o: Partial<OperatorSnapshot>;
  try {
    o = decodeState(bytes) as Partial<OperatorSnapshot>;
  } catch {
    // Bytes this release cannot read are still state someone would lose.
    return ['operator state'];
  }
  const kinds: string[] = [];
  const size = (e: unknown): number => (e instanceof Map ? e.size : Array.isArray(e) ? e.length : 0);
  if ((o.keyed?.states ?? []).some((st) => size(st.entries) > 0)) kinds.push('keyed state');
  if ((o.timers?.eventTime.length ?? 0) + (o.timers?.processingTime.length ?? 0) > 0) kinds.push('timers');
  if ((o.operatorState ?? []).some(([, list]) => list.length > 0)) kinds.push('operator state');
  if (o.raw !== undefined && o.raw !== null) kinds.push('operator snapshot');
  return kinds;
}

/**
 * Checks a checkpoint about to be restored into a job with vertices `claimed`. Returns the checkpoint to
 * restore: as it is when every state is claimed, or without the unclaimed vertices' state when
 * `ignoreUnclaimed` (after `warn` lists them).
 *
 * @throws UnclaimedStateError naming the path, each unclaimed vertex and the option, unless `ignoreUnclaimed`
 */
export function claimState(
  cp: CompletedCheckpoint,
  claimed: ReadonlySet<string>,
  options: { readonly path: string; readonly ignoreUnclaimed: boolean; readonly warn: (message: string) => void },
): CompletedCheckpoint {
  const unclaimed = findUnclaimedState(cp, claimed);
  if (unclaimed.length === 0) return cp;
  if (!options.ignoreUnclaimed) throw new UnclaimedStateError(options.path, unclaimed);
  options.warn(
    `Skipping the state of checkpoint/savepoint '${options.path}' for ${describeAll(unclaimed)}: the job has no such operator, and 'execution.state-recovery.ignore-unclaimed-state' is true.`,
  );
  const gone = new Set(unclaimed.map((u) => u.vertexId));
  return {
    ...cp,
    enumerators: new Map([...cp.enumerators].filter(([id]) => !gone.has(id))),
    committables: cp.committables.filter((c) => !gone.has(c.sinkId)),
  };
}
