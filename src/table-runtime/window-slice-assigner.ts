import { windowStart } from './window-assigner-operator.js';
import type { WindowAssignment } from './window-assigner-operator.js';

/**
 * Cuts event time into slices so that every TUMBLE, HOP or CUMULATE window is a run of whole slices (Flink's
 * SliceAssigner): the slice of a TUMBLE window is the window, of a HOP window gcd(size, slide), of a
 * CUMULATE window its step. A row updates the one slice it falls in; a window's result merges its slices.
 * Slices and windows are named by their end (ms); every window of one assignment has its own end.
 */
export class SliceAssigner {
  /** Slice length. */
  readonly slice: number;
  /** Distance between the ends of consecutive windows. */
  readonly windowStep: number;

  constructor(readonly window: Exclude<WindowAssignment, { kind: 'SESSION' }>) {
    switch (window.kind) {
      case 'TUMBLE':
        this.slice = window.size;
        this.windowStep = window.size;
        break;
      case 'HOP':
        this.slice = gcd(window.size, window.slide);
        this.windowStep = window.slide;
        break;
      case 'CUMULATE':
        this.slice = window.step;
        this.windowStep = window.step;
        break;
      default: {
        const never: never = window;
        throw new Error(`unknown window ${String(never)}`);
      }
    }
  }

  /** The end of the slice `ts` falls in, or NaN when `ts` is in no window (HOP with a slide above its size). */
  sliceEnd(ts: number): number {
    const w = this.window;
    if (w.kind === 'HOP' && ts - windowStart(ts, w.slide, w.offset) >= w.size) return Number.NaN;
    return windowStart(ts, this.slice, w.offset) + this.slice;
  }

  /** The end of the first window (by end) that holds slice `sliceEnd`. */
  firstWindowEnd(sliceEnd: number): number {
    const w = this.window;
    if (w.kind !== 'HOP') return sliceEnd;
    const last = this.lastWindowEnd(sliceEnd);
    // Window ends step by the slide; the first is the smallest one at or after the slice's end.
    return last - Math.floor((last - sliceEnd) / w.slide) * w.slide;
  }

  /** The end of the last window (by end) that holds slice `sliceEnd`: once it fired, the slice is done. */
  lastWindowEnd(sliceEnd: number): number {
    const w = this.window;
    switch (w.kind) {
      case 'TUMBLE':
        return sliceEnd;
      case 'HOP':
        return windowStart(sliceEnd - this.slice, w.slide, w.offset) + w.size;
      case 'CUMULATE':
        return windowStart(sliceEnd - this.slice, w.size, w.offset) + w.size;
      default: {
        const never: never = w;
        return never;
      }
    }
  }

  /** The start of the window that ends at `windowEnd`. */
  windowStart(windowEnd: number): number {
    const w = this.window;
    return w.kind === 'CUMULATE' ? windowStart(windowEnd - 1, w.size, w.offset) : windowEnd - w.size;
  }
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
