import { ChangelogInference } from './changelog.js';
import type { RexNode } from '../rex/rex-node.js';
import { astTree } from './explain-ast.js';
import { deduplicationOf, isInsertOnlyFirstRow } from './deduplicate.js';
import { rankStrategy, rankStrategyText } from './rank-strategy.js';
import { explainRex } from './explain-rex.js';
import type { FieldNamer } from './explain-rex.js';
import { renderTree } from './explain-tree.js';
import type { AggCall, AggregateNode, PlanNode, RankNode, ScanNode, SlicedWindowSpec, WindowFields, WindowSpec } from './plan-node.js';
import { inputsOf } from './plan-node.js';
import { matchText } from './explain-match.js';
import { scanPushDownDigests } from '../rules/scan-digest.js';
import { pushedWatermarkDigest } from './explain-watermark.js';

/** How a physical plan's expressions print: `prefix` in the optimized physical plan, `infix` in the execution plan. */
export type PhysicalStyle = 'prefix' | 'infix';

function names(n: PlanNode): FieldNamer {
  const fields = inputsOf(n)[0]?.fields ?? [];
  return (i) => fields[i]?.name ?? `$${i}`;
}

function valuesText(n: PlanNode & { kind: 'values' }, style: PhysicalStyle = 'prefix'): string {
  return `[${n.rows.map((r) => `{ ${r.map((v, i) => explainRex({ kind: 'literal', value: v, type: n.fields[i]!.type }, style, (j) => `$${j}`)).join(', ')} }`).join(', ')}]`;
}

function aggText(c: AggCall, inputNames: readonly string[]): string {
  const args = c.args.length === 0 ? '*' : c.args.map((a) => inputNames[a]).join(', ');
  const filter = c.filterArg >= 0 ? ` FILTER ${inputNames[c.filterArg]}` : '';
  return `${c.name}(${c.distinct ? 'DISTINCT ' : ''}${args})${filter} AS ${c.alias}`;
}

function aggSelect(n: AggregateNode): string {
  const inNames = n.input.fields.map((f) => f.name);
  return [...n.groupKeys.map((k) => inNames[k]!), ...n.aggCalls.map((c) => aggText(c, inNames))].join(', ');
}

/**
 * The node text Flink shows in its physical plan (`prefix` expressions) or execution plan (`infix`),
 * without the tree prefix. Also names job graph vertices and the node in changelog errors.
 */
