import type { OperatorContext, OperatorFactory } from '../../../src/runtime/index.js';
import { Row } from '../../../src/types/row.js';

/**
 * Counts and sums numbers per key `n % keys` in keyed state (an accumulator mutated in place, as the
 * aggregates do), registers an event-time timer per key, and emits `key:count:sum` per key when the timers
 * fire at end of input (watermark +inf), once per key that reached the subtask with its state. With
 * `passThrough` it also passes every number on as text, so a sink behind it has committables at every
 * checkpoint.
 */
export function keyedCounter(keys: number, options: { readonly passThrough?: boolean } = {}): OperatorFactory {
  return {
    name: 'count',
    create() {
      let ctx!: OperatorContext;
      return {
        open(c) {
          ctx = c;
        },
        processBatch(rows) {
          const acc = ctx.keyedState.getState<{ count: number; sum: number }>('acc');
          for (const r of rows) {
            const n = r.fields[0] as number;
            ctx.keyedState.setCurrentKey(n % keys);
            let a = acc.value();
            if (a === undefined) {
              acc.update((a = { count: 0, sum: 0 }));
              ctx.timerService.registerEventTimeTimer(1e15);
            }
            a.count++;
            a.sum += n;
          }
          if (options.passThrough === true) ctx.output.collect(rows.map((r) => Row.insert(String(r.fields[0]))));
        },
        processWatermark() {},
        onTimer(t) {
          const a = ctx.keyedState.getState<{ count: number; sum: number }>('acc').value()!;
          ctx.output.collect([Row.insert(`${String(t.key)}:${a.count}:${a.sum}`)]);
        },
      };
    },
  };
}
