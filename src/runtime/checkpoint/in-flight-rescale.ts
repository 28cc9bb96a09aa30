import type { Row } from '../../types/row.js';
import { keyGroupOf, subtaskOfKeyGroup } from '../key-groups.js';
import type { Partitioner } from '../partitioner.js';
import { decodeInFlight, encodeInFlight, type InputRows } from './in-flight-rows.js';

/**
 * The rows in flight of the old subtasks of one task (each as `TaskSnapshot.inFlight`), shared out over
 * `parallelism` new subtasks, encoded per subtask (undefined: none for it); or why they cannot be.
 *
 * A row of a keyed input goes to the subtask that owns its key group now, so it meets its key's restored state;
 * rows of one key stay in the order they were taken. A row of an input partitioned by `forward` or `rebalance`
 * belongs to no key: batches go round robin, as a rebalancing producer sends them. A broadcast input's rows
 * cannot be shared out: each old subtask kept its own stretch of the same broadcast stream, and no new subtask
 * could be given exactly the rows it missed.
 */
export function redistributeInFlight(
  old: readonly Uint8Array[],
  inputs: ReadonlyMap<number, readonly Partitioner[]>,
  parallelism: number,
  maxParallelism: number,
): (Uint8Array | undefined)[] | string {
  const out: InputRows[][] = Array.from({ length: parallelism }, () => []);
  let next = 0;
  for (const data of old) {
    for (const batch of decodeInFlight(data)) {
      const ps = inputs.get(batch.inputIndex) ?? [];
      if (ps.some((p) => p.kind === 'broadcast')) return `input ${batch.inputIndex} is broadcast, whose rows in flight cannot be shared out anew`;
      const hash = ps.find((p) => p.kind === 'hash');
      if (hash === undefined) {
        out[next++ % parallelism]!.push(batch);
        continue;
      }
      const parts: Row[][] = Array.from({ length: parallelism }, () => []);
      for (const r of batch.rows) parts[subtaskOfKeyGroup(keyGroupOf(hash.key(r), maxParallelism), maxParallelism, parallelism)]!.push(r);
      parts.forEach((rows, i) => {
        if (rows.length > 0) out[i]!.push({ inputIndex: batch.inputIndex, rows });
      });
    }
  }
  return out.map((batches) => (batches.length === 0 ? undefined : encodeInFlight(batches)));
}
