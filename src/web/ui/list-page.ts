import { getJson, type JobDetails, type JobSummary } from './api.js';
import { fillRows, h, table } from './dom.js';
import { count, duration, time } from './format.js';

/** Records a job read: what its source vertices (those without inputs) counted. */
export function sourceRecords(job: JobDetails): number {
  const fed = new Set(job.plan.nodes.filter((n) => (n.inputs?.length ?? 0) > 0).map((n) => n.id));
  return job.vertices.filter((v) => !fed.has(v.id)).reduce((sum, v) => sum + v.metrics['read-records'], 0);
}

/** The jobs of the session, running and ended, newest first. */
export class ListPage {
  readonly element: HTMLElement;
  private readonly body: HTMLTableSectionElement;
  private readonly empty = h('p', { class: 'muted' }, 'No jobs yet. Jobs appear here once an INSERT or a query starts.');

  constructor() {
    const t = table('Jobs', ['Name', 'State', 'Started', 'Duration', 'Records read']);
    t.table.id = 'jobs';
    // The heading above says it; the caption stays for screen readers.
    t.table.caption!.className = 'sr-only';
    this.body = t.body;
    this.element = h('section', { 'aria-labelledby': 'jobs-title' }, h('h2', { id: 'jobs-title' }, 'Jobs'), t.table, this.empty);
  }

  async refresh(): Promise<void> {
    const { jobs } = await getJson<{ jobs: JobSummary[] }>('/jobs/overview');
    const details = await Promise.all(jobs.map((j) => getJson<JobDetails>(`/jobs/${j.jid}`).catch(() => undefined)));
    const rows = jobs.map((j, i) => ({ j, d: details[i] })).reverse();
    this.empty.hidden = rows.length > 0;
    fillRows(
      this.body,
      rows.map(({ j, d }) => [
        h('a', { href: `#/jobs/${j.jid}` }, j.name),
        h('span', { class: `state state-${j.state.toLowerCase()}` }, j.state),
        time(j['start-time']),
        duration(j.duration),
        d === undefined ? '–' : count(sourceRecords(d)),
      ]),
      (i) => ({ 'data-job': rows[i]!.j.jid }),
    );
  }

  dispose(): void {}
}
