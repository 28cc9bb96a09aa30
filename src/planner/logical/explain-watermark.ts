import { parseDuration } from '../../config/units.js';
import { call, inputRef, literal, rewriteInputRefs } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { DataTypes } from '../../types/data-types.js';
import { explainRex } from './explain-rex.js';
import type { RexStyle } from './explain-rex.js';
import type { CalcNode, PlanField, PlanNode, ScanNode, WatermarkAssignment } from './plan-node.js';

/*
 * Where Flink shows a table's watermark. Sluice always evaluates the watermark inside the source task
 * (the scan's WatermarkAssignment), but EXPLAIN prints what Flink's plan would be: a source with
 * SupportsWatermarkPushDown gets it in its table digest (`watermark=[...], watermarkEmitStrategy=[...]`);
 * any other source gets a separate WatermarkAssigner node above the scan (above a Calc computing the
 * fields it needs), which is where Flink, not Sluice, would evaluate it.
 */

type WatermarkedScan = ScanNode & { watermark: WatermarkAssignment };

/** True if the scan declares a watermark that Flink would evaluate in a WatermarkAssigner node. */
export function hasWatermarkAssigner(n: PlanNode): n is WatermarkedScan {
  return n.kind === 'scan' && n.watermark !== null && n.source.supportsWatermarkPushDown !== true;
}

/** The rowtime column's name (the DDL's `WATERMARK FOR <name>`). */
function rowtimeName(n: WatermarkedScan): string {
  const declared = n.table.schema.watermarkSpecs[0]?.rowtimeAttribute;
  if (declared !== undefined) return declared;
  const rt = n.watermark.rowtime;
  return rt.kind === 'input-ref' ? rt.name : 'rowtime';
}

/** `rowtime - delay`, the delay typed in the unit the DDL wrote (`INTERVAL '1' SECOND`), as Calcite types the literal. */
function bounded(rowtime: RexNode, wm: WatermarkAssignment & { kind: 'bounded' }): RexNode {
  if (wm.delayMs === 0) return rowtime;
  const unit = /INTERVAL\s+'[^']*'\s+([A-Z]+)/i.exec(wm.text)?.[1]?.toUpperCase().replace(/S$/, '') ?? 'SECOND';
  const resolution = (['DAY', 'HOUR', 'MINUTE', 'SECOND'] as const).find((u) => u === unit) ?? 'SECOND';
  return call('-', [rowtime, literal(wm.delayMs, DataTypes.INTERVAL_DAY_TIME(resolution))], rowtime.type);
}

/** The watermark expression over the scan's output fields, computed columns inlined (the pushed-down form). */
function overScanFields(n: WatermarkedScan): RexNode {
  const wm = n.watermark;
  if (wm.declared === undefined || wm.rowtimeIndex === undefined) return wm.kind === 'bounded' ? bounded(wm.rowtime, wm) : wm.expr;
  const columns = n.table.schema.columns;
  return rewriteInputRefs(wm.declared, (ref) => {
    if (ref.index === wm.rowtimeIndex) return wm.rowtime;
    const i = n.fields.findIndex((f) => f.name === columns[ref.index]?.name);
    return i < 0 ? ref : inputRef(i, n.fields[i]!.name, ref.type);
  });
}

/** The watermark over the table's columns (`$i` = schema column i), as the AST's LogicalWatermarkAssigner reads it. */
function overTableColumns(n: WatermarkedScan): RexNode {
  const wm = n.watermark;
  if (wm.declared !== undefined) return wm.declared;
  return overScanFields(n);
}

/** `LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($3, 1000:INTERVAL SECOND)])` of the AST. */
export function logicalWatermarkAssignerText(n: ScanNode): string {
  if (n.watermark === null) throw new Error('scan without watermark');
  const s = n as WatermarkedScan;
  return `LogicalWatermarkAssigner(rowtime=[${rowtimeName(s)}], watermark=[${explainRex(overTableColumns(s), 'calcite', (i) => `$${i}`)}])`;
}

/**
 * The table digest part of a watermark pushed into the source (Flink's WatermarkPushDownSpec), or undefined
 * when the source does not take it. Expressions always print in prefix form, as Flink's digests do.
 */
export function pushedWatermarkDigest(n: ScanNode): string | undefined {
  if (n.watermark === null || n.source.supportsWatermarkPushDown !== true) return undefined;
  const s = n as WatermarkedScan;
  const expr = explainRex(overScanFields(s), 'prefix', (i) => n.fields[i]?.name ?? `$${i}`);
  const idle = parseDuration(n.table.options['scan.watermark.idle-timeout'] ?? '') ?? 0;
  const strategy = n.table.options['scan.watermark.emit.strategy']?.trim().toLowerCase() || 'on-periodic';
  return `watermark=[${expr}]${idle > 0 ? `, idletimeout=[${idle}]` : ''}, watermarkEmitStrategy=[${strategy}]`;
}

