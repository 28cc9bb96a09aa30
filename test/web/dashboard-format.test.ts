import { describe, expect, it } from 'vitest';
import { count, duration, lowWatermark, watermark } from '../../src/web/ui/format.js';
import { busyFill, shortName } from '../../src/web/ui/graph.js';

describe('dashboard formatting', () => {
  it('names a node by its chain of operator kinds and the tables it reads and writes', () => {
    expect(shortName('TableSourceScan(table=[[default_catalog, default_database, nexmark, watermark=[-(CASE(=(event_type, 0), x, 1000:INTERVAL SECOND)], filter=[=(event_type, 2)]]], fields=[event_type, bid])'))
      .toBe('Source: nexmark');
    expect(shortName('WindowAggregate(groupBy=[$f0], window=[TUMBLE(time_col=[dateTime], size=[1 s])]) -> Sink(table=[default_catalog.default_database.sink], fields=[auction])'))
      .toBe('WindowAggregate → Sink: sink');
    expect(shortName('TableSourceScan(table=[[c, d, orders]], fields=[a]) -> Calc(select=[a]) -> Sink(table=[c.d.b], fields=[a])')).toBe('Source: orders → Calc → Sink: b');
    expect(shortName('Custom')).toBe('Custom');
  });

  it('fills a node from blue when idle to red when busy all the time, and white when not measured', () => {
    expect(busyFill(0)).toBe('hsl(210, 80%, 97%)');
    expect(busyFill(1)).toBe('hsl(0, 80%, 87%)');
    expect(busyFill(0.5)).toBe('hsl(105, 80%, 92%)');
    expect(busyFill(1.2)).toBe(busyFill(1));
    expect(busyFill(undefined)).toBe('#ffffff');
  });

  it('takes the lowest subtask watermark, none while any subtask has none, and the end of input as Infinity', () => {
    expect(lowWatermark(['1700000000500', '1700000000100'])).toBe(1700000000100);
    expect(lowWatermark(['1700000000500', '-9223372036854775808'])).toBeUndefined();
    expect(lowWatermark(['9223372036854775807', '1700000000100'])).toBe(1700000000100);
    expect(lowWatermark(['9223372036854775807'])).toBe(Infinity);
    expect(lowWatermark([])).toBeUndefined();
  });

  it('writes watermarks as UTC times, and numbers no date can hold as they are', () => {
    expect(watermark(Date.UTC(2026, 0, 2, 3, 4, 5, 678))).toBe('2026-01-02 03:04:05.678');
    expect(watermark(Date.UTC(2026, 0, 2, 3, 4, 5, 678), true)).toBe('03:04:05.678');
    expect(watermark(undefined)).toBe('No watermark');
    expect(watermark(Infinity)).toBe('End of input');
    expect(watermark(-9007199254741992)).toBe('-9007199254741992');
  });

  it('groups counts and reads durations at a glance', () => {
    expect(count(1234567)).toBe('1,234,567');
    expect(duration(450)).toBe('450 ms');
    expect(duration(12_300)).toBe('12.3 s');
    expect(duration(3_725_000)).toBe('1h 2m 5s');
  });
});