export function physicalNodeText(n: PlanNode, mode: 'streaming' | 'batch', style: PhysicalStyle = 'prefix'): string {
  const rex = (e: RexNode, nameOf: FieldNamer): string => explainRex(e, style, nameOf, true);
  switch (n.kind) {
    case 'scan': {
      const id = n.identifier;
      const project = n.physicalIndexes === null ? [] : [`project=[${n.fields.slice(0, n.physicalIndexes.length).map((f) => f.name).join(', ')}]`];
      // A source with SupportsReadingMetadata gets Flink's ReadingMetadataSpec with any projection (`metadata=[]`
      // when the query reads none), and with the metadata columns it reads; the spec names metadata keys.
      if (n.source.applyReadableMetadata !== undefined && (n.physicalIndexes !== null || n.metadataKeys.length > 0)) project.push(`metadata=[${n.metadataKeys.join(', ')}]`);
      const watermark = pushedWatermarkDigest(n);
      // Flink pushes a watermark after the projection; filters and partitions then follow it, as they sit
      // above the watermark assigner until it is pushed.
      const digests = watermark === undefined ? [...scanPushDownDigests(n), ...project] : [...project, watermark, ...scanPushDownDigests(n)];
      return `TableSourceScan(table=[[${id.catalog}, ${id.database}, ${id.object}${digests.map((d) => `, ${d}`).join('')}]], fields=[${n.fields.map((f) => f.name).join(', ')}])`;
    }
    case 'values':
      return `Values(tuples=[${valuesText(n, style)}])`;
    case 'calc': {
      const nm = names(n);
      const sel = n.projects.map((p, i) => withAlias(rex(p, nm), n.fields[i]!.name)).join(', ');
      return `Calc(select=[${sel}]${n.condition === null ? '' : `, where=[${rex(n.condition, nm)}]`})`;
    }
    case 'aggregate': {
      const inNames = n.input.fields.map((f) => f.name);
      if (n.window !== undefined) {
        const keys = n.groupKeys.filter((k) => !/^window_(start|end)$/.test(inNames[k]!)).map((k) => inNames[k]);
        const gb = keys.length === 0 ? '' : `groupBy=[${keys.join(', ')}], `;
        const w = n.window;
        const columns = w.timeField === null ? attachedColumns(inNames[w.windowStartField]!, inNames[w.windowEndField]!) : `time_col=[${w.timeField}]`;
        return `WindowAggregate(${gb}window=[${windowTextOf(w.spec, columns)}], select=[${aggSelect(n)}])`;
      }
      const groupBy = n.groupKeys.length === 0 ? '' : `groupBy=[${n.groupKeys.map((k) => inNames[k]).join(', ')}], `;
      return mode === 'batch'
        ? `HashAggregate(isMerge=[false], ${groupBy}select=[${aggSelect(n)}])`
        : `GroupAggregate(${groupBy}select=[${aggSelect(n)}])`;
    }
    case 'union':
      return `Union(all=[true], union=[${n.fields.map((f) => f.name).join(', ')}])`;
    case 'sort': {
      const order = n.keys.map((k) => `${n.fields[k.index]!.name} ${k.descending ? 'DESC' : 'ASC'}`).join(', ');
      if (n.keys.length === 0) return `Limit(offset=[${n.offset}], fetch=[${n.fetch ?? 'unlimited'}])`;
      if (mode === 'streaming') return `TemporalSort(orderBy=[${order}])`;
      if (n.fetch === null && n.offset === 0) return `Sort(orderBy=[${order}])`;
      return `SortLimit(orderBy=[${order}], offset=[${n.offset}], fetch=[${n.fetch ?? 'unlimited'}])`;
    }
    case 'join': {
      const names = n.fields.map((f) => f.name);
      // Keys by the join's output names (`a0` for the right side's `a`), unless SEMI / ANTI drop the right side.
      const all2 = (n.fields.length === n.left.fields.length + n.right.fields.length ? n.fields : [...n.left.fields, ...n.right.fields]).map((f) => f.name);
      const eq = (l: string, r: string): string => (style === 'infix' ? `(${l} = ${r})` : `=(${l}, ${r})`);
      const lk = n.leftKeys.map((k, i) => eq(all2[k]!, all2[n.left.fields.length + n.rightKeys[i]!]!));
      const cond = n.condition === null ? [] : [rex(n.condition, (i) => names[i] ?? `$${i}`)];
      const all = [...lk, ...cond];
      const and = style === 'infix' ? `(${all.join(' AND ')})` : `AND(${all.join(', ')})`;
      const where = all.length === 0 ? 'true' : all.length === 1 ? all[0] : and;
      const jt = { INNER: 'InnerJoin', LEFT: 'LeftOuterJoin', RIGHT: 'RightOuterJoin', FULL: 'FullOuterJoin', SEMI: 'LeftSemiJoin', ANTI: 'LeftAntiJoin' }[n.joinType];
      return `Join(joinType=[${jt}], where=[${where}], select=[${names.join(', ')}], leftInputSpec=[NoUniqueKey], rightInputSpec=[NoUniqueKey])`;
    }
    case 'over': {
      const inNames = n.input.fields.map((f) => f.name);
      const frames = n.calls.map((c) => {
        const start = c.frame.preceding === null ? 'UNBOUNDED PRECEDING' : `${c.frame.preceding} PRECEDING`;
        return `${c.frame.unit} BETWEEN ${start} AND CURRENT ROW`;
      });
      const aggs = n.calls.map((c) => aggText(c.call, inNames));
      const part = n.partitionKeys.length === 0 ? '' : `partitionBy=[${n.partitionKeys.map((k) => inNames[k]).join(', ')}], `;
      return `OverAggregate(${part}orderBy=[${inNames[n.orderKey.index]} ${n.orderKey.descending ? 'DESC' : 'ASC'}], window=[${[...new Set(frames)].join(', ')}], select=[${[...inNames, ...aggs].join(', ')}])`;
    }
    case 'match':
      // Flink prints Match's expressions in prefix form in both plans, string literals untyped.
      return matchText(n, (e, texts) => explainRex(e, 'prefix', (i) => texts[i] ?? `$${i}`));
    case 'rank': {
      const inNames = n.input.fields.map((f) => f.name);
      const part = n.partitionKeys.map((k) => inNames[k]).join(', ');
      const order = n.orderKeys.map((k) => `${inNames[k.index]} ${k.descending ? 'DESC' : 'ASC'}`).join(', ');
      const dedup = deduplicationOf(n);
      if (mode === 'streaming' && n.window !== undefined) return windowRankText(n, n.window, inNames, dedup?.keep);
      if (dedup !== undefined) {
        // Flink 2.x keeps a deduplicating rank a Rank in the physical plan (its order key marked ROWTIME for event
        // time) and turns it into a Deduplicate only in the execution plan, saying there whether it emits inserts only.
        if (style === 'infix') return `Deduplicate(keep=[${dedup.keep}], key=[${part}], order=[${dedup.order}], outputInsertOnly=[${isInsertOnlyFirstRow(n, new ChangelogInference(mode).of(n.input).isInsertOnly())}])`;
        const key = n.orderKeys[0]!;
        const by = `${dedup.order === 'ROWTIME' ? 'ROWTIME ' : ''}${inNames[key.index]} ${key.descending ? 'DESC' : 'ASC'}`;
        return `Rank(strategy=[AppendFastStrategy], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=1], partitionBy=[${part}], orderBy=[${by}], select=[${inNames.join(', ')}])`;
      }
      if (n.sortLimit !== undefined) {
        // Flink's streaming SortLimit picks its strategy as a Rank does (rank-strategy.ts).
        const strategy = rankStrategyText(rankStrategy(n, new ChangelogInference(mode)));
        return `SortLimit(orderBy=[${order}], offset=[${n.sortLimit.offset}], fetch=[${n.sortLimit.fetch}], strategy=[${strategy}])`;
      }
      const range = n.limit === null ? 'rankStart=1' : `rankStart=1, rankEnd=${n.limit}`;
      // Flink's RankProcessStrategy (rank-strategy.ts): AppendFast over inserts, UpdateFast over updates that only move rows up.
      const strategy = mode === 'streaming' ? rankStrategyText(rankStrategy(n, new ChangelogInference(mode))) : 'RetractStrategy';
      return `Rank(strategy=[${strategy}], rankType=[${n.rankType ?? 'ROW_NUMBER'}], rankRange=[${range}], partitionBy=[${part}], orderBy=[${order}], select=[${n.fields.map((f) => f.name).join(', ')}])`;
    }
    case 'lookup-join': {
      const id = n.identifier;
      const inNames = n.input.fields.map((f) => f.name);
      const lookup = n.rightKeys.map((k, i) => `${n.rightFields[k]!.name}=${inNames[n.leftKeys[i]!]}`).join(', ');
      const where = n.condition === null ? '' : `, where=[${rex(n.condition, (i) => n.fields[i]?.name ?? `$${i}`)}]`;
      return `LookupJoin(table=[${id.catalog}.${id.database}.${id.object}], joinType=[${n.joinType === 'LEFT' ? 'LeftOuterJoin' : 'InnerJoin'}], lookup=[${lookup}]${where}, select=[${n.fields.map((f) => f.name).join(', ')}])`;
    }
    case 'unnest': {
      const inNames = n.input.fields.map((f) => f.name);
      return `Correlate(invocation=[$UNNEST_ROWS$1(${rex(n.collection, (i) => inNames[i] ?? `$${i}`)})], select=[${n.fields.map((f) => f.name).join(', ')}], joinType=[${n.keepEmpty ? 'LEFT' : 'INNER'}])`;
    }
    case 'local-window-aggregate': {
      const inNames = n.input.fields.map((f) => f.name);
      const gb = n.groupKeys.length === 0 ? '' : `groupBy=[${n.groupKeys.map((k) => inNames[k]).join(', ')}], `;
      const calls = n.aggCalls.map((c, i) => aggText({ ...c, alias: n.accNames[i]! }, inNames));
      const select = [...n.groupKeys.map((k) => inNames[k]!), ...calls, "slice_end('w$) AS $slice_end"];
      return `LocalWindowAggregate(${gb}window=[${windowText(n.window, inNames[n.timeIndex]!)}], select=[${select.join(', ')}])`;
    }
    case 'global-window-aggregate': {
      const inNames = n.input.fields.map((f) => f.name);
      const keys = n.keys.flatMap((k) => (k.kind === 'field' ? [inNames[k.index]!] : []));
      const gb = keys.length === 0 ? '' : `groupBy=[${keys.join(', ')}], `;
      const accs = n.input.kind === 'local-window-aggregate' ? n.input.accNames : n.aggCalls.map((c) => c.alias);
      const calls = n.aggCalls.map((c, i) => `${c.name}(${accs[i]}) AS ${c.alias}`);
      // Flink lists the window properties after the calls: start('w$) / end('w$) under the key's output name.
      const props = n.keys.flatMap((k, i) => (k.kind === 'start' ? [`start('w$) AS ${n.fields[i]!.name}`] : k.kind === 'end' ? [`end('w$) AS ${n.fields[i]!.name}`] : []));
      return `GlobalWindowAggregate(${gb}window=[${globalWindowText(n.window)}], select=[${[...keys, ...calls, ...props].join(', ')}])`;
    }
    case 'window-tvf':
      return `WindowTableFunction(window=[${windowText(n.window, n.input.fields[n.timeIndex]!.name)}])`;
    case 'changelog-normalize':
      return `ChangelogNormalize(key=[${n.uniqueKeys.map((k) => n.input.fields[k]!.name).join(', ')}])`;
    case 'sink': {
      const id = n.identifier;
      return `Sink(table=[${id.catalog}.${id.database}.${id.object}], fields=[${n.input.fields.map((f) => f.name).join(', ')}])`;
    }
    default: {
      const never: never = n;
      return never;
    }
  }
}

