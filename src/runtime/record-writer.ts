import type { Row } from '../types/row.js';
import type { OutputChannel, StreamElement } from './channel.js';
import { keyGroupOf, subtaskOfKeyGroup } from './key-groups.js';
import type { Partitioner } from './partitioner.js';

/**
 * Writes a task's output batches into the channels of one outgoing edge, split by the partitioner
 * (Flink's `RecordWriter` + `ChannelSelector`), once per batch.
 */
export class RecordWriter {
  private next = 0;

  /** `channels[i]` leads to consumer subtask i; `maxParallelism` is the job's number of key groups. */
  constructor(
    private readonly channels: readonly OutputChannel[],
    private readonly partitioner: Partitioner,
    private readonly maxParallelism: number,
  ) {}

  emit(rows: Row[]): void {
    const p = this.partitioner;
    const chs = this.channels;
    switch (p.kind) {
      case 'forward':
        chs[0]!.push({ kind: 'batch', rows });
        return;
      case 'rebalance':
        chs[this.next++ % chs.length]!.push({ kind: 'batch', rows });
        return;
      case 'broadcast':
        for (const c of chs) c.push({ kind: 'batch', rows });
        return;
      case 'hash': {
        const n = chs.length;
        if (n === 1) {
          chs[0]!.push({ kind: 'batch', rows });
          return;
        }
        const parts: Row[][] = [];
        for (let i = 0; i < n; i++) parts.push([]);
        const key = p.key;
        const maxP = this.maxParallelism;
        for (let i = 0; i < rows.length; i++) {
          const r = rows[i]!;
          parts[subtaskOfKeyGroup(keyGroupOf(key(r), maxP), maxP, n)]!.push(r);
        }
        for (let i = 0; i < n; i++) if (parts[i]!.length > 0) chs[i]!.push({ kind: 'batch', rows: parts[i]! });
        return;
      }
      default: {
        const never: never = p;
        throw new Error(`unknown partitioner ${String(never)}`);
      }
    }
  }

  /** Barriers, watermarks, idleness and end-of-partition go to every channel. */
  broadcastElement(e: StreamElement): void {
    for (const c of this.channels) c.push(e);
  }

  /** Undefined when every channel has space, else a promise for the first full one. */
  awaitSpace(): Promise<void> | undefined {
    for (const c of this.channels) if (!c.hasSpace()) return c.space();
    return undefined;
  }

  releaseAll(): void {
    for (const c of this.channels) c.releaseAll();
  }
}
