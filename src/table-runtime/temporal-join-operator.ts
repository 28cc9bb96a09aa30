import type { ValueState } from '../runtime/state/state.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields, valuesEqual } from '../types/values/equality.js';
import type { FieldsFunction } from './calc-operator.js';

export interface TemporalJoinSpec {
  readonly joinType: 'INNER' | 'LEFT';
  readonly leftKeys: readonly number[];
  readonly rightKeys: readonly number[];
  readonly leftArity: number;
  readonly rightArity: number;
  /** The left row's time attribute (FOR SYSTEM_TIME AS OF) and the versioned table's rowtime. */
  readonly leftTime: number;
  readonly rightTime: number;
  /** The rest of the ON clause over the joined row, or null. */
  readonly condition: FieldsFunction | null;
}

/** One version of a versioned row: valid from `time`; `fields` null after a delete. */
interface Version {
  readonly time: number;
  readonly fields: unknown[] | null;
}

/** The state of one key hash: versions per distinct key, and left rows waiting for the watermark. */
interface KeyState {
  readonly versions: { key: unknown[]; list: Version[] }[];
  readonly pending: unknown[][];
}

/**
 * Event-time temporal join (`JOIN versioned FOR SYSTEM_TIME AS OF l.rowtime ON l.k = v.pk`, Flink's
 * TemporalRowTimeJoinOperator). The right side is a changelog of versions keyed by the primary key; a left
 * row waits until the watermark reaches its time, then joins the version valid at that time (the latest
 * version with time <= the row's time that is not a delete). Emits +I only. Versions older than the one
 * valid at the watermark are dropped. Input 0 is the left side.
 */
export class TemporalJoinOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private state!: ValueState<KeyState>;
  /** Key hashes with waiting left rows (rebuilt from state on restore). */
  private readonly waiting = new Set<number>();

  constructor(private readonly spec: TemporalJoinSpec) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.state = ctx.keyedState.getState<KeyState>('temporal');
    for (const k of ctx.keyedState.keys('temporal')) {
      ctx.keyedState.setCurrentKey(k);
      if ((this.state.value()?.pending.length ?? 0) > 0) this.waiting.add(k as number);
    }
  }

  processBatch(rows: Row[], inputIndex: number): void {
    const ks = this.ctx.keyedState;
    const s = this.spec;
    for (const row of rows) {
      const f = row.fields;
      const h = hashFields(f, inputIndex === 0 ? s.leftKeys : s.rightKeys);
      ks.setCurrentKey(h);
      const st = this.state.value() ?? { versions: [], pending: [] };
      if (inputIndex === 0) {
        if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) continue; // left side is append-only
        st.pending.push(f);
        this.waiting.add(h);
      } else {
        if (row.kind === RowKind.UPDATE_BEFORE) continue; // the +U that follows is the new version
        const time = f[s.rightTime] as number;
        let entry = st.versions.find((v) => s.rightKeys.every((k, i) => valuesEqual(v.key[i], f[k])));
        if (entry === undefined) {
          entry = { key: s.rightKeys.map((k) => f[k]), list: [] };
          st.versions.push(entry);
        }
        const v: Version = { time, fields: row.kind === RowKind.DELETE ? null : f };
        let i = entry.list.length;
        while (i > 0 && entry.list[i - 1]!.time > time) i--;
        entry.list.splice(i, 0, v);
      }
      this.state.update(st);
    }
  }

  processWatermark(watermark: number): void {
    this.emitUpTo(watermark);
    this.ctx.output.emitWatermark(watermark);
  }

  finish(): void {
    this.emitUpTo(Number.POSITIVE_INFINITY);
  }

  private emitUpTo(watermark: number): void {
    const ks = this.ctx.keyedState;
    const s = this.spec;
    const out: Row[] = [];
    for (const h of [...this.waiting]) {
      ks.setCurrentKey(h);
      const st = this.state.value();
      if (st === undefined) {
        this.waiting.delete(h);
        continue;
      }
      const keep: unknown[][] = [];
      const due = st.pending.filter((l) => {
        const t = l[s.leftTime] as number | null;
        if (t !== null && t > watermark) {
          keep.push(l);
          return false;
        }
        return true;
      });
      due.sort((a, b) => (a[s.leftTime] as number) - (b[s.leftTime] as number));
      for (const l of due) {
        const t = l[s.leftTime] as number | null;
        const entry = st.versions.find((v) => s.leftKeys.every((k, i) => v.key[i] !== null && valuesEqual(v.key[i], l[k])));
        let version: unknown[] | null = null;
        if (entry !== undefined && t !== null) {
          for (let i = entry.list.length - 1; i >= 0; i--) {
            if (entry.list[i]!.time <= t) {
              version = entry.list[i]!.fields;
              break;
            }
          }
        }
        let joined: unknown[] | null = null;
        if (version !== null) {
          joined = [...l, ...version];
          if (s.condition !== null && s.condition(joined) !== true) joined = null;
        }
        if (joined !== null) out.push(new Row(RowKind.INSERT, joined));
        else if (s.joinType === 'LEFT') out.push(new Row(RowKind.INSERT, [...l, ...new Array<unknown>(s.rightArity).fill(null)]));
      }
      // Versions before the one valid at the watermark can no longer be read by a future left row.
      for (const e of st.versions) {
        let valid = -1;
        for (let i = 0; i < e.list.length; i++) if (e.list[i]!.time <= watermark) valid = i;
        if (valid > 0) e.list.splice(0, valid);
      }
      const versions = st.versions.filter((e) => !(e.list.length === 1 && e.list[0]!.fields === null && e.list[0]!.time <= watermark));
      if (keep.length === 0) this.waiting.delete(h);
      if (keep.length === 0 && versions.length === 0) this.state.clear();
      else this.state.update({ versions, pending: keep });
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

export function temporalJoinFactory(name: string, spec: TemporalJoinSpec): OperatorFactory {
  return { name, create: () => new TemporalJoinOperator(spec) };
}
