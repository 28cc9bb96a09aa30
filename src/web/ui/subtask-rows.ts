import type { SubtaskLive } from './api.js';
import { count, lowWatermark, watermark } from './format.js';

/** The columns of a vertex's subtask table, as Flink's UI lists a vertex's subtasks. */
export const SUBTASK_COLUMNS = ['Subtask', 'Records in', 'Records out', 'Busy', 'Back-pressured', 'Idle', 'Back-pressure', 'Watermark', 'Pending'] as const;

/** Milliseconds per second as a share of the time; a dash where the subtask does not measure it. */
export function timeShare(msPerSecond: number | null | undefined): string {
  return typeof msPerSecond === 'number' ? `${Math.round(msPerSecond / 10)} %` : '–';
}

/** Flink's back-pressure levels: ok up to 10 % of the samples, low up to 50 %, high above. */
export function backpressureLevel(ratio: number): 'ok' | 'low' | 'high' {
  return ratio <= 0.1 ? 'ok' : ratio <= 0.5 ? 'low' : 'high';
}

/**
 * One row of text per subtask, numbered from 1 as Flink's UI numbers them (the API counts from 0): what a
 * skewed key or a slow subtask looks like, which the vertex's sums and maxima hide.
 */
export function subtaskRows(subtasks: readonly SubtaskLive[]): string[][] {
  return subtasks.map((s) => [
    `${s.subtask + 1} / ${subtasks.length}`,
    s.numRecordsIn === undefined ? '–' : count(s.numRecordsIn),
    s.numRecordsOut === undefined ? '–' : count(s.numRecordsOut),
    timeShare(s.busyTimeMsPerSecond),
    timeShare(s.backPressuredTimeMsPerSecond),
    timeShare(s.idleTimeMsPerSecond),
    `${backpressureLevel(s.backpressureRatio)} (${Math.round(s.backpressureRatio * 100)} %)`,
    watermark(lowWatermark([s.currentInputWatermark])),
    s.pendingRecords === null ? '–' : count(s.pendingRecords),
  ]);
}
