/**
 * `auto.offset.reset` for a split whose position left the log (records deleted by retention, or a
 * restored offset beyond the end): the Java consumer's reset, applied by the split reader when a Fetch
 * fails with OFFSET_OUT_OF_RANGE.
 */
import type { Admin } from 'kafkajs';
import { ConnectorError } from '../../../errors/index.js';
import type { OffsetResetStrategy } from './kafka-properties.js';
import { splitId } from './kafka-split.js';

/** The part of a split reader's state the reset moves. */
export interface ResettablePosition {
  readonly topic: string;
  readonly partition: number;
  next: bigint;
}

/**
 * Moves the positions named by the error (all of `positions` if it names none) that lie outside the
 * partition's [low, high] to low (`earliest`) or high (`latest`). With `none` it throws a ConnectorError
 * telling the user which property to set. Called by the split reader's fetch, rarely; awaits one
 * ListOffsets per affected topic through `admin()` (connected by the caller).
 */
export async function resetOutOfRange(
  cause: unknown,
  positions: ReadonlyMap<string, ResettablePosition>,
  strategy: OffsetResetStrategy,
  admin: () => Promise<Admin>,
): Promise<void> {
  const detail = cause as { topic?: string; partition?: number };
  const ids =
    detail.topic !== undefined && detail.partition !== undefined
      ? [splitId({ topic: detail.topic, partition: detail.partition })]
      : [...positions.keys()];
  if (strategy === 'none') {
    throw new ConnectorError(
      `Offset out of range for Kafka partition(s) ${ids.join(', ')} (records deleted by retention?); ` +
        "set 'properties.auto.offset.reset' to earliest or latest to skip ahead.",
      { cause },
    );
  }
  const client = await admin();
  for (const id of ids) {
    const state = positions.get(id);
    if (!state) continue;
    const offsets = await client.fetchTopicOffsets(state.topic);
    const p = offsets.find((o) => o.partition === state.partition);
    if (!p) continue;
    const low = BigInt(p.low);
    const high = BigInt(p.high);
    // Only move splits actually outside [low, high]; others in the same error may be fine.
    if (state.next < low || state.next > high) state.next = strategy === 'earliest' ? low : high;
  }
}
