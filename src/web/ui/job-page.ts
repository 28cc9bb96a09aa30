import { ApiError, type Checkpoints, type Exceptions, failureText, getJson, type JobConfig, type JobDetails, type JobLive, type JobSql, send } from './api.js';
import { fillRows, h, setText, table } from './dom.js';
import { bytes, count, duration, lowWatermark, rate, time, watermark } from './format.js';
import { JobGraphView, shortName } from './graph.js';
import { backpressureLevel as level, SUBTASK_COLUMNS, subtaskRows, timeShare as share } from './subtask-rows.js';
import { Tabs } from './tabs.js';

const ENDED = new Set(['FINISHED', 'FAILED', 'CANCELED']);
/** User Timing names: laying the graph out (once per page), and drawing one refresh's numbers. */
const GRAPH_LAYOUT_MEASURE = 'sluice:graph-layout';
const RENDER_MEASURE = 'sluice:refresh-render';

interface VertexLive {
  readonly inRate: number;
  readonly outRate: number;
  readonly watermark: number | undefined;
  /** Summed over the subtasks that report it; undefined when none does (not a source, or it cannot tell). */
  readonly pending: number | undefined;
  /** The worst subtask's share of recent samples spent back-pressured; undefined without subtasks. */
  readonly backpressure: number | undefined;
  /** The busiest subtask's busy and the most back-pressured one's back-pressured ms per second; undefined where none measures it. */
  readonly busyMs: number | undefined;
  readonly backPressuredMs: number | undefined;
  /** Bytes of its state in the newest completed checkpoint; undefined before the first. */
  readonly stateSize: number | undefined;
}

const NO_LIVE: VertexLive = { inRate: 0, outRate: 0, watermark: undefined, pending: undefined, backpressure: undefined, busyMs: undefined, backPressuredMs: undefined, stateSize: undefined };

/** The highest of the values that are known, as Flink's UI shows a vertex's busiest subtask. */
function maxKnown(values: readonly (number | null | undefined)[]): number | undefined {
  const known = values.filter((v): v is number => typeof v === 'number');
  return known.length === 0 ? undefined : Math.max(...known);
}

/** The live numbers of one vertex from `/jobs/<id>/live`. */
function vertexLive(v: JobLive['vertices'][number] | undefined): VertexLive {
  if (v === undefined) return NO_LIVE;
  const pending = v.subtasks.flatMap((s) => (s.pendingRecords === null ? [] : [s.pendingRecords]));
  return {
    inRate: v.numRecordsInPerSecond,
    outRate: v.numRecordsOutPerSecond,
    watermark: lowWatermark(v.subtasks.map((s) => s.currentInputWatermark)),
    pending: pending.length === 0 ? undefined : pending.reduce((a, b) => a + b, 0),
    backpressure: v.subtasks.length === 0 ? undefined : Math.max(...v.subtasks.map((s) => s.backpressureRatio)),
    busyMs: maxKnown(v.subtasks.map((s) => s.busyTimeMsPerSecond)),
    backPressuredMs: maxKnown(v.subtasks.map((s) => s.backPressuredTimeMsPerSecond)),
    stateSize: v.stateSize ?? undefined,
  };
}

/** A vertex's checkpointed state size; a dash before its first checkpoint. */
function stateSize(n: number | undefined): string {
  return n === undefined ? '–' : bytes(n);
}

/** The checkpoint or savepoint the running attempt started from, as the summary shows it. */
function restoredFrom(r: Checkpoints['latest']['restored']): string {
  if (r === undefined || r === null) return '–';
  return `${r.is_savepoint ? 'savepoint' : 'checkpoint'} ${r.id}${r.external_path === null ? '' : ` (${r.external_path})`}`;
}

/** An exception's first line, with its causes folded under it when there are any. */
function stackCell(stacktrace: string): HTMLElement {
  const [first, ...rest] = stacktrace.split('\n');
  if (rest.length === 0) return h('span', {}, first!);
  return h('details', {}, h('summary', {}, first!), h('pre', { class: 'causes' }, rest.join('\n')));
}

