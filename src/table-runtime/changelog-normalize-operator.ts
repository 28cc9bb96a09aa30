import type { ValueState } from '../runtime/state/state.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { fieldsEqual, hashFields, valuesEqual } from '../types/values/equality.js';

export interface ChangelogNormalizeSpec {
  /** The primary key's positions in the row. */
  readonly keys: readonly number[];
  /** Emit -U before +U (false when every consumer takes updates by key). */
  readonly generateUpdateBefore: boolean;
  /**
   * `table.exec.state.ttl` in ms; 0 keeps rows forever. With a TTL an identical repeat of the last row is
   * still emitted (as Flink does), so downstream state that expires on the same clock is refreshed.
   */
  readonly stateTtlMs: number;
}

/**
 * Flink's ChangelogNormalize (ProcTimeDeduplicateKeepLastRowFunction over a changelog): turns an upsert
 * stream (+I/+U by key without -U; a delete may carry only the key, like a Kafka tombstone) into a regular
 * changelog. Keeps the last row per key in keyed state and emits:
 * - +I for the first row of a key, -U last / +U new for a later one (nothing for an identical repeat
 *   when no state TTL is set);
 * - -D with the full last row for a delete (or -U) of a known key; nothing for an unknown key.
 *
 * Keyed like the other keyed operators by `hashFields` of the key; keys colliding on the hash share one
 * state slot and are told apart with `valuesEqual`. State keeps the input's arrays; output rows are copies,
 * since a chained consumer may reuse the arrays it is given.
 */
export class ChangelogNormalizeOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private state!: ValueState<unknown[][]>;

  constructor(private readonly spec: ChangelogNormalizeSpec) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    const ttlMs = this.spec.stateTtlMs;
    this.state = ctx.keyedState.getState<unknown[][]>(ttlMs > 0 ? { name: 'last-rows', ttlMs } : 'last-rows');
  }

  processBatch(rows: Row[]): void {
    const out: Row[] = [];
    const ks = this.ctx.keyedState;
    const keys = this.spec.keys;
    const dedupe = this.spec.stateTtlMs <= 0;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      const f = row.fields;
      ks.setCurrentKey(hashFields(f, keys));
      const slot = this.state.value();
      const i = slot === undefined ? -1 : indexOfKey(slot, f, keys);
      const last = i < 0 ? undefined : slot![i]!;
      if (row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER) {
        if (last === undefined) {
          out.push(new Row(RowKind.INSERT, f.slice()));
          this.state.update(slot === undefined ? [f] : [...slot, f]);
          continue;
        }
        if (dedupe && fieldsEqual(last, f)) continue;
        if (this.spec.generateUpdateBefore) out.push(new Row(RowKind.UPDATE_BEFORE, last.slice()));
        out.push(new Row(RowKind.UPDATE_AFTER, f.slice()));
        const next = slot!.slice();
        next[i] = f;
        this.state.update(next);
      } else {
        // -D or -U: the row is gone, whatever follows; emit the stored full row (the input may hold only the key).
        if (last === undefined) continue;
        out.push(new Row(RowKind.DELETE, last.slice()));
        if (slot!.length === 1) this.state.clear();
        else this.state.update(slot!.filter((_, j) => j !== i));
      }
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

function indexOfKey(slot: readonly (readonly unknown[])[], f: readonly unknown[], keys: readonly number[]): number {
  outer: for (let s = 0; s < slot.length; s++) {
    const row = slot[s]!;
    for (let k = 0; k < keys.length; k++) if (!valuesEqual(row[keys[k]!], f[keys[k]!])) continue outer;
    return s;
  }
  return -1;
}


export function changelogNormalizeFactory(name: string, spec: ChangelogNormalizeSpec): OperatorFactory {
  return { name, create: () => new ChangelogNormalizeOperator(spec) };
}
