import { ExecutionError } from '../../errors/sluice-error.js';
import type { OperatorSnapshot } from '../operator-chain.js';
import { decodeState } from '../state/state-codec.js';
import type { CompletedCheckpoint, TaskSnapshot } from './completed-checkpoint.js';
import { snapshotBytes } from './spilled-snapshot.js';

/**
 * State a checkpoint holds for a job-graph vertex the restoring job does not have (Flink: state of an
 * operator "not available in the new program"). Restoring without it would silently start that part of
 * the query from nothing, so by default the restore is refused; with
 * `execution.state-recovery.ignore-unclaimed-state` (Flink's `--allowNonRestoredState`) it is dropped
 * with a warning. A vertex whose snapshots hold nothing (a stateless operator, a finished subtask) is
 * dropped without a word, as Flink skips empty operator state.
 *
 * Vertex ids are positional (docs/state-format.md), so an edited query may have a vertex of the same id
 * that is another operator. Where its shape shows it (fewer operators than the checkpointed vertex had,
 * reader splits for a vertex that is no source, writer state or committables for one that is no sink), the
 * state it cannot take is unclaimed too; a vertex of the same shape takes the state, as Flink's operator
 * with the same id would.
 */
export interface UnclaimedVertex {
  readonly vertexId: string;
  /** The vertex's operator description when the checkpoint recorded it (format v3 onwards). */
  readonly name: string | undefined;
  /** What of it the checkpoint holds, e.g. `keyed state`, `reader splits`, `2 committable(s)`. */
  readonly kinds: readonly string[];
  /** The vertex of that id in the restoring job, which cannot take the state, if it has one. */
  readonly other: string | undefined;
}

/** What a vertex of the restoring job can take from a checkpoint. */
export interface ClaimingVertex {
  readonly kind: 'source' | 'operator' | 'sink';
  /** The vertex's own (chained) operators, whose states it restores by position. */
  readonly operators: number;
  readonly name: string;
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
  const other = u.other === undefined ? '' : `; this job's ${u.vertexId} is '${u.other}'`;
  return `operator ${u.vertexId}${u.name === undefined ? '' : ` '${u.name}'`} (${u.kinds.join(', ')}${other})`;
}

function describeAll(unclaimed: readonly UnclaimedVertex[]): string {
  return unclaimed.map(describeOne).join('; ');
}

/**
 * The non-empty state a checkpoint holds that no vertex of the restoring job takes, per vertex id.
 * `job`: the restoring job's vertices by id.
 */
export function findUnclaimedState(cp: CompletedCheckpoint, job: ReadonlyMap<string, ClaimingVertex>): UnclaimedVertex[] {
  const ids = new Set<string>([...cp.parallelism.keys(), ...cp.enumerators.keys(), ...cp.committables.map((c) => c.sinkId)]);
  const out: UnclaimedVertex[] = [];
  for (const id of ids) {
    const v = job.get(id);
    const kinds = new Set<string>();
    for (let i = 0; i < (cp.parallelism.get(id) ?? 0); i++) {
      const s = cp.vertices.get(`${id}#${i}`);
      if (s !== undefined) for (const k of unclaimedKinds(s, v)) kinds.add(k);
    }
    if (cp.enumerators.has(id) && v?.kind !== 'source') kinds.add('split enumerator');
    const committables = v?.kind === 'sink' ? 0 : cp.committables.filter((c) => c.sinkId === id).length;
    if (committables > 0) kinds.add(`${committables} committable(s)`);
    if (kinds.size > 0) out.push({ vertexId: id, name: cp.vertexNames?.get(id), kinds: [...kinds], other: v?.name });
  }
  return out.sort((a, b) => a.vertexId.localeCompare(b.vertexId, undefined, { numeric: true }));
}

/** The kinds of state in one subtask's part of a vertex that `v` (undefined: no such vertex) cannot take. */
function unclaimedKinds(s: TaskSnapshot, v: ClaimingVertex | undefined): string[] {
  const kinds: string[] = [];
  if ((s.splits?.length ?? 0) > 0 && v?.kind !== 'source') kinds.push('reader splits');
  if ((s.writerState?.length ?? 0) > 0 && v?.kind !== 'sink') kinds.push('sink writer state');
  if (s.inFlight !== undefined && (v === undefined || v.kind === 'source')) kinds.push('rows in flight (unaligned checkpoint)');
  s.operators.forEach((bytes, k) => {
    if (k >= (v?.operators ?? 0)) kinds.push(...operatorKinds(snapshotBytes(bytes)));
  });
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
  if ([...(o.keyed?.states ?? [])].some((st) => size(st.entries) > 0)) kinds.push('keyed state');
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
  job: ReadonlyMap<string, ClaimingVertex>,
  options: { readonly path: string; readonly ignoreUnclaimed: boolean; readonly warn: (message: string) => void },
): CompletedCheckpoint {
  const unclaimed = findUnclaimedState(cp, job);
  if (unclaimed.length === 0) return cp;
  if (!options.ignoreUnclaimed) throw new UnclaimedStateError(options.path, unclaimed);
  options.warn(
    `Skipping the state of checkpoint/savepoint '${options.path}' for ${describeAll(unclaimed)}: no operator of the job can take it, and 'execution.state-recovery.ignore-unclaimed-state' is true.`,
  );
  // Keep of each vertex only what the job's vertex of that id can take.
  const takes = (id: string, kind: ClaimingVertex['kind']): boolean => job.get(id)?.kind === kind;
  const vertices = new Map<string, TaskSnapshot>();
  for (const [key, s] of cp.vertices) {
    const id = key.slice(0, key.lastIndexOf('#'));
    const v = job.get(id);
    if (v === undefined) continue;
    const kept: TaskSnapshot = {
      finished: s.finished,
      splits: v.kind === 'source' ? s.splits : undefined,
      operators: s.operators.slice(0, v.operators),
      writerState: v.kind === 'sink' ? s.writerState : undefined,
    };
    vertices.set(key, s.inFlight !== undefined && v.kind !== 'source' ? { ...kept, inFlight: s.inFlight } : kept);
  }
  return {
    ...cp,
    vertices,
    enumerators: new Map([...cp.enumerators].filter(([id]) => takes(id, 'source'))),
    committables: cp.committables.filter((c) => takes(c.sinkId, 'sink')),
  };
}

/** The vertices of a job as `claimState` needs them: kind and name from the job graph, operator counts from its chains. */
export function claimingVertices(
  vertices: readonly { readonly id: string; readonly kind: ClaimingVertex['kind']; readonly name: string }[],
  chains: readonly (readonly { readonly id: string; readonly operators: number }[])[],
): Map<string, ClaimingVertex> {
  const operators = new Map(chains.flatMap((c) => c.map((v) => [v.id, v.operators] as [string, number])));
  return new Map(vertices.map((v) => [v.id, { kind: v.kind, name: v.name, operators: operators.get(v.id) ?? 0 }]));
}
