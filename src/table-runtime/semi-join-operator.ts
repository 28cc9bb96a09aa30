import type { ValueState } from '../runtime/state/state.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields, valuesEqual } from '../types/values/equality.js';

interface Entry {
  readonly fields: unknown[];
  matches: number;
}

export interface SemiJoinSpec {
  /** SEMI: left rows with a match (IN / EXISTS); ANTI: left rows without (NOT IN / NOT EXISTS). */
  readonly kind: 'SEMI' | 'ANTI';
  readonly leftKeys: readonly number[];
  readonly rightKeys: readonly number[];
  readonly mode: 'streaming' | 'batch';
}

/**
 * Semi and anti joins (uncorrelated IN / EXISTS subqueries). Emits left rows only. Streaming: both sides
 * in keyed state; a left row is emitted (+I) or retracted (-D) whenever its match count crosses zero.
 * Batch: buffers and decides at end of input. Input 0 is the left side.
 */
export class SemiJoinOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private left!: ValueState<Entry[]>;
  private right!: ValueState<unknown[][]>;
  private readonly buffered: [Row[], Row[]] = [[], []];

  constructor(private readonly spec: SemiJoinSpec) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.left = ctx.keyedState.getState<Entry[]>('left');
    this.right = ctx.keyedState.getState<unknown[][]>('right');
  }

  processBatch(rows: Row[], inputIndex: number): void {
    if (this.spec.mode === 'batch') {
      this.buffered[inputIndex === 0 ? 0 : 1].push(...rows);
      return;
    }
    const out: Row[] = [];
    const semi = this.spec.kind === 'SEMI';
    const { leftKeys, rightKeys } = this.spec;
    const ks = this.ctx.keyedState;
    for (const row of rows) {
      const f = row.fields;
      const add = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER;
      if (inputIndex === 0) {
        ks.setCurrentKey(hashFields(f, leftKeys));
        const matches = (this.right.value() ?? []).filter((r) => keysEqual(f, leftKeys, r, rightKeys)).length;
        const list = this.left.value() ?? [];
        if (add) {
          list.push({ fields: f, matches });
          this.left.update(list);
        } else {
          const i = list.findIndex((e) => e.fields.every((v, j) => valuesEqual(v, f[j])));
          if (i < 0) continue;
          list.splice(i, 1);
          if (list.length === 0) this.left.clear();
          else this.left.update(list);
        }
        if (matches > 0 === semi) out.push(new Row(add ? RowKind.INSERT : RowKind.DELETE, f.slice()));
        continue;
      }
      ks.setCurrentKey(hashFields(f, rightKeys));
      const rights = this.right.value() ?? [];
      if (add) rights.push(f);
      else {
        const i = rights.findIndex((r) => r.every((v, j) => valuesEqual(v, f[j])));
        if (i < 0) continue;
        rights.splice(i, 1);
      }
      if (rights.length === 0) this.right.clear();
      else this.right.update(rights);
      for (const e of this.left.value() ?? []) {
        if (!keysEqual(e.fields, leftKeys, f, rightKeys)) continue;
        const before = e.matches;
        e.matches += add ? 1 : -1;
        if (before === 0 && e.matches === 1) out.push(new Row(semi ? RowKind.INSERT : RowKind.DELETE, e.fields.slice()));
        else if (before === 1 && e.matches === 0) out.push(new Row(semi ? RowKind.DELETE : RowKind.INSERT, e.fields.slice()));
      }
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  finish(): void {
    if (this.spec.mode !== 'batch') return;
    const [l, r] = this.buffered;
    const { leftKeys, rightKeys } = this.spec;
    const index = new Map<number, unknown[][]>();
    for (const row of r) {
      const h = hashFields(row.fields, rightKeys);
      const b = index.get(h);
      if (b === undefined) index.set(h, [row.fields]);
      else b.push(row.fields);
    }
    const out: Row[] = [];
    for (const row of l) {
      const has = (index.get(hashFields(row.fields, leftKeys)) ?? []).some((x) => keysEqual(row.fields, leftKeys, x, rightKeys));
      if (has === (this.spec.kind === 'SEMI')) out.push(new Row(RowKind.INSERT, row.fields));
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

function keysEqual(a: readonly unknown[], ak: readonly number[], b: readonly unknown[], bk: readonly number[]): boolean {
  for (let i = 0; i < ak.length; i++) {
    const x = a[ak[i]!];
    if (x === null || !valuesEqual(x, b[bk[i]!])) return false;
  }
  return true;
}

export function semiJoinFactory(name: string, spec: SemiJoinSpec): OperatorFactory {
  return { name, create: () => new SemiJoinOperator(spec) };
}