/** One job: its graph with live counters, vertices, checkpoints, exceptions, and cancel / stop buttons. */
export class JobPage {
  readonly element: HTMLElement;
  private readonly title = h('h2', { id: 'job-title' });
  private readonly state = h('span', { class: 'state' });
  private readonly meta = h('span', { class: 'muted' });
  private readonly graphBox = h('div', { class: 'graph-box' });
  private readonly vertices = table('Vertices', ['Vertex', 'Parallelism', 'Records in', 'Records out', 'In rate', 'Out rate', 'Pending', 'Low watermark', 'Back-pressure', 'Busy', 'Back-pressured', 'State size'], 'vertices');
  private readonly subtasks = table('Subtasks', SUBTASK_COLUMNS, 'subtasks');
  private readonly subtasksHint = h('p', { class: 'muted', id: 'subtasks-hint' }, 'Select a vertex (its name above or its box in the graph) to see its subtasks.');
  /** The vertex whose subtasks are shown, and the newest live numbers they are shown from. */
  private selected: string | undefined;
  private lastLive: JobLive | undefined;
  private readonly vertexNames = new Map<string, string>();
  /** One button per vertex, kept across refreshes so focus and the pressed state survive them. */
  private readonly vertexButtons = new Map<string, HTMLButtonElement>();
  private readonly cpSummary = h('dl', { class: 'summary', id: 'checkpoint-summary' });
  private readonly cpHistory = table('Recent checkpoints, newest first', ['ID', 'Status', 'Triggered', 'Duration', 'Alignment', 'Size', 'Detail']);
  private readonly exception = h('pre', { id: 'exception', class: 'exception' });
  private readonly exceptionTime = h('p', { class: 'muted' });
  private readonly history = table('Failures, newest first (each one the job restarted from, and the one that failed it)', ['Time', 'Task', 'Exception'], 'exception-history');
  private readonly historyNote = h('p', { class: 'muted' });
  private readonly stackCells = new Map<string, HTMLElement>();
  private readonly cancelButton = h('button', { type: 'button', id: 'cancel' }, 'Cancel job');
  private readonly stopDir = h('input', { type: 'text', id: 'savepoint-dir', placeholder: '/path/to/savepoints', 'aria-label': 'Savepoint directory' });
  private readonly stopButton = h('button', { type: 'button', id: 'stop' }, 'Stop with savepoint');
  private readonly actionNote = h('p', { class: 'muted', role: 'status' });
  private readonly sql = h('pre', { id: 'job-sql', class: 'code' }, 'Loading…');
  private readonly explain = h('pre', { id: 'job-explain', class: 'code' }, 'Loading…');
  private readonly configSummary = h('dl', { class: 'summary', id: 'config-summary' });
  private readonly config = table('Configuration when the job was submitted (secret values masked)', ['Key', 'Value'], 'config');
  private readonly tabs: Tabs<'overview' | 'checkpoints' | 'exceptions' | 'sql' | 'config'>;
  /** The statement, plan and configuration do not change while a job runs: asked for once. */
  private staticLoaded = false;
  private graph: JobGraphView | undefined;
  private confirmCancel = false;

  constructor(private readonly jobId: string) {
    this.config.table.id = 'config';
    this.tabs = new Tabs('Job details', [
      {
        key: 'overview',
        title: 'Overview',
        panel: h('div', {}, h('h3', { class: 'sr-only' }, 'Graph'), this.graphBox, this.vertices.table, this.subtasksHint, this.subtasks.table),
      },
      { key: 'checkpoints', title: 'Checkpoints', panel: h('div', {}, this.cpSummary, this.cpHistory.table) },
      {
        key: 'exceptions',
        title: 'Exceptions',
        panel: h('div', {}, h('h3', {}, 'Root exception'), this.exceptionTime, this.exception, h('h3', {}, 'History'), this.history.table, this.historyNote),
      },
      { key: 'sql', title: 'SQL', panel: h('div', {}, h('h3', {}, 'Statement'), this.sql, h('h3', {}, 'Plan (EXPLAIN)'), this.explain) },
      { key: 'config', title: 'Configuration', panel: h('div', {}, this.configSummary, this.config.table) },
    ]);
    this.element = h(
      'section',
      { 'aria-labelledby': 'job-title' },
      h('p', {}, h('a', { href: '#/' }, '← All jobs')),
      this.title,
      h('p', {}, this.state, ' ', this.meta),
      h('div', { class: 'actions' }, this.cancelButton, this.stopDir, this.stopButton),
      this.actionNote,
      this.tabs.element,
    );
    this.subtasks.table.id = 'subtasks';
    this.subtasks.table.hidden = true;
    this.cancelButton.addEventListener('click', () => void this.cancel());
    this.stopButton.addEventListener('click', () => void this.stop());
  }

