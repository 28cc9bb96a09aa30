import type { StateKey } from './state/state.js';
import type { FiredTimer, TimeDomain, TimerService } from './timer-service.js';

interface Timer {
  readonly key: StateKey;
  readonly timestamp: number;
}

/** Timers of one domain ordered by timestamp; (key, timestamp) pairs are unique. */
class TimerQueue {
  private readonly byTs = new Map<number, Set<StateKey>>();
  private sorted: number[] = [];

  add(key: StateKey, ts: number): void {
    let s = this.byTs.get(ts);
    if (!s) {
      this.byTs.set(ts, (s = new Set()));
      // Binary insert: timers are registered far less often than records flow.
      let lo = 0, hi = this.sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.sorted[mid]! < ts) lo = mid + 1; else hi = mid;
      }
      this.sorted.splice(lo, 0, ts);
    }
    s.add(key);
  }

  delete(key: StateKey, ts: number): void {
    this.byTs.get(ts)?.delete(key);
  }

  nextTimestamp(): number | undefined {
    while (this.sorted.length > 0) {
      const ts = this.sorted[0]!;
      if ((this.byTs.get(ts)?.size ?? 0) > 0) return ts;
      this.sorted.shift();
      this.byTs.delete(ts);
    }
    return undefined;
  }

  /** Removes and returns the timers of the earliest timestamp <= `upTo`. */
  pollUpTo(upTo: number): Timer[] | undefined {
    const ts = this.nextTimestamp();
    if (ts === undefined || ts > upTo) return undefined;
    const keys = this.byTs.get(ts)!;
    this.byTs.delete(ts);
    this.sorted.shift();
    return [...keys].map((key) => ({ key, timestamp: ts }));
  }

  snapshot(): Array<[StateKey, number]> {
    const out: Array<[StateKey, number]> = [];
    for (const [ts, keys] of this.byTs) for (const k of keys) out.push([k, ts]);
    return out;
  }

  restore(s: Array<[StateKey, number]>, owns: (key: StateKey) => boolean): void {
    for (const [k, ts] of s) if (owns(k)) this.add(k, ts);
  }
}

export interface TimersSnapshot {
  readonly eventTime: Array<[StateKey, number]>;
  readonly processingTime: Array<[StateKey, number]>;
}

/** The heap timer service of one keyed operator; the chain drives firing. */
export class HeapTimerService implements TimerService {
  private readonly event = new TimerQueue();
  private readonly proc = new TimerQueue();
  watermark = -Infinity;

  constructor(private readonly currentKey: () => StateKey) {}

  currentProcessingTime(): number {
    return Date.now();
  }
  currentWatermark(): number {
    return this.watermark;
  }
  registerEventTimeTimer(ts: number): void {
    this.event.add(this.currentKey(), ts);
  }
  registerProcessingTimeTimer(ts: number): void {
    this.proc.add(this.currentKey(), ts);
  }
  deleteEventTimeTimer(ts: number): void {
    this.event.delete(this.currentKey(), ts);
  }
  deleteProcessingTimeTimer(ts: number): void {
    this.proc.delete(this.currentKey(), ts);
  }

  nextProcessingTime(): number | undefined {
    return this.proc.nextTimestamp();
  }

  /** Fires due timers of `domain` up to `upTo` in timestamp order (timers registered while firing included). */
  fire(domain: TimeDomain, upTo: number, onTimer: (t: FiredTimer) => void): void {
    const q = domain === 'EVENT_TIME' ? this.event : this.proc;
    for (let ts = q.pollUpTo(upTo); ts; ts = q.pollUpTo(upTo)) {
      for (const t of ts) onTimer({ key: t.key, timestamp: t.timestamp, domain });
    }
  }

  snapshot(): TimersSnapshot {
    return { eventTime: this.event.snapshot(), processingTime: this.proc.snapshot() };
  }

  /** Adds the snapshot's timers (of the keys `owns` accepts, when restoring at another parallelism). */
  restore(s: TimersSnapshot, owns: (key: StateKey) => boolean = () => true): void {
    this.event.restore(s.eventTime, owns);
    this.proc.restore(s.processingTime, owns);
  }
}
