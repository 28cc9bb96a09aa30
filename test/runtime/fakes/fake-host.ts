import { defaultRuntimeConfig, type RuntimeConfig } from '../../../src/runtime/index.js';
import type { TaskHost, TaskVertex } from '../../../src/runtime/task-host.js';
import type { SerializedValue, TaskSnapshot } from '../../../src/runtime/checkpoint/completed-checkpoint.js';
import type { OperatorFactory } from '../../../src/runtime/index.js';

/** A TaskHost that records acknowledgements instead of coordinating a job. */
export class FakeHost implements TaskHost {
  readonly jobId = '0'.repeat(32);
  readonly attempt = 0;
  readonly restoredCheckpointId = undefined;
  readonly acks: Array<{ key: string; checkpointId: number; snapshot: TaskSnapshot; committables: SerializedValue[]; alignmentMs: number | undefined }> = [];
  readonly finishedKeys: string[] = [];
  readonly alignment = { report: () => -Infinity, remove: () => {} };
  constructor(readonly config: RuntimeConfig = defaultRuntimeConfig()) {}
  acknowledge(key: string, checkpointId: number, snapshot: TaskSnapshot, committables: SerializedValue[] = [], alignmentMs?: number): void {
    this.acks.push({ key, checkpointId, snapshot, committables, alignmentMs });
  }
  finished(key: string): void {
    this.finishedKeys.push(key);
  }
  sourceCoordinator(): never {
    throw new Error('no source coordinator in FakeHost');
  }
}

export function operatorVertex(id: string, operators: OperatorFactory[]): TaskVertex {
  return { id, name: id, parallelism: 1, source: undefined, watermarkStrategy: undefined, operators, sink: undefined, chain: [{ id, operators: operators.length }] };
}
