import type { ValueState } from '../runtime/state/state.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields, valuesEqual } from '../types/values/equality.js';

/** One distinct row and how often each side holds it. */
interface Counted {
  readonly fields: unknown[];
  left: number;
  right: number;
}

/**
 * INTERSECT ALL (a row appears min(left, right) times) and EXCEPT ALL (max(left - right, 0) times), with
 * rows compared as IS NOT DISTINCT FROM. Keyed by the hash of the whole row. Streaming: after each input
 * row, emits +I or -D copies for the change of the row's output multiplicity. Batch: emits at end of input.
 * Input 0 is the left side.
 */
export class SetOpAllOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private state!: ValueState<Counted[]>;
  private readonly all: number[];

  constructor(
    private readonly op: 'INTERSECT' | 'EXCEPT',
    arity: number,
    private readonly mode: 'streaming' | 'batch',
  ) {
    this.all = Array.from({ length: arity }, (_, i) => i);
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.state = ctx.keyedState.getState<Counted[]>('set-op');
  }

  private multiplicity(c: Counted): number {
    return this.op === 'INTERSECT' ? Math.min(c.left, c.right) : Math.max(c.left - c.right, 0);
  }

  processBatch(rows: Row[], inputIndex: number): void {
    const ks = this.ctx.keyedState;
    const out: Row[] = [];
    const streaming = this.mode === 'streaming';
    for (const row of rows) {
      const f = row.fields;
      const delta = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER ? 1 : -1;
      ks.setCurrentKey(hashFields(f, this.all));
      const list = this.state.value() ?? [];
      let c = list.find((x) => x.fields.every((v, i) => valuesEqual(v, f[i])));
      if (c === undefined) {
        if (delta < 0) continue;
        c = { fields: f.slice(), left: 0, right: 0 };
        list.push(c);
      }
      const before = this.multiplicity(c);
      if (inputIndex === 0) c.left = Math.max(0, c.left + delta);
      else c.right = Math.max(0, c.right + delta);
      const after = this.multiplicity(c);
      if (c.left === 0 && c.right === 0) list.splice(list.indexOf(c), 1);
      if (list.length === 0) this.state.clear();
      else this.state.update(list);
      if (!streaming) continue;
      for (let i = before; i < after; i++) out.push(new Row(RowKind.INSERT, c.fields.slice()));
      for (let i = after; i < before; i++) out.push(new Row(RowKind.DELETE, c.fields.slice()));
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  finish(): void {
    if (this.mode !== 'batch') return;
    const ks = this.ctx.keyedState;
    const out: Row[] = [];
    for (const k of [...ks.keys('set-op')]) {
      ks.setCurrentKey(k);
      for (const c of this.state.value() ?? []) for (let i = this.multiplicity(c); i > 0; i--) out.push(new Row(RowKind.INSERT, c.fields.slice()));
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

export function setOpAllFactory(name: string, op: 'INTERSECT' | 'EXCEPT', arity: number, mode: 'streaming' | 'batch'): OperatorFactory {
  return { name, create: () => new SetOpAllOperator(op, arity, mode) };
}
