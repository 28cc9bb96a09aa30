import type { OperatorFactory } from '../../../src/runtime/index.js';

/** An operator that logs every row as `input:value`, every snapshot as `snap<id>`, and watermarks as `wm:<ms>` when asked. */
export function recorder(log: string[], { watermarks = true } = {}): OperatorFactory {
  return {
    name: 'rec',
    create: () => ({
      open() {},
      processBatch(rows, input) {
        for (const r of rows) log.push(`${input}:${String(r.fields[0])}`);
      },
      processWatermark(wm) {
        if (watermarks) log.push(`wm:${wm}`);
      },
      snapshotState(id) {
        log.push(`snap${id}`);
        return undefined;
      },
    }),
  };
}
