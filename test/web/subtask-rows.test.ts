import { describe, expect, it } from 'vitest';
import type { SubtaskLive } from '../../src/web/ui/api.js';
import { SUBTASK_COLUMNS, subtaskRows } from '../../src/web/ui/subtask-rows.js';

describe("the dashboard's subtask table", () => {
  it('shows each subtask of a vertex with its records, time shares, back-pressure level and watermark', () => {
    const subtasks: SubtaskLive[] = [
      {
        subtask: 0, numRecordsIn: 12_000, numRecordsOut: 11_500, currentInputWatermark: '1700000000000', pendingRecords: 300, backpressureRatio: 0.7,
        busyTimeMsPerSecond: 412, backPressuredTimeMsPerSecond: 500, idleTimeMsPerSecond: 88,
      },
      {
        subtask: 1, numRecordsIn: 40, numRecordsOut: 40, currentInputWatermark: '-9223372036854775808', pendingRecords: null, backpressureRatio: 0,
        busyTimeMsPerSecond: null, backPressuredTimeMsPerSecond: null, idleTimeMsPerSecond: null,
      },
    ];
    const rows = subtaskRows(subtasks);
    expect(rows.map((r) => r.length)).toEqual([SUBTASK_COLUMNS.length, SUBTASK_COLUMNS.length]);
    expect(rows[0]).toEqual(['1 / 2', '12,000', '11,500', '41 %', '50 %', '9 %', 'high (70 %)', '2023-11-14 22:13:20.000', '300']);
    // Not measured (yet) reads as a dash, no watermark yet as such, never as 0.
    expect(rows[1]).toEqual(['2 / 2', '40', '40', '–', '–', '–', 'ok (0 %)', 'No watermark', '–']);
  });

  it('reads the end of input as such, and leaves record counts out for a server that does not send them', () => {
    const [row] = subtaskRows([{ subtask: 0, currentInputWatermark: '9223372036854775807', pendingRecords: 0, backpressureRatio: 0.2 }]);
    expect(row).toEqual(['1 / 1', '–', '–', '–', '–', '–', 'low (20 %)', 'End of input', '0']);
  });
});
