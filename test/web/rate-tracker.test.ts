import { describe, expect, it } from 'vitest';
import { MIN_RATE_SPAN_MS, RATE_WINDOW_MS, RateTracker } from '../../src/web/rate-tracker.js';

describe('RateTracker', () => {
  it('is 0 until two samples, then the increase per second between the oldest and newest', () => {
    const r = new RateTracker();
    expect(r.rate('a')).toBe(0);
    r.record('a', 100, 1_000);
    expect(r.rate('a')).toBe(0);
    r.record('a', 300, 3_000);
    expect(r.rate('a')).toBe(100);
    r.record('a', 300, 3_000); // same instant: ignored
    expect(r.rate('a')).toBe(100);
  });

  it('gives no rate from samples less than MIN_RATE_SPAN_MS apart', () => {
    const r = new RateTracker();
    r.record('a', 0, 0);
    r.record('a', 50, MIN_RATE_SPAN_MS - 1);
    expect(r.rate('a')).toBe(0);
    r.record('a', 100, MIN_RATE_SPAN_MS);
    expect(r.rate('a')).toBe(100_000 / MIN_RATE_SPAN_MS);
  });

  it('looks back RATE_WINDOW_MS only, so a stalled counter falls to 0', () => {
    const r = new RateTracker();
    r.record('a', 0, 0);
    r.record('a', 6_000, 60_000); // 100/s over the first minute
    for (let t = 61_000; t <= 60_000 + RATE_WINDOW_MS; t += 1_000) r.record('a', 6_000, t);
    expect(r.rate('a')).toBe(0);
    r.record('a', 6_600, 60_000 + RATE_WINDOW_MS + 1_000);
    // The window now starts at the sample of 61 s: 600 more records over 60 s.
    expect(r.rate('a')).toBe(10);
  });

  it('keeps series apart and forgets those not retained', () => {
    const r = new RateTracker();
    r.record('a', 0, 0);
    r.record('a', 10, 1_000);
    r.record('b', 0, 0);
    r.record('b', 50, 1_000);
    expect([r.rate('a'), r.rate('b')]).toEqual([10, 50]);
    r.retain((k) => k === 'b');
    expect([r.rate('a'), r.rate('b')]).toEqual([0, 50]);
  });
});
