import { describe, expect, it } from 'vitest';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';
import { DataTypes } from '../../../src/types/data-types.js';
import {
  PreciseTimestamp,
  compareTimestamps,
  epochMicrosOf,
  epochNanosOf,
  timestampOf,
  timestampOfEpochMicros,
  timestampOfEpochNanos,
  truncateTimestamp,
} from '../../../src/types/values/precise-timestamp.js';
import { hashValue, valuesEqual } from '../../../src/types/values/equality.js';
import { valueKey } from '../../../src/types/values/value-key.js';
import { compareNullable } from '../../../src/types/values/value-ops.js';
import { decodeValue, encodeValue } from '../../../src/types/values/state-codec.js';
import { formatValue, formatValueJava } from '../../../src/types/values/format-value.js';
import { parseTimestampLtzValue, parseTimestampValue, tryParseTimestamp } from '../../../src/types/values/temporal.js';
import { decodeState, encodeState } from '../../../src/runtime/state/state-codec.js';
import { decodeBatch, encodeBatch } from '../../../src/runtime/workers/batch-codec.js';
import { formatFlinkTimestamp, parseFlinkTimestampValue } from '../../../src/formats/common/temporal-text.js';

// 2024-01-01 10:00:00.123 UTC
const MS = 1_704_103_200_123;

