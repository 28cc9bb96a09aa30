import { describe, expect, it } from 'vitest';
import type { TaskMetrics } from '../../../src/runtime/task-host.js';
import { applySubtaskReport, SubtaskReporter, subtaskStopped } from '../../../src/runtime/workers/worker-metrics.js';

describe("a worker's subtask metrics, reported to the job master", () => {
  it('reports counters as changes since the last report, the open busy interval counted up to the report', () => {
    const worker: TaskMetrics = { recordsIn: 10, recordsOut: 4, busyMs: 100, busySince: 1000, backPressuredMs: 0, currentInputWatermark: 5 };
    const reporter = new SubtaskReporter();
    const [first] = reporter.reports(new Map([['v1#1', worker]]), 1050);
    expect(first).toEqual({
      key: 'v1#1', recordsIn: 10, recordsOut: 4, busyMs: 150, backPressuredMs: 0, busy: true, backPressured: false,
      currentInputWatermark: 5, pendingRecords: undefined, bytesIn: undefined, pendingBytes: undefined, poolUsage: undefined,
    });
    // The interval closes at 1080, then the task waits for space downstream from 1090.
    worker.busyMs = 180;
    worker.busySince = undefined;
    worker.backPressuredSince = 1090;
    worker.recordsIn = 12;
    worker.bytesIn = 700;
    worker.pendingBytes = () => 300;
    const [second] = reporter.reports(new Map([['v1#1', worker]]), 1100);
    expect(second).toMatchObject({ recordsIn: 2, recordsOut: 0, busyMs: 30, backPressuredMs: 10, busy: false, backPressured: true, bytesIn: 700, pendingBytes: 300 });
    worker.bytesIn = 1000;
    worker.pendingBytes = () => 0;
    const [third] = reporter.reports(new Map([['v1#1', worker]]), 1200);
    expect(third).toMatchObject({ bytesIn: 300, pendingBytes: 0 });
  });

  it('sends nothing for a subtask that did not change, unless a new attempt asks for its gauges again', () => {
    const worker: TaskMetrics = { recordsIn: 1, recordsOut: 1, busyMs: 5, backPressuredMs: 0, currentInputWatermark: 7 };
    const metrics = new Map([['v0#1', worker]]);
    const reporter = new SubtaskReporter();
    expect(reporter.reports(metrics, 10)).toHaveLength(1);
    expect(reporter.reports(metrics, 20)).toEqual([]);
    worker.currentInputWatermark = 8;
    expect(reporter.reports(metrics, 30)).toMatchObject([{ recordsIn: 0, busyMs: 0, currentInputWatermark: 8 }]);
    reporter.resend('v0#1');
    expect(reporter.reports(metrics, 40)).toMatchObject([{ recordsIn: 0, currentInputWatermark: 8 }]);
    // Channels filling up are a change worth reporting.
    worker.poolUsage = () => ({ inPool: 0, outPool: 1 });
    expect(reporter.reports(metrics, 45)).toMatchObject([{ poolUsage: { inPool: 0, outPool: 1 } }]);
    expect(reporter.reports(metrics, 46)).toEqual([]);
    // A reader whose gauge throws reads as unknown rather than stopping the reports.
    worker.pendingRecords = () => {
      throw new Error('broken gauge');
    };
    expect(reporter.reports(metrics, 50)).toEqual([]);
  });

  it('adds reports to what the job master holds, and counts an open interval on from the report until the next', () => {
    const master: TaskMetrics = { recordsIn: 100, recordsOut: 100, busyMs: 40, currentInputWatermark: -Infinity };
    applySubtaskReport(master, {
      key: 'v1#1', recordsIn: 3, recordsOut: 2, busyMs: 50, backPressuredMs: 20, busy: true, backPressured: false,
      currentInputWatermark: 9, pendingRecords: 12, bytesIn: 64, pendingBytes: 32, poolUsage: { inPool: 0.25, outPool: 1 },
    }, 2000);
    expect(master).toMatchObject({ recordsIn: 103, recordsOut: 102, busyMs: 90, busySince: 2000, backPressuredMs: 20, backPressuredSince: undefined, currentInputWatermark: 9 });
    expect(master.pendingRecords?.()).toBe(12);
    expect([master.bytesIn, master.pendingBytes?.()]).toEqual([64, 32]);
    expect(master.poolUsage?.()).toEqual({ inPool: 0.25, outPool: 1 });
    // The next report replaces the estimate since the previous one with what the worker measured.
    applySubtaskReport(master, {
      key: 'v1#1', recordsIn: 0, recordsOut: 0, busyMs: 300, backPressuredMs: 0, busy: false, backPressured: true,
      currentInputWatermark: 9, pendingRecords: undefined, bytesIn: undefined, pendingBytes: undefined, poolUsage: { inPool: 0, outPool: 0.5 },
    }, 2500);
    expect(master).toMatchObject({ busyMs: 390, busySince: undefined, backPressuredSince: 2500 });
    expect(master.pendingRecords).toBeUndefined();
    // Its channels went with the attempt: they read as empty, not as last reported.
    subtaskStopped(master);
    expect(master.backPressuredSince).toBeUndefined();
    expect(master.poolUsage).toBeUndefined();
  });
});
