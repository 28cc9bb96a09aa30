import { describe, expect, it } from 'vitest';
import { Row } from '../../../src/types/row.js';
import { ReaderOutputImpl } from '../../../src/runtime/source/source-output-impl.js';
import { WatermarkStrategy } from '../../../src/runtime/index.js';
import { ColumnBatch } from '../../../src/types/columns/column-batch.js';

const ts = (r: Row): number => r.fields[0] as number;

describe('per-split watermarks', () => {
  it('the source watermark is the minimum over splits, minus the out-of-orderness bound', () => {
    const out = new ReaderOutputImpl(WatermarkStrategy.forBoundedOutOfOrderness(5, ts));
    const a = out.createOutputForSplit('a');
    const b = out.createOutputForSplit('b');
    a.collect(Row.insert(1000));
    expect(out.combinedWatermark()).toBe(-Infinity); // b has emitted nothing yet
    b.collectBatch([Row.insert(400), Row.insert(300)]);
    expect(out.combinedWatermark()).toBe(400 - 5 - 1);
    b.collect(Row.insert(2000));
    expect(out.combinedWatermark()).toBe(1000 - 5 - 1);
    expect(out.buffer).toHaveLength(4);
  });

  it('a released split no longer holds the watermark back', () => {
    const out = new ReaderOutputImpl(WatermarkStrategy.forMonotonousTimestamps(ts));
    out.createOutputForSplit('slow').collect(Row.insert(10));
    out.createOutputForSplit('fast').collect(Row.insert(500));
    expect(out.combinedWatermark()).toBe(9);
    out.releaseOutputForSplit('slow');
    expect(out.combinedWatermark()).toBe(499);
  });

  it('excludes splits idle longer than the idle timeout, and reports idle when all are', () => {
    const out = new ReaderOutputImpl(WatermarkStrategy.withIdleness(WatermarkStrategy.forMonotonousTimestamps(ts), 100));
    out.now = 0;
    const a = out.createOutputForSplit('a');
    const b = out.createOutputForSplit('b');
    a.collect(Row.insert(50));
    b.collect(Row.insert(700));
    expect(out.combinedWatermark()).toBe(49);
    out.now = 80;
    b.collect(Row.insert(800));
    out.now = 150; // a silent for 150 ms, b for 70 ms
    expect(out.combinedWatermark()).toBe(799);
    out.now = 400;
    expect(out.combinedWatermark()).toBe('idle');
    a.collect(Row.insert(900));
    expect(out.combinedWatermark()).toBe(899);
  });

  it('markIdle excludes a split until it emits again', () => {
    const out = new ReaderOutputImpl(WatermarkStrategy.forMonotonousTimestamps(ts));
    const a = out.createOutputForSplit('a');
    const b = out.createOutputForSplit('b');
    a.collect(Row.insert(5));
    b.collect(Row.insert(50));
    a.markIdle();
    expect(out.combinedWatermark()).toBe(49);
    a.emitWatermark(20);
    expect(out.combinedWatermark()).toBe(20);
  });
});

describe('columnar batches on the reader output', () => {
  const columns = (...ids: number[]): ColumnBatch => new ColumnBatch([{ kind: 'typed', values: Int32Array.from(ids), validity: undefined }], ids.length);

  it('a batch collected alone stays columnar; rows after it keep the order', () => {
    const out = new ReaderOutputImpl(undefined);
    out.collectColumns(columns(1, 2));
    expect(out.columns?.length).toBe(2);
    expect(out.buffer).toHaveLength(0);
    out.collect(Row.insert(3));
    out.collectColumns(columns(4));
    expect(out.columns).toBeUndefined();
    expect(out.buffer.map((r) => r.fields[0])).toEqual([1, 2, 3, 4]);
  });

  it('with a watermark strategy the rows are built, so their timestamps count', () => {
    const out = new ReaderOutputImpl(WatermarkStrategy.forMonotonousTimestamps(ts));
    out.createOutputForSplit('a').collectColumns!(columns(100, 700));
    expect(out.columns).toBeUndefined();
    expect(out.buffer.map((r) => r.fields[0])).toEqual([100, 700]);
    expect(out.combinedWatermark()).toBe(699);
  });
});
