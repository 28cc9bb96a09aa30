import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';

/** TUMBLE / HOP / CUMULATE in milliseconds (the planner's WindowSpec). */
export type WindowAssignment =
  | { readonly kind: 'TUMBLE'; readonly size: number; readonly offset: number }
  | { readonly kind: 'HOP'; readonly slide: number; readonly size: number; readonly offset: number }
  | { readonly kind: 'CUMULATE'; readonly step: number; readonly size: number; readonly offset: number }
  | { readonly kind: 'SESSION'; readonly gap: number; readonly offset: number };

/** Start of the window of length `size` (aligned at `offset`) containing `ts`; works for negative times. */
export function windowStart(ts: number, size: number, offset: number): number {
  const rem = (((ts - offset) % size) + size) % size;
  return ts - rem;
}

/** The [start, end) windows `ts` belongs to, ascending by start then end. */
export function assignWindows(ts: number, w: WindowAssignment): [number, number][] {
  switch (w.kind) {
    case 'TUMBLE': {
      const s = windowStart(ts, w.size, w.offset);
      return [[s, s + w.size]];
    }
    case 'HOP': {
      const out: [number, number][] = [];
      const last = windowStart(ts, w.slide, w.offset);
      for (let s = last; s > ts - w.size; s -= w.slide) out.push([s, s + w.size]);
      return out.reverse();
    }
    case 'SESSION':
      // A proto-session of the row alone; the session window aggregate merges them.
      return [[ts, ts + w.gap]];
    case 'CUMULATE': {
      const out: [number, number][] = [];
      const s = windowStart(ts, w.size, w.offset);
      for (let e = s + w.step; e <= s + w.size; e += w.step) if (ts < e) out.push([s, e]);
      return out;
    }
    default: {
      const never: never = w;
      return never;
    }
  }
}

/**
 * The window TVF: appends window_start, window_end and window_time (end - 1 ms) to each row, once per
 * window the row's time falls in. Rows with a NULL time are dropped (as Flink). Stateless; chained.
 */
export class WindowAssignerOperator implements StreamOperator {
  private ctx!: OperatorContext;

  constructor(
    private readonly timeIndex: number,
    private readonly window: WindowAssignment,
  ) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
  }

  processBatch(rows: Row[]): void {
    const out: Row[] = [];
    for (const row of rows) {
      const ts = row.fields[this.timeIndex];
      if (ts === null || ts === undefined) continue;
      const f = row.fields;
      const n = f.length;
      for (const [s, e] of assignWindows(ts as number, this.window)) {
        const fields = new Array<unknown>(n + 3);
        for (let i = 0; i < n; i++) fields[i] = f[i];
        fields[n] = s;
        fields[n + 1] = e;
        fields[n + 2] = e - 1;
        out.push(new Row(row.kind, fields));
      }
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

export function windowAssignerFactory(name: string, timeIndex: number, window: WindowAssignment): OperatorFactory {
  return { name, create: () => new WindowAssignerOperator(timeIndex, window) };
}