  async refresh(): Promise<void> {
    const id = this.jobId;
    // Four requests a refresh, however many vertices the job has.
    const [job, checkpoints, exceptions, liveAll] = await Promise.all([
      getJson<JobDetails>(`/jobs/${id}`),
      getJson<Checkpoints>(`/jobs/${id}/checkpoints`),
      getJson<Exceptions>(`/jobs/${id}/exceptions`),
      getJson<JobLive>(`/jobs/${id}/live`),
    ]);
    // User Timing marks (devtools' Performance panel shows them; the browser test bounds them for a large job).
    const renderStart = performance.now();
    const byId = new Map(liveAll.vertices.map((v) => [v.id, v]));
    const live = job.vertices.map((v) => vertexLive(byId.get(v.id)));
    document.title = `${job.name} · Sluice`;
    setText(this.title, job.name);
    if (this.title.title !== job.name) this.title.title = job.name;
    setText(this.state, job.state);
    this.state.className = `state state-${job.state.toLowerCase()}`;
    setText(this.meta, `${job.jid} · started ${time(job['start-time'])} · ${duration(job.duration)}`);
    const ended = ENDED.has(job.state);
    this.cancelButton.disabled = ended;
    this.stopButton.disabled = ended;
    this.stopDir.disabled = ended;
    if (this.graph === undefined) {
      const layoutStart = performance.now();
      this.graph = new JobGraphView(job.plan.nodes, (vertexId) => this.select(vertexId));
      this.graphBox.replaceChildren(this.graph.element);
      performance.measure(GRAPH_LAYOUT_MEASURE, { start: layoutStart });
    }
    for (const v of job.vertices) this.vertexNames.set(v.id, v.name);
    this.lastLive = liveAll;
    fillRows(
      this.vertices.body,
      job.vertices.map((v, i) => {
        const l = live[i]!;
        const stats = {
          recordsIn: `${count(v.metrics['read-records'])} (${rate(l.inRate)})`,
          recordsOut: `${count(v.metrics['write-records'])} (${rate(l.outRate)})`,
          watermark: watermark(l.watermark, true),
          backpressure: l.backpressure === undefined ? undefined : level(l.backpressure),
          busy: l.busyMs === undefined ? undefined : l.busyMs / 1000,
          backPressured: l.backPressuredMs === undefined ? undefined : l.backPressuredMs / 1000,
          stateSize: stateSize(l.stateSize),
        };
        this.graph!.update(v.id, stats);
        return [this.vertexButton(v.id, v.name), String(v.parallelism), count(v.metrics['read-records']), count(v.metrics['write-records']), rate(l.inRate), rate(l.outRate), l.pending === undefined ? '–' : count(l.pending), watermark(l.watermark), l.backpressure === undefined ? '–' : `${level(l.backpressure)} (${Math.round(l.backpressure * 100)} %)`, share(l.busyMs), share(l.backPressuredMs), stateSize(l.stateSize)];
      }),
      (i) => ({ 'data-vertex': job.vertices[i]!.id }),
    );
    this.showSubtasks();
    this.showCheckpoints(checkpoints);
    // Only the newest is kept: one a second would otherwise pile up for as long as the page stays open.
    performance.clearMeasures(RENDER_MEASURE);
    performance.measure(RENDER_MEASURE, { start: renderStart });
    if (!this.staticLoaded) await this.loadStatic();
    this.showExceptions(exceptions, job.state === 'FAILED');
  }

