import { formatValue } from '../../types/values/format-value.js';
import { isRowtimeAttribute, isTimeAttribute } from '../../types/logical-type.js';
import type { ChangelogMode } from '../../factories/changelog-mode.js';
import { rexToString } from '../rex/rex-to-string.js';
import type { RexNode } from '../rex/rex-node.js';
import type { AggCall, AggregateNode, PlanNode, WindowSpec } from './plan-node.js';
import { inputsOf } from './plan-node.js';
import { scanPushDownDigests } from '../rules/scan-digest.js';

function tree(node: PlanNode, line: (n: PlanNode) => string[], prefix = '', out: string[] = []): string[] {
  const lines = line(node);
  lines.forEach((l, i) => out.push((i === 0 ? prefix : prefix.replace(/\+- $/, '   ').replace(/:- $/, ':  ')) + l));
  const inputs = inputsOf(node);
  const base = prefix.replace(/\+- $/, '   ').replace(/:- $/, ':  ');
  inputs.forEach((c, i) => {
    // Extra lines (an Exchange under a node) shift the children one level deeper.
    const depth = lines.length - 1;
    const childBase = base + '   '.repeat(depth);
    tree(c, line, childBase + (i === inputs.length - 1 ? '+- ' : ':- '), out);
  });
  return out;
}

function names(n: PlanNode): (i: number, name: string) => string {
  const fields = inputsOf(n)[0]?.fields ?? [];
  return (i) => fields[i]?.name ?? `$${i}`;
}

