import dagre from '@dagrejs/dagre';
import type { PlanNode } from './api.js';
import { setText, svg } from './dom.js';

/** What a node of the graph shows; updated in place on every refresh. */
export interface NodeStats {
  readonly recordsIn: string;
  readonly recordsOut: string;
  readonly watermark: string;
  readonly backpressure: 'ok' | 'low' | 'high' | undefined;
  /** The busiest subtask's share of time busy, and the most back-pressured one's, 0 to 1; undefined when not measured. */
  readonly busy: number | undefined;
  readonly backPressured: number | undefined;
  /** The vertex's state in the newest completed checkpoint, as shown ('–' before one). */
  readonly stateSize: string;
}

/**
 * A node's fill by how busy its busiest subtask is, as Flink's graph colours it: from pale blue (idle) to
 * pale red (busy all the time). Set as the SVG attribute (the page's CSP allows no inline styles).
 */
export function busyFill(busy: number | undefined): string {
  if (busy === undefined) return '#ffffff';
  const b = Math.min(1, Math.max(0, busy));
  return `hsl(${Math.round(210 * (1 - b))}, 80%, ${Math.round(97 - 10 * b)}%)`;
}

const WIDTH = 270;
const LINE = 18;
const LINES = 8;
const HEIGHT = LINES * LINE + 14;
const NAME_CHARS = 32;

function percent(share: number | undefined): string {
  return share === undefined ? '–' : `${Math.round(share * 100)} %`;
}

/**
 * A vertex's name as a node can show it: the operator kinds of its chain, with the table of a scan or sink
 * ("Source: orders → Calc → Sink: totals"), instead of the planner's full description (kept in the tooltip
 * and the vertex table).
 */
export function shortName(description: string): string {
  return description
    .split(' -> ')
    .map((part) => {
      const kind = part.includes('(') ? part.slice(0, part.indexOf('(')) : part;
      if (kind === 'TableSourceScan') {
        // table=[[catalog, database, name, then pushed-down watermark, filter, ...]]
        const table = /table=\[\[[^,\]]+,\s*[^,\]]+,\s*([^,\]]+)/.exec(part)?.[1];
        return table === undefined ? 'Source' : `Source: ${table.trim()}`;
      }
      if (kind === 'Sink') {
        const table = /table=\[([^\]]+)\]/.exec(part)?.[1];
        return table === undefined ? 'Sink' : `Sink: ${table.split('.').at(-1)!.trim()}`;
      }
      return kind.trim();
    })
    .join(' → ');
}

/**
 * The job graph as an SVG: dagre lays the vertices out left to right once (the plan does not change while a
 * job runs), then only the texts change. Each node's full name is in its <title>; the vertex table below
 * the graph carries the same numbers for screen readers.
 */
export class JobGraphView {
  readonly element: SVGSVGElement;
  private readonly nodes = new Map<string, { group: SVGGElement; rect: SVGRectElement; lines: SVGTextElement[]; backpressure: string }>();
  private selected: string | undefined;

  /** `onSelect` is called with a vertex's id when its node is clicked, or Enter or Space is pressed on it. */
  constructor(plan: readonly PlanNode[], onSelect: (vertexId: string) => void = () => {}) {
    const g = new dagre.graphlib.Graph();
    g.setGraph({ rankdir: 'LR', nodesep: 28, ranksep: 70, marginx: 12, marginy: 12 });
    g.setDefaultEdgeLabel(() => ({}));
    for (const n of plan) g.setNode(n.id, { width: WIDTH, height: HEIGHT });
    for (const n of plan) for (const input of n.inputs ?? []) g.setEdge(input.id, n.id, { label: input.ship_strategy, width: 80, height: 16 });
    dagre.layout(g);
    const size = g.graph();
    const width = Math.ceil(size.width ?? WIDTH);
    const height = Math.ceil(size.height ?? HEIGHT);
    this.element = svg('svg', { class: 'graph', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `Job graph with ${plan.length} vertices` });
    this.element.append(
      svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' }, svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow' }))),
    );
    for (const e of g.edges()) {
      const edge = g.edge(e);
      const points: readonly { x: number; y: number }[] = edge.points ?? [];
      const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
      const group = svg('g', { class: 'edge' }, svg('path', { d, 'marker-end': 'url(#arrow)' }));
      if (edge.x !== undefined && edge.y !== undefined) group.append(svg('text', { x: edge.x, y: edge.y + 4, 'text-anchor': 'middle' }, String(edge.label ?? '')));
      this.element.append(group);
    }
    for (const n of plan) {
      const pos = g.node(n.id);
      const x = pos.x - WIDTH / 2;
      const y = pos.y - HEIGHT / 2;
      const short = shortName(n.description);
      const name = short.length > NAME_CHARS ? `${short.slice(0, NAME_CHARS - 1)}…` : short;
      const lines = Array.from({ length: LINES }, (_, i) => svg('text', { x: x + 10, y: y + 20 + i * LINE, class: i === 0 ? 'name' : '' }));
      setText(lines[0]!, name);
      setText(lines[1]!, `Parallelism ${n.parallelism}`);
      const rect = svg('rect', { x, y, width: WIDTH, height: HEIGHT, rx: 6, fill: busyFill(undefined) });
      const group = svg('g', { class: 'node', 'data-vertex': n.id, tabindex: 0, role: 'button', 'aria-label': `${short}: show its subtasks` }, svg('title', {}, n.description), rect, ...lines);
      group.addEventListener('click', () => onSelect(n.id));
      group.addEventListener('keydown', (e) => {
        if (e.key !== 'Enter' && e.key !== ' ') return;
        e.preventDefault();
        onSelect(n.id);
      });
      this.element.append(group);
      this.nodes.set(n.id, { group, rect, lines, backpressure: 'none' });
    }
  }

  update(vertexId: string, stats: NodeStats): void {
    const n = this.nodes.get(vertexId);
    if (n === undefined) return;
    setText(n.lines[2]!, `In ${stats.recordsIn}`);
    setText(n.lines[3]!, `Out ${stats.recordsOut}`);
    setText(n.lines[4]!, `Watermark ${stats.watermark}`);
    setText(n.lines[5]!, `Back-pressure ${stats.backpressure ?? '–'}`);
    setText(n.lines[6]!, `Busy ${percent(stats.busy)} · back-pressured ${percent(stats.backPressured)}`);
    setText(n.lines[7]!, `State ${stats.stateSize}`);
    n.backpressure = stats.backpressure ?? 'none';
    this.style(vertexId);
    const fill = busyFill(stats.busy);
    if (n.rect.getAttribute('fill') !== fill) n.rect.setAttribute('fill', fill);
  }

  /** Marks the node whose subtasks are shown (none: undefined). */
  select(vertexId: string | undefined): void {
    const before = this.selected;
    this.selected = vertexId;
    if (before !== undefined) this.style(before);
    if (vertexId !== undefined) this.style(vertexId);
  }

  private style(vertexId: string): void {
    const n = this.nodes.get(vertexId);
    if (n === undefined) return;
    const cls = `node bp-${n.backpressure}${vertexId === this.selected ? ' selected' : ''}`;
    if (n.group.getAttribute('class') !== cls) n.group.setAttribute('class', cls);
  }
}