/** A source without watermark push-down as Flink's optimized plan shows it (see the file comment). */
export interface WatermarkAssignerView {
  /** The consumer's projection and filter over the assigner's output; null when it is a plain pass-through. */
  readonly upper: CalcNode | null;
  /** `WatermarkAssigner(...)` in the given style. */
  readonly text: (style: RexStyle) => string;
  /** The fields the assigner needs, the rowtime computed; null when the scan's output is exactly that. */
  readonly lower: CalcNode | null;
  readonly scan: ScanNode;
}

const key = (r: RexNode): string => explainRex(r, 'calcite', (i) => `$${i}`);

/**
 * The view of `calc(scan)` read by an OVER window or a rank (which Flink plans from an OVER): Flink's projection
 * push-down never passes the WatermarkAssigner there, so the table's computed columns are evaluated below the
 * assigner, every column in schema order, and the consumer's projection sits above it as references
 * (test/planner/flink-explain-goldens/dedup-proctime-first-row.changelog.txt).
 */
function computedBelowView(consumer: CalcNode, scan: WatermarkedScan, exprs: readonly RexNode[]): WatermarkAssignerView {
  const columns = scan.table.schema.columns;
  const scanField = (name: string): number => scan.fields.findIndex((f) => f.name === name);
  const lowerProjects = exprs.map((e) => rewriteInputRefs(e, (ref) => inputRef(scanField(ref.name), ref.name, ref.type)));
  const lowerFields: PlanField[] = columns.map((c) => ({ name: c.name, type: c.type }));
  const lower: CalcNode = { kind: 'calc', input: scan, projects: lowerProjects, condition: null, fields: lowerFields };
  const computedAt = new Map<string, number>();
  lowerProjects.forEach((p, i) => p.kind !== 'input-ref' && computedAt.set(key(p), i));
  const column = (name: string): number => columns.findIndex((c) => c.name === name);
  const overLower = (r: RexNode): RexNode => {
    if (r.kind === 'input-ref') return inputRef(column(scan.fields[r.index]?.name ?? r.name), r.name, r.type);
    const at = computedAt.get(key(r));
    if (at !== undefined) return inputRef(at, lowerFields[at]!.name, r.type);
    return r.kind === 'call' ? { ...r, operands: r.operands.map(overLower) } : r;
  };
  const projects = consumer.projects.map(overLower);
  const identity =
    consumer.condition === null && projects.length === lowerFields.length && projects.every((p, i) => p.kind === 'input-ref' && p.index === i && consumer.fields[i]!.name === lowerFields[i]!.name);
  const upper: CalcNode | null = identity ? null : { ...consumer, input: lower, projects, condition: consumer.condition === null ? null : overLower(consumer.condition) };
  const wm = scan.watermark;
  const expr = wm.declared ?? rewriteInputRefs(overScanFields(scan), (ref) => inputRef(column(scan.fields[ref.index]?.name ?? ref.name), ref.name, ref.type));
  const names = lowerFields.map((f) => f.name);
  const text = (style: RexStyle): string => `WatermarkAssigner(rowtime=[${rowtimeName(scan)}], watermark=[${explainRex(expr, style, (i) => names[i] ?? `$${i}`)}])`;
  return { upper, text, lower, scan };
}

/**
 * Splits `calc(scan)` (or a bare scan) whose scan has a watermark but no push-down into Flink's
 * Calc -> WatermarkAssigner -> Calc -> TableSourceScan; undefined for any other node. The lower Calc keeps
 * the table columns the consumer reads plus the rowtime, in schema order (Flink transposes the projection
 * below the assigner); computed columns other than the rowtime stay inlined in the upper Calc.
 */