  dispose(): void {}

  /** The vertex's name in the vertex table, as a button that shows (or hides) its subtasks. */
  private vertexButton(vertexId: string, name: string): HTMLButtonElement {
    let b = this.vertexButtons.get(vertexId);
    if (b === undefined) {
      b = h('button', { type: 'button', class: 'link', 'data-vertex': vertexId, 'aria-pressed': 'false', 'aria-controls': 'subtasks' }, name);
      b.addEventListener('click', () => this.select(vertexId));
      this.vertexButtons.set(vertexId, b);
    }
    return b;
  }

  /** Shows a vertex's subtasks at once, from the numbers of the last refresh; selecting it again hides them. */
  private select(vertexId: string): void {
    this.selected = this.selected === vertexId ? undefined : vertexId;
    for (const [id, b] of this.vertexButtons) b.setAttribute('aria-pressed', String(id === this.selected));
    this.graph?.select(this.selected);
    this.showSubtasks();
  }

  private showSubtasks(): void {
    const v = this.selected === undefined ? undefined : this.lastLive?.vertices.find((x) => x.id === this.selected);
    this.subtasks.table.hidden = v === undefined;
    this.subtasksHint.hidden = v !== undefined;
    if (v === undefined) return;
    const name = shortName(this.vertexNames.get(v.id) ?? v.id);
    setText(this.subtasks.table.caption!, `Subtasks of ${name} (${v.subtasks.length})`);
    fillRows(this.subtasks.body, subtaskRows(v.subtasks), (i) => ({ 'data-subtask': String(i) }));
  }

  private showExceptions(ex: Exceptions, failed: boolean): void {
    setText(this.exception, ex['root-exception'] ?? 'No exceptions.');
    this.exception.classList.toggle('failed', failed);
    setText(this.exceptionTime, ex.timestamp === null ? '' : `${failed ? 'Failed the job' : 'Newest failure; the job restarted'} at ${time(ex.timestamp)}`);
    const entries = ex.exceptionHistory?.entries ?? [];
    this.tabs.setTitle('exceptions', entries.length === 0 ? 'Exceptions' : `Exceptions (${entries.length}${ex.exceptionHistory?.truncated ? '+' : ''})`);
    this.history.table.hidden = entries.length === 0;
    setText(this.historyNote, entries.length === 0 ? 'No failures.' : ex.exceptionHistory?.truncated ? 'Older failures were dropped; the newest 16 are kept.' : '');
    fillRows(
      this.history.body,
      // The first line says what happened; the causes follow in the same cell, folded.
      entries.map((e) => [time(e.timestamp), e.taskName ?? '(not in a task)', this.stackCell(e.timestamp, e.stacktrace)]),
    );
    // Failures that left the history leave the cache too: a job restarting for days must not grow the page.
    const shown = new Set(entries.map((e) => `${e.timestamp} ${e.stacktrace}`));
    for (const k of this.stackCells.keys()) if (!shown.has(k)) this.stackCells.delete(k);
  }

  /** The same node for the same failure on every refresh, so a row the user unfolded stays open. */
  private stackCell(timestamp: number, stacktrace: string): HTMLElement {
    const key = `${timestamp} ${stacktrace}`;
    let cell = this.stackCells.get(key);
    if (cell === undefined) this.stackCells.set(key, (cell = stackCell(stacktrace)));
    return cell;
  }

  /** The statement, its plan and the configuration: fixed when the job was submitted. */
  private async loadStatic(): Promise<void> {
    const id = this.jobId;
    const [sql, config] = await Promise.all([getJson<JobSql>(`/jobs/${id}/sql`), getJson<JobConfig>(`/jobs/${id}/config`)]);
    setText(this.sql, sql.sql ?? 'This job was not started from SQL.');
    setText(this.explain, sql.explain ?? '–');
    const ec = config['execution-config'];
    this.configSummary.replaceChildren(
      ...[
        ['Default parallelism', String(ec['job-parallelism'])],
        ['Restart strategy', ec['restart-strategy']],
      ].map(([k, v]) => h('div', {}, h('dt', {}, k!), h('dd', {}, v!))),
    );
    const entries = Object.entries(ec['user-config']);
    fillRows(this.config.body, entries.length === 0 ? [['(defaults only)', '']] : entries.map(([k, v]) => [k, v]));
    this.staticLoaded = true;
  }

