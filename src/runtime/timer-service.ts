import type { StateKey } from './state/state.js';

export type TimeDomain = 'EVENT_TIME' | 'PROCESSING_TIME';

/** A timer that fired; the keyed state's current key is set to `key` before `onTimer` runs. */
export interface FiredTimer {
  readonly key: StateKey;
  readonly timestamp: number;
  readonly domain: TimeDomain;
}

/**
 * Timers of one keyed operator (Flink's `TimerService`), scoped to the current key. Registering the same
 * (key, timestamp) twice registers one timer. Event-time timers fire, in timestamp order, when the
 * operator's watermark reaches their timestamp, before the watermark is forwarded; processing-time timers
 * fire from the task loop when the wall clock passes them. Timers are part of checkpoints.
 */
export interface TimerService {
  currentProcessingTime(): number;
  /** The operator's current (combined) input watermark; -Infinity before the first one. */
  currentWatermark(): number;
  registerEventTimeTimer(timestamp: number): void;
  registerProcessingTimeTimer(timestamp: number): void;
  deleteEventTimeTimer(timestamp: number): void;
  deleteProcessingTimeTimer(timestamp: number): void;
}
