import { hashValue } from '../types/values/equality.js';
import type { StateKey } from './state/state.js';

/**
 * Key groups (as Flink's `KeyGroupRangeAssignment`): keyed state and hash exchanges are split into
 * `maxParallelism` key groups, and each subtask owns a contiguous range of them. A key always falls into
 * the same group, so a checkpoint taken at one parallelism restores at any other up to the maximum: each
 * new subtask takes the keys of the groups it now owns.
 *
 * The group of a key is part of the checkpoint format: `keyGroupOf` must give the same answer for the
 * same key in every Sluice version that reads the checkpoint (docs/state-format.md).
 */

/** `pipeline.max-parallelism` when not set (Flink's lower bound for the computed default). */
export const DEFAULT_MAX_PARALLELISM = 128;
/** Flink's upper bound for `pipeline.max-parallelism`. */
export const UPPER_BOUND_MAX_PARALLELISM = 32768;

/** A 32-bit integer's avalanche mix (MurmurHash3's finalizer), so neighbouring hashes spread over groups. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The key group of a state key. Operators key state by a 32-bit hash of their key fields, or by the
 * key value itself when it is one primitive; a hash exchange feeding a keyed operator computes the very
 * state key the operator will use, so rows and their state meet in one subtask at any parallelism.
 */
export function keyGroupOf(key: StateKey, maxParallelism: number): number {
  const h = typeof key === 'number' && (key | 0) === key ? key : hashValue(key);
  return fmix32(h) % maxParallelism;
}

/** The subtask that owns key group `keyGroup` at `parallelism`. */
export function subtaskOfKeyGroup(keyGroup: number, maxParallelism: number, parallelism: number): number {
  return Math.floor((keyGroup * parallelism) / maxParallelism);
}

/** The key groups [start, end] that subtask `index` of `parallelism` owns; contiguous and covering all. */
export interface KeyGroupRange {
  readonly start: number;
  readonly end: number;
}

export function keyGroupRange(maxParallelism: number, parallelism: number, index: number): KeyGroupRange {
  return {
    start: Math.ceil((index * maxParallelism) / parallelism),
    end: Math.ceil(((index + 1) * maxParallelism) / parallelism) - 1,
  };
}