  private showCheckpoints(c: Checkpoints): void {
    const latest = c.history.find((x) => x.status === 'COMPLETED' && !x.is_savepoint);
    const entries: [string, string][] = [
      ['Completed', count(c.counts.completed)],
      ['Failed', count(c.counts.failed)],
      ['Last duration', latest === undefined ? '–' : duration(latest.end_to_end_duration)],
      ['Last size', latest === undefined ? '–' : bytes(latest.state_size)],
      ['Restarts', count(c.restarts)],
      ['Restored from', restoredFrom(c.latest.restored)],
    ];
    if (this.cpSummary.children.length !== entries.length) {
      this.cpSummary.replaceChildren(...entries.map(([k]) => h('div', {}, h('dt', {}, k), h('dd', { 'data-key': k }))));
    }
    for (const [k, v] of entries) setText(this.cpSummary.querySelector(`dd[data-key="${k}"]`)!, v);
    fillRows(
      this.cpHistory.body,
      c.history.map((x) => [
        String(x.id),
        x.is_savepoint ? `${x.status} (savepoint)` : x.status,
        time(x.trigger_timestamp),
        duration(x.end_to_end_duration),
        x.alignment_duration === undefined || x.alignment_duration === null ? '–' : duration(x.alignment_duration),
        x.status === 'COMPLETED' ? bytes(x.state_size) : '–',
        x.status === 'COMPLETED' ? (x.external_path ?? '') : (x.failure_message ?? ''),
      ]),
    );
  }

  /** Two clicks: the first asks for confirmation in the button itself, so no dialog is needed. */
  private async cancel(): Promise<void> {
    if (!this.confirmCancel) {
      this.confirmCancel = true;
      setText(this.cancelButton, 'Click again to cancel');
      setTimeout(() => {
        this.confirmCancel = false;
        setText(this.cancelButton, 'Cancel job');
      }, 4000);
      return;
    }
    this.confirmCancel = false;
    setText(this.cancelButton, 'Cancel job');
    try {
      await send('PATCH', `/jobs/${this.jobId}?mode=cancel`);
      setText(this.actionNote, 'Cancel requested.');
    } catch (e) {
      setText(this.actionNote, `Could not cancel: ${failureText(e)}`);
    }
  }

  private async stop(): Promise<void> {
    const dir = this.stopDir.value.trim();
    if (dir === '') {
      setText(this.actionNote, 'Enter the directory to write the savepoint into.');
      this.stopDir.focus();
      return;
    }
    let trigger: string;
    try {
      trigger = (await send<{ 'request-id': string }>('POST', `/jobs/${this.jobId}/stop`, { targetDirectory: dir }))['request-id'];
    } catch (e) {
      setText(this.actionNote, `Could not stop: ${failureText(e)}`);
      return;
    }
    setText(this.actionNote, 'Stopping with a savepoint…');
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      let s: { status: { id: string }; operation?: { location?: string; 'failure-cause'?: { 'stack-trace': string } } };
      try {
        s = await getJson(`/jobs/${this.jobId}/savepoints/${trigger}`);
      } catch (e) {
        // The stop was accepted: a sluice that exited with its last job took the answer with it, and its
        // output names the savepoint. Saying the stop failed would be wrong.
        setText(this.actionNote, e instanceof ApiError ? `The savepoint's state is unknown: ${e.message}` : 'Stop requested; sluice exited before it could report the savepoint (its output names it).');
        return;
      }
      if (s.status.id === 'IN_PROGRESS') continue;
      const failure = s.operation?.['failure-cause']?.['stack-trace'];
      setText(this.actionNote, failure === undefined ? `Stopped; savepoint at ${s.operation?.location ?? '?'}` : `The savepoint failed: ${failure}`);
      return;
    }
  }
}
