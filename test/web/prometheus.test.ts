import { describe, expect, it } from 'vitest';
import { escapeLabelValue, formatPrometheus } from '../../src/web/prometheus.js';

describe('Prometheus text exposition', () => {
  it('escapes backslash, double quote and line feed in label values, and nothing else', () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
    expect(escapeLabelValue("it's {x=1}, ok")).toBe("it's {x=1}, ok");
  });

  it('writes HELP and TYPE once per family, then one line per sample', () => {
    const text = formatPrometheus([
      {
        name: 'flink_taskmanager_job_task_numRecordsIn',
        help: 'Records in\nwith a \\ backslash',
        type: 'gauge',
        samples: [
          { labels: { job_id: 'j1', task_name: 'Source: "x"\nline2' }, value: 5 },
          { labels: { job_id: 'j2', task_name: 'C:\\tmp' }, value: 0 },
        ],
      },
      { name: 'flink_jobmanager_numRunningJobs', help: 'Running jobs.', type: 'gauge', samples: [{ labels: {}, value: 2 }] },
    ]);
    expect(text).toBe(
      '# HELP flink_taskmanager_job_task_numRecordsIn Records in\\nwith a \\\\ backslash\n' +
        '# TYPE flink_taskmanager_job_task_numRecordsIn gauge\n' +
        'flink_taskmanager_job_task_numRecordsIn{job_id="j1",task_name="Source: \\"x\\"\\nline2"} 5\n' +
        'flink_taskmanager_job_task_numRecordsIn{job_id="j2",task_name="C:\\\\tmp"} 0\n' +
        '# HELP flink_jobmanager_numRunningJobs Running jobs.\n' +
        '# TYPE flink_jobmanager_numRunningJobs gauge\n' +
        'flink_jobmanager_numRunningJobs 2\n',
    );
  });

  it('leaves out families without samples and spells non-finite values as the format does', () => {
    const text = formatPrometheus([
      { name: 'empty_family', help: 'none', type: 'gauge', samples: [] },
      { name: 'odd', help: 'odd values', type: 'gauge', samples: [{ labels: { k: 'a' }, value: NaN }, { labels: { k: 'b' }, value: Infinity }, { labels: { k: 'c' }, value: -Infinity }] },
    ]);
    expect(text).not.toContain('empty_family');
    expect(text.split('\n').slice(2, 5)).toEqual(['odd{k="a"} NaN', 'odd{k="b"} +Inf', 'odd{k="c"} -Inf']);
  });

  it('rejects metric and label names the format does not allow', () => {
    expect(() => formatPrometheus([{ name: 'bad-name', help: '', type: 'gauge', samples: [{ labels: {}, value: 1 }] }])).toThrow(/metric name/);
    expect(() => formatPrometheus([{ name: 'ok', help: '', type: 'gauge', samples: [{ labels: { 'bad-label': 'x' }, value: 1 }] }])).toThrow(/label name/);
  });
});