export function watermarkAssignerView(n: PlanNode, underOver = false): WatermarkAssignerView | undefined {
  const consumer = n.kind === 'calc' && hasWatermarkAssigner(n.input) ? n : null;
  const scan = consumer === null ? n : consumer.input;
  if (!hasWatermarkAssigner(scan)) return undefined;
  if (underOver && consumer !== null && scan.columnExprs !== undefined) return computedBelowView(consumer, scan, scan.columnExprs);
  const wm = scan.watermark;
  // Insertion order is the order of first use, which the lower Calc keeps (below).
  const used = new Set<number>();
  // A computed rowtime is read from the assigner's output, not recomputed from what it reads.
  const rtKey = wm.rowtime.kind !== 'input-ref' ? key(wm.rowtime) : undefined;
  const read = (r: RexNode): void => {
    if (rtKey !== undefined && key(r) === rtKey) return;
    if (r.kind === 'input-ref') used.add(r.index);
    else if (r.kind === 'call') r.operands.forEach(read);
  };
  if (consumer === null) scan.fields.forEach((_, i) => used.add(i));
  else [...consumer.projects, ...(consumer.condition === null ? [] : [consumer.condition])].forEach(read);
  const columns = scan.table.schema.columns;
  const rtIndex = wm.rowtimeIndex ?? columns.findIndex((c) => c.name === rowtimeName(scan));
  const rtComputed = wm.rowtime.kind !== 'input-ref';
  const fieldOf = (column: number): number => scan.fields.findIndex((f) => f.name === columns[column]?.name);
  // The assigner reads the rowtime and the stored columns its expression names (not what a computed rowtime reads).
  if (wm.declared === undefined) read(overScanFields(scan));
  else {
    const cols = new Set<number>([rtIndex]);
    const collect = (r: RexNode): void => {
      if (r.kind === 'input-ref') cols.add(r.index);
      else if (r.kind === 'call') r.operands.forEach(collect);
    };
    collect(wm.declared);
    for (const j of cols) if (!(j === rtIndex && rtComputed) && fieldOf(j) >= 0) used.add(fieldOf(j));
  }
  const lowerProjects: RexNode[] = [];
  const lowerFields: PlanField[] = [];
  const position = new Map<number, number>();
  let rtPosition = -1;
  if (!rtComputed && consumer !== null && consumer.condition === null) {
    // Flink's ProjectWatermarkAssignerTransposeRule puts below the assigner the fields the projection reads in the
    // order it first reads them, then those the watermark reads (RexNodeExtractor.extractRefInputFields):
    // `SELECT amount, user` over (user, product, amount, ts) reads [amount, user, ts] (Flink 2.3.0, table.q). A
    // filter between them stops the rule: the fields stay in table order.
    for (const k of used) {
      position.set(k, lowerProjects.length);
      lowerProjects.push(inputRef(k, scan.fields[k]!.name, scan.fields[k]!.type));
      lowerFields.push(scan.fields[k]!);
    }
  }
  // Otherwise the lower Calc's outputs in table order: scan fields by name, the rowtime computed where it is declared.
  if (lowerProjects.length === 0) columns.forEach((c, j) => {
    if (j === rtIndex && rtComputed) {
      rtPosition = lowerProjects.length;
      lowerProjects.push(wm.rowtime);
      lowerFields.push({ name: c.name, type: wm.rowtime.type });
      return;
    }
    const k = fieldOf(j);
    if (k < 0 || !used.has(k)) return;
    position.set(k, lowerProjects.length);
    lowerProjects.push(inputRef(k, scan.fields[k]!.name, scan.fields[k]!.type));
    lowerFields.push(scan.fields[k]!);
  });
  const lowerIdentity = !rtComputed && lowerProjects.length === scan.fields.length && lowerProjects.every((p) => p.kind === 'input-ref' && position.get(p.index) === p.index);
  const lower: CalcNode | null = lowerIdentity ? null : { kind: 'calc', input: scan, projects: lowerProjects, condition: null, fields: lowerFields };
  const below: PlanNode = lower ?? scan;
  const overAssigner = (r: RexNode): RexNode => {
    if (rtKey !== undefined && key(r) === rtKey) return inputRef(rtPosition, lowerFields[rtPosition]!.name, r.type);
    if (r.kind === 'input-ref') return inputRef(position.get(r.index) ?? r.index, r.name, r.type);
    return r.kind === 'call' ? { ...r, operands: r.operands.map(overAssigner) } : r;
  };
  let upper: CalcNode | null = null;
  if (consumer !== null) {
    const projects = consumer.projects.map(overAssigner);
    const identity =
      consumer.condition === null &&
      projects.length === below.fields.length &&
      projects.every((p, i) => p.kind === 'input-ref' && p.index === i && consumer.fields[i]!.name === below.fields[i]!.name);
    if (!identity) upper = { ...consumer, input: below, projects, condition: consumer.condition === null ? null : overAssigner(consumer.condition) };
  }
  const names = below.fields.map((f) => f.name);
  const exprOverBelow = overAssigner(overScanFields(scan));
  const text = (style: RexStyle): string =>
    `WatermarkAssigner(rowtime=[${rowtimeName(scan)}], watermark=[${explainRex(exprOverBelow, style, (i) => names[i] ?? `$${i}`)}])`;
  return { upper, text, lower, scan };
}
