/**
 * How a source assigns event timestamps and generates watermarks (Flink's `WatermarkStrategy`).
 * The planner turns `WATERMARK FOR ts AS ts - INTERVAL '5' SECOND` into
 * `WatermarkStrategy.forBoundedOutOfOrderness(5000, (row) => row.fields[i] as number)`.
 *
 * Watermarks are generated per split; the source task's watermark is the minimum over its active
 * (non-idle) splits. Following Flink, the bounded-out-of-orderness watermark is `maxTimestamp - delay - 1`.
 */
export interface WatermarkStrategy<T> {
  /** Event time of a record in epoch ms; `nativeTimestamp` is what the reader passed to `collect`. */
  readonly timestampOf: (record: T, nativeTimestamp: number | undefined) => number;
  /** Allowed lateness in ms (0 = monotonous timestamps). */
  readonly outOfOrdernessMs: number;
  /** A split that emitted nothing for this long (processing time) is marked idle; undefined = never. */
  readonly idleTimeoutMs: number | undefined;
  /** Watermark alignment: splits ahead of the group's minimum by more than `maxDriftMs` are paused. */
  readonly alignment: WatermarkAlignment | undefined;
}

/** Watermark alignment settings (`scan.watermark.alignment.*`). */
export interface WatermarkAlignment {
  readonly group: string;
  readonly maxDriftMs: number;
}

export const WatermarkStrategy = {
  forBoundedOutOfOrderness<T>(
    outOfOrdernessMs: number,
    timestampOf: (record: T, nativeTimestamp: number | undefined) => number,
  ): WatermarkStrategy<T> {
    return { timestampOf, outOfOrdernessMs, idleTimeoutMs: undefined, alignment: undefined };
  },
  forMonotonousTimestamps<T>(
    timestampOf: (record: T, nativeTimestamp: number | undefined) => number,
  ): WatermarkStrategy<T> {
    return { timestampOf, outOfOrdernessMs: 0, idleTimeoutMs: undefined, alignment: undefined };
  },
  withIdleness<T>(s: WatermarkStrategy<T>, idleTimeoutMs: number): WatermarkStrategy<T> {
    return { ...s, idleTimeoutMs };
  },
  withWatermarkAlignment<T>(s: WatermarkStrategy<T>, group: string, maxDriftMs: number): WatermarkStrategy<T> {
    return { ...s, alignment: { group, maxDriftMs } };
  },
} as const;