function valuesText(n: PlanNode & { kind: 'values' }): string {
  return `[${n.rows.map((r) => `{ ${r.map((v, i) => (typeof v === 'string' ? `'${v}'` : formatValue(v, n.fields[i]!.type))).join(', ')} }`).join(', ')}]`;
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

/** The node text Flink shows in its physical plan, without the tree prefix. */
export function physicalNodeText(n: PlanNode, mode: 'streaming' | 'batch'): string {
  switch (n.kind) {
    case 'scan': {
      const id = n.identifier;
      const extra = n.watermark === null ? '' : `, watermark=[${n.watermark.text}]`;
      return `TableSourceScan(table=[[${id.catalog}, ${id.database}, ${id.object}${scanPushDownDigests(n).map((d) => `, ${d}`).join('')}${n.physicalIndexes === null ? '' : `, project=[${n.fields.map((f) => f.name).join(', ')}]`}]], fields=[${n.fields.map((f) => f.name).join(', ')}]${extra})`;
    }
    case 'values':
      return `Values(tuples=[${valuesText(n)}])`;
    case 'calc': {
      const nm = names(n);
      const sel = n.projects.map((p, i) => exprWithAlias(p, n.fields[i]!.name, nm)).join(', ');
      return `Calc(select=[${sel}]${n.condition === null ? '' : `, where=[${rexToString(n.condition, nm)}]`})`;
    }
    case 'aggregate': {
      const inNames = n.input.fields.map((f) => f.name);
      if (n.window !== undefined) {
        const keys = n.groupKeys.filter((k) => !/^window_(start|end)$/.test(inNames[k]!)).map((k) => inNames[k]);
        const gb = keys.length === 0 ? '' : `groupBy=[${keys.join(', ')}], `;
        return `WindowAggregate(${gb}window=[${windowText(n.window.spec, n.window.timeField)}], select=[${aggSelect(n)}])`;
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
      const all2 = [...n.left.fields, ...n.right.fields].map((f) => f.name);
      const lk = n.leftKeys.map((k, i) => `=(${all2[k]}, ${all2[n.left.fields.length + n.rightKeys[i]!]})`);
      const cond = n.condition === null ? [] : [rexToString(n.condition, (i) => names[i] ?? `$${i}`)];
      const all = [...lk, ...cond];
      const where = all.length === 0 ? 'true' : all.length === 1 ? all[0] : `AND(${all.join(', ')})`;
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
    case 'rank': {
      const inNames = n.input.fields.map((f) => f.name);
      const part = n.partitionKeys.map((k) => inNames[k]).join(', ');
      const order = n.orderKeys.map((k) => `${inNames[k.index]} ${k.descending ? 'DESC' : 'ASC'}`).join(', ');
      const timeOrdered = n.orderKeys.length === 1 && isTimeAttribute(n.input.fields[n.orderKeys[0]!.index]!.type);
      if (timeOrdered && n.limit === 1 && !n.outputRankNumber) {
        return `Deduplicate(keep=[${n.orderKeys[0]!.descending ? 'LastRow' : 'FirstRow'}], key=[${part}], order=[${isRowtimeAttribute(n.input.fields[n.orderKeys[0]!.index]!.type) ? 'ROWTIME' : 'PROCTIME'}])`;
      }
      const range = n.limit === null ? 'rankStart=1' : `rankStart=1, rankEnd=${n.limit}`;
      const name = mode === 'batch' ? 'Rank' : 'Rank';
      return `${name}(strategy=[RetractStrategy], rankType=[${n.rankType ?? 'ROW_NUMBER'}], rankRange=[${range}], partitionBy=[${part}], orderBy=[${order}], select=[${n.fields.map((f) => f.name).join(', ')}])`;
    }
    case 'lookup-join': {
      const id = n.identifier;
      const inNames = n.input.fields.map((f) => f.name);
      const lookup = n.rightKeys.map((k, i) => `${n.rightFields[k]!.name}=${inNames[n.leftKeys[i]!]}`).join(', ');
      const where = n.condition === null ? '' : `, where=[${rexToString(n.condition, (i) => n.fields[i]?.name ?? `$${i}`)}]`;
      return `LookupJoin(table=[${id.catalog}.${id.database}.${id.object}], joinType=[${n.joinType === 'LEFT' ? 'LeftOuterJoin' : 'InnerJoin'}], lookup=[${lookup}]${where}, select=[${n.fields.map((f) => f.name).join(', ')}])`;
    }
    case 'unnest': {
      const inNames = n.input.fields.map((f) => f.name);
      return `Correlate(invocation=[$UNNEST_ROWS$1(${rexToString(n.collection, (i) => inNames[i] ?? `$${i}`)})], select=[${n.fields.map((f) => f.name).join(', ')}], joinType=[${n.keepEmpty ? 'LEFT' : 'INNER'}])`;
    }
    case 'window-tvf':
      return `WindowTableFunction(window=[${windowText(n.window, n.input.fields[n.timeIndex]!.name)}])`;
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

function exprWithAlias(p: RexNode, name: string, nm: (i: number, name: string) => string): string {
  const s = rexToString(p, nm);
  return s === name ? s : `${s} AS ${name}`;
}

function duration(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

function windowText(w: WindowSpec, timeField: string): string {
  const off = w.offset === 0 ? '' : `, offset=[${duration(w.offset)}]`;
  switch (w.kind) {
    case 'TUMBLE':
      return `TUMBLE(time_col=[${timeField}], size=[${duration(w.size)}]${off})`;
    case 'HOP':
      return `HOP(time_col=[${timeField}], size=[${duration(w.size)}], slide=[${duration(w.slide)}]${off})`;
    case 'CUMULATE':
      return `CUMULATE(time_col=[${timeField}], max_size=[${duration(w.size)}], step=[${duration(w.step)}]${off})`;
    case 'SESSION':
      return `SESSION(time_col=[${timeField}], gap=[${duration(w.gap)}])`;
    default: {
      const never: never = w;
      return never;
    }
  }
}

/** The exchange Flink puts in front of a node, if any (joins: one per input, see explainPhysical). */
function exchangeText(n: PlanNode): string | undefined {
  switch (n.kind) {
    case 'aggregate': {
      if (n.groupKeys.length === 0) return 'Exchange(distribution=[single])';
      const inNames = n.input.fields.map((f) => f.name);
      return `Exchange(distribution=[hash[${n.groupKeys.map((k) => inNames[k]).join(', ')}]])`;
    }
    case 'sort':
      return 'Exchange(distribution=[single])';
    case 'over':
    case 'rank': {
      if (n.partitionKeys.length === 0) return 'Exchange(distribution=[single])';
      const inNames = n.input.fields.map((f) => f.name);
      return `Exchange(distribution=[hash[${n.partitionKeys.map((k) => inNames[k]).join(', ')}]])`;
    }
    default:
      return undefined;
  }
}

/** The optimized plan as Flink's EXPLAIN prints it; with `changelog`, each node's mode is appended. */
export function explainPhysical(root: PlanNode, mode: 'streaming' | 'batch', changelog?: (n: PlanNode) => ChangelogMode): string {
  return tree(root, (n) => {
    const text = physicalNodeText(n, mode);
    const withMode = changelog === undefined ? text : `${text.slice(0, -1)}, changelogMode=[${changelog(n).toString().slice(1, -1)}])`;
    const ex = exchangeText(n);
    return ex === undefined ? [withMode] : [withMode, `+- ${ex}`];
  }).join('\n');
}

/** The unoptimized logical plan in Calcite's notation (the "Abstract Syntax Tree" section). */
export function explainLogical(root: PlanNode): string {
  const lines: string[] = [];
  const walk = (n: PlanNode, indent: string): void => {
    const dollar = (i: number): string => `$${i}`;
    switch (n.kind) {
      case 'scan': {
        const id = n.identifier;
        lines.push(`${indent}LogicalTableScan(table=[[${id.catalog}, ${id.database}, ${id.object}]])`);
        return;
      }
      case 'values':
        lines.push(`${indent}LogicalValues(tuples=[${valuesText(n)}])`);
        return;
      case 'calc': {
        const isIdentity = n.projects.every((p, i) => p.kind === 'input-ref' && p.index === i) && n.projects.length === n.input.fields.length;
        let child = indent;
        if (!isIdentity || n.condition === null) {
          lines.push(`${indent}LogicalProject(${n.projects.map((p, i) => `${n.fields[i]!.name}=[${rexToString(p, dollar)}]`).join(', ')})`);
          child = indent + '  ';
        }
        if (n.condition !== null) {
          lines.push(`${child}LogicalFilter(condition=[${rexToString(n.condition, dollar)}])`);
          child += '  ';
        }
        walk(n.input, child);
        return;
      }
      case 'aggregate': {
        const calls = n.aggCalls.map((c) => `${c.alias}=[${c.name}(${c.distinct ? 'DISTINCT ' : ''}${c.args.map(dollar).join(', ')})]`);
        lines.push(`${indent}LogicalAggregate(group=[{${n.groupKeys.join(', ')}}]${calls.length === 0 ? '' : ', ' + calls.join(', ')})`);
        walk(n.input, indent + '  ');
        return;
      }
      case 'union':
        lines.push(`${indent}LogicalUnion(all=[true])`);
        for (const i of n.inputs) walk(i, indent + '  ');
        return;
      case 'sort': {
        const parts = n.keys.flatMap((k, i) => [`sort${i}=[$${k.index}]`, `dir${i}=[${k.descending ? 'DESC' : 'ASC'}]`]);
        if (n.offset > 0) parts.push(`offset=[${n.offset}]`);
        if (n.fetch !== null) parts.push(`fetch=[${n.fetch}]`);
        lines.push(`${indent}LogicalSort(${parts.join(', ')})`);
        walk(n.input, indent + '  ');
        return;
      }
      case 'join': {
        const dollar2 = (i: number): string => `$${i}`;
        const eq = n.leftKeys.map((k, i) => `=($${k}, $${n.left.fields.length + n.rightKeys[i]!})`);
        const parts = [...eq, ...(n.condition === null ? [] : [rexToString(n.condition, dollar2)])];
        const cond = parts.length === 0 ? 'true' : parts.length === 1 ? parts[0] : `AND(${parts.join(', ')})`;
        lines.push(`${indent}LogicalJoin(condition=[${cond}], joinType=[${n.joinType.toLowerCase()}])`);
        walk(n.left, indent + '  ');
        walk(n.right, indent + '  ');
        return;
      }
      case 'over': {
        const part = n.partitionKeys.map((k) => `$${k}`).join(', ');
        const calls = n.calls.map((c) => `${c.call.alias}=[${c.call.name}(${c.call.args.map((a) => `$${a}`).join(', ')}) OVER (PARTITION BY ${part} ORDER BY $${n.orderKey.index})]`);
        lines.push(`${indent}LogicalProject(${[...n.input.fields.map((f, i) => `${f.name}=[$${i}]`), ...calls].join(', ')})`);
        walk(n.input, indent + '  ');
        return;
      }
      case 'rank': {
        const part = n.partitionKeys.map((k) => `$${k}`).join(', ');
        const order = n.orderKeys.map((k) => `$${k.index} ${k.descending ? 'DESC' : ''}`.trim()).join(', ');
        lines.push(`${indent}LogicalProject(${n.fields.map((f, i) => `${f.name}=[${i < n.input.fields.length ? `$${i}` : `${n.rankType ?? 'ROW_NUMBER'}() OVER (PARTITION BY ${part} ORDER BY ${order})`}]`).join(', ')})`);
        walk(n.input, indent + '  ');
        return;
      }
      case 'lookup-join': {
        const id = n.identifier;
        lines.push(`${indent}LogicalCorrelate(correlation=[$cor0], joinType=[${n.joinType.toLowerCase()}], requiredColumns=[{${n.leftKeys.join(', ')}}])`);
        walk(n.input, indent + '  ');
        lines.push(`${indent}  LogicalSnapshot(period=[$cor0.proctime])`);
        lines.push(`${indent}    LogicalTableScan(table=[[${id.catalog}, ${id.database}, ${id.object}]])`);
        return;
      }
      case 'unnest':
        lines.push(`${indent}LogicalCorrelate(correlation=[$cor0], joinType=[${n.keepEmpty ? 'left' : 'inner'}], requiredColumns=[{}])`);
        walk(n.input, indent + '  ');
        lines.push(`${indent}  Uncollect${n.withOrdinality ? '(withOrdinality=[true])' : ''}`);
        return;
      case 'window-tvf':
        lines.push(`${indent}LogicalTableFunctionScan(invocation=[${n.window.kind}(DESCRIPTOR($${n.timeIndex}))], rowType=[RecordType(${n.fields.map((f) => f.name).join(', ')})])`);
        walk(n.input, indent + '  ');
        return;
      case 'sink': {
        const id = n.identifier;
        lines.push(`${indent}LogicalSink(table=[${id.catalog}.${id.database}.${id.object}], fields=[${n.fields.map((f) => f.name).join(', ')}])`);
        walk(n.input, indent + '  ');
        return;
      }
      default: {
        const never: never = n;
        return never;
      }
    }
  };
  walk(root, '');
  return lines.join('\n');
}
