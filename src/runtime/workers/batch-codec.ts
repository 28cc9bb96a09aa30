import { ExecutionError } from '../../errors/sluice-error.js';
import type { Row } from '../../types/row.js';
import { decodeState } from '../state/state-codec.js';
import { encodeStateV1, UnsupportedStateValue } from '../state/state-encoder.js';
import { describeStateValue } from '../state/state-path.js';

/**
 * A batch of rows as one compact binary buffer for another thread: the state codec's format
 * (docs/state-format.md), which keeps bigint, Decimal, Date, byte arrays and nested rows exact. The
 * buffer is its own ArrayBuffer, so it can be transferred rather than copied.
 */
export function encodeBatch(rows: readonly Row[]): ArrayBuffer {
  try {
    const b = encodeStateV1(rows);
    return b.buffer as ArrayBuffer;
  } catch (e) {
    if (e instanceof UnsupportedStateValue) {
      throw new ExecutionError(
        `Cannot send a batch of rows to another worker thread: a row holds ${describeStateValue(e.value)}, which cannot cross threads. Set 'execution.worker-threads' = 'off' to run the job on one thread.`,
      );
    }
    throw e;
  }
}

export function decodeBatch(data: ArrayBuffer): Row[] {
  return decodeState(new Uint8Array(data)) as Row[];
}