describe('PreciseTimestamp: TIMESTAMP(p > 3) values finer than a millisecond', () => {
  it('is canonical: a whole millisecond is always the number, so equal values have one form', () => {
    expect(timestampOf(MS, 0)).toBe(MS);
    expect(timestampOf(MS, 456_789)).toEqual(new PreciseTimestamp(MS, 456_789));
    expect(timestampOf(MS, 1_000_000)).toBe(MS + 1);
    expect(timestampOf(MS, -1)).toEqual(new PreciseTimestamp(MS - 1, 999_999));
    expect(timestampOfEpochNanos(-1n)).toEqual(new PreciseTimestamp(-1, 999_999));
    expect(timestampOfEpochMicros(-1_000n)).toBe(-1);
    expect(epochNanosOf(new PreciseTimestamp(-1, 999_999))).toBe(-1n);
    expect(epochMicrosOf(new PreciseTimestamp(-1, 999_999))).toBe(-1n);
    expect(epochMicrosOf(new PreciseTimestamp(-1, 1))).toBe(-1_000n);
  });

  it('truncates toward the past to a precision, as Flink casts', () => {
    const v = new PreciseTimestamp(MS, 456_789);
    expect(truncateTimestamp(v, 9)).toBe(v);
    expect(truncateTimestamp(v, 6)).toEqual(new PreciseTimestamp(MS, 456_000));
    expect(truncateTimestamp(v, 4)).toEqual(new PreciseTimestamp(MS, 400_000));
    expect(truncateTimestamp(v, 3)).toBe(MS);
    expect(truncateTimestamp(v, 0)).toBe(MS - 123);
    expect(truncateTimestamp(new PreciseTimestamp(-1, 999_999), 3)).toBe(-1);
    expect(truncateTimestamp(new PreciseTimestamp(MS, 999), 6)).toBe(MS);
  });

  it('orders, compares and hashes by the instant, mixed with whole-millisecond numbers', () => {
    const a = new PreciseTimestamp(MS, 456_000);
    const b = new PreciseTimestamp(MS, 457_000);
    expect(compareTimestamps(MS, a)).toBe(-1);
    expect(compareTimestamps(b, a)).toBe(1);
    expect(compareTimestamps(MS + 1, b)).toBe(1);
    expect([b, MS + 1, a, MS].sort(compareNullable)).toEqual([MS, a, b, MS + 1]);
    expect(valuesEqual(a, new PreciseTimestamp(MS, 456_000))).toBe(true);
    expect(valuesEqual(a, b)).toBe(false);
    expect(valuesEqual(a, MS)).toBe(false);
    expect(hashValue(a)).toBe(hashValue(new PreciseTimestamp(MS, 456_000)));
    expect(hashValue(a)).not.toBe(hashValue(b));
    expect(valueKey(a)).toBe(valueKey(new PreciseTimestamp(MS, 456_000)));
    expect(valueKey(a)).not.toBe(valueKey(b));
    expect(valueKey([a, 1])).not.toBe(valueKey([b, 1]));
    expect(valueKey([a, 1])).not.toBe(valueKey([MS, 1]));
  });

  it('survives the JSON state codec, the binary checkpoint codec and the worker batch codec', () => {
    const v = new PreciseTimestamp(MS, 456_789);
    expect(decodeValue(encodeValue([v, MS]))).toEqual([v, MS]);
    const back = decodeState(encodeState(new Map([[v, [v, 1]]]))) as Map<unknown, unknown>;
    expect([...back.keys()][0]).toBeInstanceOf(PreciseTimestamp);
    expect(back).toEqual(new Map([[v, [v, 1]]]));
    const rows = [new Row(RowKind.INSERT, [1, v]), new Row(RowKind.UPDATE_AFTER, [2, MS]), new Row(RowKind.INSERT, [3, null])];
    const decoded = decodeBatch(encodeBatch(rows));
    expect(decoded).toEqual(rows);
    expect(decoded[0]!.fields[1]).toBeInstanceOf(PreciseTimestamp);
  });

  it("parses up to nine fraction digits and formats exactly as Flink's CAST and Java's toString print them", () => {
    const v = parseTimestampValue('2024-01-01 10:00:00.123456789');
    expect(v).toEqual(new PreciseTimestamp(MS, 456_789));
    expect(parseTimestampValue('2024-01-01 10:00:00.123456789', 6)).toEqual(new PreciseTimestamp(MS, 456_000));
    expect(parseTimestampValue('2024-01-01T10:00:00.1234')).toEqual(new PreciseTimestamp(MS, 400_000));
    expect(tryParseTimestamp('2024-01-01 10:00:00.123456789')).toBe(MS);
    expect(parseTimestampLtzValue('2024-01-01 18:00:00.123456', 'Asia/Shanghai')).toEqual(new PreciseTimestamp(MS, 456_000));
    expect(formatValue(v, DataTypes.TIMESTAMP(9))).toBe('2024-01-01 10:00:00.123456789');
    expect(formatValue(v, DataTypes.TIMESTAMP(6))).toBe('2024-01-01 10:00:00.123456');
    expect(formatValue(MS - 123, DataTypes.TIMESTAMP(9))).toBe('2024-01-01 10:00:00.000000000');
    expect(formatValue(v, DataTypes.TIMESTAMP_LTZ(9), { timeZone: 'Asia/Shanghai' })).toBe('2024-01-01 18:00:00.123456789');
    expect(formatValueJava(v, DataTypes.TIMESTAMP(9))).toBe('2024-01-01T10:00:00.123456789');
    expect(formatValueJava(new PreciseTimestamp(MS, 400_000), DataTypes.TIMESTAMP(4))).toBe('2024-01-01T10:00:00.123400');
    expect(formatValueJava(new PreciseTimestamp(MS - 123, 1_000), DataTypes.TIMESTAMP(6))).toBe('2024-01-01T10:00:00.000001');
    expect(formatValueJava(new PreciseTimestamp(MS, 456_000), DataTypes.TIMESTAMP_LTZ(6))).toBe('2024-01-01T10:00:00.123456Z');
    expect(formatValueJava(MS - 123, DataTypes.TIMESTAMP(9))).toBe('2024-01-01T10:00');
  });

  it('reads and writes the text of the JSON and CSV formats with every digit, trailing zeros stripped', () => {
    expect(parseFlinkTimestampValue('2024-01-01 10:00:00.123456789', 'SQL', false, 9)).toEqual(new PreciseTimestamp(MS, 456_789));
    // Not truncated to the column's precision, as Flink's formats read it.
    expect(parseFlinkTimestampValue('2024-01-01 10:00:00.1234567', 'SQL', false, 6)).toEqual(new PreciseTimestamp(MS, 456_700));
    expect(parseFlinkTimestampValue('2024-01-01 10:00:00.123456Z', 'SQL', true, 6)).toEqual(new PreciseTimestamp(MS, 456_000));
    expect(parseFlinkTimestampValue('2024-01-01 10:00:00.123456', 'SQL', false, 3)).toBe(MS);
    expect(formatFlinkTimestamp(new PreciseTimestamp(MS, 456_700), 'SQL', false)).toBe('2024-01-01 10:00:00.1234567');
    expect(formatFlinkTimestamp(new PreciseTimestamp(MS - 23, 1), 'ISO-8601', true)).toBe('2024-01-01T10:00:00.100000001Z');
    expect(formatFlinkTimestamp(MS, 'SQL', false)).toBe('2024-01-01 10:00:00.123');
  });
});
