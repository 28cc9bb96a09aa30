import type { RegisteredJob } from '../api/job-registry.js';
import type { MetricFamily } from './prometheus.js';
import { subtaskTimes } from './job-views.js';
import type { RecordRates } from './rate-tracker.js';

const LONG_MIN = -9223372036854775808;
const LONG_MAX = 9223372036854775807;

/**
 * The session's jobs as Prometheus families, named as Flink's PrometheusReporter names them
 * (`flink_<scope>_<metric>`): task metrics per subtask, with Flink's task labels and `subtask_index`
 * (a task being a vertex, i.e. a chain), so that `sum by (task_name)` gives a vertex's total; only a
 * client that does not know a vertex's subtasks gets its total, without `subtask_index`. Counters are
 * exported as gauges, as Flink's reporter does.
 */
export function jobMetricFamilies(jobs: readonly RegisteredJob[], rates: RecordRates): MetricFamily[] {
  const recordsIn: MetricFamily['samples'][number][] = [];
  const recordsOut: MetricFamily['samples'][number][] = [];
  const inRate: MetricFamily['samples'][number][] = [];
  const outRate: MetricFamily['samples'][number][] = [];
  const checkpoints: MetricFamily['samples'][number][] = [];
  const restarts: MetricFamily['samples'][number][] = [];
  const failed: MetricFamily['samples'][number][] = [];
  const lastDuration: MetricFamily['samples'][number][] = [];
  const lastSize: MetricFamily['samples'][number][] = [];
  const watermark: MetricFamily['samples'][number][] = [];
  const outPool: MetricFamily['samples'][number][] = [];
  const inPool: MetricFamily['samples'][number][] = [];
  const backPressured: MetricFamily['samples'][number][] = [];
  const pending: MetricFamily['samples'][number][] = [];
  const pendingBytes: MetricFamily['samples'][number][] = [];
  const bytesIn: MetricFamily['samples'][number][] = [];
  const busy: MetricFamily['samples'][number][] = [];
  const backPressuredTime: MetricFamily['samples'][number][] = [];
  const idle: MetricFamily['samples'][number][] = [];
  let running = 0;
  for (const j of jobs) {
    const c = j.client;
    if (c.status() === 'RUNNING' || c.status() === 'CREATED') running++;
    const m = c.metrics();
    const job = { job_id: c.jobId, job_name: c.jobName };
    for (const v of m.vertices) {
      const labels = { ...job, task_id: v.vertexId, task_name: v.name };
      if (v.subtasks === undefined || v.subtasks.length === 0) {
        recordsIn.push({ labels, value: v.recordsIn });
        recordsOut.push({ labels, value: v.recordsOut });
        inRate.push({ labels, value: rates.perSecond(c.jobId, v.vertexId, 'in') });
        outRate.push({ labels, value: rates.perSecond(c.jobId, v.vertexId, 'out') });
      }
      (v.subtasks ?? []).forEach((s, i) => {
        const sub = { ...labels, subtask_index: String(i) };
        recordsIn.push({ labels: sub, value: s.recordsIn });
        recordsOut.push({ labels: sub, value: s.recordsOut });
        inRate.push({ labels: sub, value: rates.perSecond(c.jobId, v.vertexId, 'in', i) });
        outRate.push({ labels: sub, value: rates.perSecond(c.jobId, v.vertexId, 'out', i) });
        // Flink's gauge reads Long.MIN_VALUE before the first watermark and Long.MAX_VALUE at the end of input.
        const wm = s.currentInputWatermark === undefined ? LONG_MIN : s.currentInputWatermark === Infinity ? LONG_MAX : s.currentInputWatermark;
        watermark.push({ labels: sub, value: wm });
        inPool.push({ labels: sub, value: s.inPoolUsage });
        outPool.push({ labels: sub, value: s.outPoolUsage });
        backPressured.push({ labels: sub, value: s.outPoolUsage >= 1 ? 1 : 0 });
        if (s.pendingRecords !== undefined) pending.push({ labels: sub, value: s.pendingRecords });
        if (s.pendingBytes !== undefined) pendingBytes.push({ labels: sub, value: s.pendingBytes });
        if (s.bytesIn !== undefined) bytesIn.push({ labels: sub, value: s.bytesIn });
        const t = subtaskTimes(s, c.jobId, v.vertexId, i, rates);
        if (t !== undefined) {
          busy.push({ labels: sub, value: t.busy });
          backPressuredTime.push({ labels: sub, value: t.backPressured });
          idle.push({ labels: sub, value: t.idle });
        }
      });
    }
    checkpoints.push({ labels: job, value: m.completedCheckpoints });
    restarts.push({ labels: job, value: m.restarts });
    failed.push({ labels: job, value: m.failedCheckpoints });
    // -1 until there is one, as Flink's gauges report it.
    lastDuration.push({ labels: job, value: m.lastCheckpointDurationMs ?? -1 });
    lastSize.push({ labels: job, value: m.lastCheckpointSizeBytes ?? -1 });
  }
  return [
    { name: 'flink_jobmanager_numRunningJobs', help: 'Jobs running in this process.', type: 'gauge', samples: [{ labels: {}, value: running }] },
    { name: 'flink_taskmanager_job_task_numRecordsIn', help: 'Records a subtask received.', type: 'gauge', samples: recordsIn },
    { name: 'flink_taskmanager_job_task_numRecordsOut', help: 'Records a subtask emitted.', type: 'gauge', samples: recordsOut },
    { name: 'flink_taskmanager_job_task_numRecordsInPerSecond', help: 'Records a subtask received per second over the last minute; 0 once the job ended.', type: 'gauge', samples: inRate },
    { name: 'flink_taskmanager_job_task_numRecordsOutPerSecond', help: 'Records a subtask emitted per second over the last minute; 0 once the job ended.', type: 'gauge', samples: outRate },
    { name: 'flink_taskmanager_job_task_currentInputWatermark', help: 'The newest watermark a subtask received (a source: emitted), epoch ms.', type: 'gauge', samples: watermark },
    { name: 'flink_taskmanager_job_task_buffers_inPoolUsage', help: 'How full the fullest input channel of a subtask is (0 to 1).', type: 'gauge', samples: inPool },
    { name: 'flink_taskmanager_job_task_buffers_outPoolUsage', help: 'How full the fullest output channel of a subtask is (0 to 1).', type: 'gauge', samples: outPool },
    { name: 'flink_taskmanager_job_task_isBackPressured', help: '1 while a subtask waits for space in an output channel.', type: 'gauge', samples: backPressured },
    { name: 'flink_taskmanager_job_task_busyTimeMsPerSecond', help: 'Milliseconds per second a subtask spent processing, over the last 5 s.', type: 'gauge', samples: busy },
    { name: 'flink_taskmanager_job_task_backPressuredTimeMsPerSecond', help: 'Milliseconds per second a subtask waited for space in an output channel, over the last 5 s.', type: 'gauge', samples: backPressuredTime },
    { name: 'flink_taskmanager_job_task_idleTimeMsPerSecond', help: 'Milliseconds per second a subtask neither processed nor was back-pressured, over the last 5 s.', type: 'gauge', samples: idle },
    { name: 'flink_taskmanager_job_task_operator_pendingRecords', help: 'Records a source subtask has still to read (Kafka: the consumer lag), where its reader knows.', type: 'gauge', samples: pending },
    { name: 'flink_taskmanager_job_task_operator_pendingBytes', help: 'Bytes a source subtask has still to read in the splits it owns, where its reader knows.', type: 'gauge', samples: pendingBytes },
    { name: 'flink_taskmanager_job_task_operator_numBytesIn', help: 'Bytes a source subtask read, where its reader counts them.', type: 'gauge', samples: bytesIn },
    { name: 'flink_jobmanager_job_numberOfCompletedCheckpoints', help: 'Periodic checkpoints completed by the job.', type: 'gauge', samples: checkpoints },
    { name: 'flink_jobmanager_job_numberOfFailedCheckpoints', help: 'Checkpoints and savepoints that failed.', type: 'gauge', samples: failed },
    { name: 'flink_jobmanager_job_lastCheckpointDuration', help: 'Milliseconds the newest completed checkpoint took, -1 before the first.', type: 'gauge', samples: lastDuration },
    { name: 'flink_jobmanager_job_lastCheckpointSize', help: 'Bytes the newest completed checkpoint wrote, -1 before the first or when kept only in memory.', type: 'gauge', samples: lastSize },
    { name: 'flink_jobmanager_job_numRestarts', help: 'Times the job restarted after a failure.', type: 'gauge', samples: restarts },
  ];
}