function withAlias(text: string, name: string): string {
  return text === name ? text : `${text} AS ${name}`;
}

function duration(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

function windowText(w: WindowSpec, timeField: string): string {
  return windowTextOf(w, `time_col=[${timeField}]`);
}

/** How Flink names a window read from window_start / window_end columns (its WindowAttachedWindowingStrategy). */
function attachedColumns(start: string, end: string): string {
  return `win_start=[${start}], win_end=[${end}]`;
}

/** A window as Flink prints it, `columns` saying where rows find it (`time_col=[ts]`, or attachedColumns). */
function windowTextOf(w: WindowSpec, columns: string): string {
  const off = w.offset === 0 ? '' : `, offset=[${duration(w.offset)}]`;
  switch (w.kind) {
    case 'TUMBLE':
      return `TUMBLE(${columns}, size=[${duration(w.size)}]${off})`;
    case 'HOP':
      return `HOP(${columns}, size=[${duration(w.size)}], slide=[${duration(w.slide)}]${off})`;
    case 'CUMULATE':
      return `CUMULATE(${columns}, max_size=[${duration(w.size)}], step=[${duration(w.step)}]${off})`;
    case 'SESSION':
      return `SESSION(${columns}, gap=[${duration(w.gap)}])`;
    default: {
      const never: never = w;
      return never;
    }
  }
}

/**
 * A streaming window Top-N (`WindowRank`) or, for a Top-1 on a time attribute without the rank number, a window
 * deduplication (`WindowDeduplicate`, `keep` given), both printed alike in the physical and the execution plan;
 * the window columns are not among the partition keys shown. Flink 2.3 prints `order=[ROWTIME]` for an order on a
 * PROCTIME() column too.
 */
function windowRankText(n: RankNode, w: WindowFields, inNames: readonly string[], keep: 'FirstRow' | 'LastRow' | undefined): string {
  const window = windowTextOf(w.spec, attachedColumns(inNames[w.startField]!, inNames[w.endField]!));
  const part = n.partitionKeys.filter((k) => k !== w.startField && k !== w.endField).map((k) => inNames[k]).join(', ');
  if (keep !== undefined) {
    const key = inNames[n.orderKeys[0]!.index];
    return `WindowDeduplicate(window=[${window}], keep=[${keep}], partitionKeys=[${part}], orderKey=[${key}], order=[ROWTIME])`;
  }
  const order = n.orderKeys.map((k) => `${inNames[k.index]} ${k.descending ? 'DESC' : 'ASC'}`).join(', ');
  return `WindowRank(window=[${window}], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=${n.limit}], partitionBy=[${part}], orderBy=[${order}], select=[${n.fields.map((f) => f.name).join(', ')}])`;
}

/** The window of a global window aggregate: its slices are named by the `$slice_end` column of its input. */
function globalWindowText(w: SlicedWindowSpec): string {
  const off = w.offset === 0 ? '' : `, offset=[${duration(w.offset)}]`;
  switch (w.kind) {
    case 'TUMBLE':
      return `TUMBLE(slice_end=[$slice_end], size=[${duration(w.size)}]${off})`;
    case 'HOP':
      return `HOP(slice_end=[$slice_end], size=[${duration(w.size)}], slide=[${duration(w.slide)}]${off})`;
    case 'CUMULATE':
      return `CUMULATE(slice_end=[$slice_end], max_size=[${duration(w.size)}], step=[${duration(w.step)}]${off})`;
    default: {
      const never: never = w;
      return never;
    }
  }
}

/** The unoptimized logical plan in Calcite's notation (the "Abstract Syntax Tree" section). */
export function explainLogical(root: PlanNode): string {
  return renderTree(astTree(root));
}

/** The AST's LogicalTableScan line of a scan (explain-ast.ts puts it under its watermark assigner). */
export function logicalScanText(n: ScanNode): string {
  const lines: string[] = [];
  const walk = (n: ScanNode, indent: string): void => {
    switch (n.kind) {
      case 'scan': {
        const id = n.identifier;
        lines.push(`${indent}LogicalTableScan(table=[[${id.catalog}, ${id.database}, ${id.object}]])`);
        return;
      }
    }
  };
  walk(n, '');
  return lines[0]!;
}
