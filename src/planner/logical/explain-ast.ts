import { logicalMatchText } from './explain-match.js';
import { collectInputRefs, rewriteInputRefs } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { explainRex, flinkType } from './explain-rex.js';
import { logicalScanText } from './explain-plan.js';
import type { ExplainTree } from './explain-tree.js';
import { node } from './explain-tree.js';
import type { AggCall, CalcNode, PlanNode, RankNode, ScanNode, SortKey, WindowSpec } from './plan-node.js';
import { logicalWatermarkAssignerText } from './explain-watermark.js';

const dollar = (i: number): string => `$${i}`;

function rex(n: RexNode): string {
  return explainRex(n, 'calcite', dollar);
}

/** Calcite's RelFieldCollation digest, with Flink's explicit null direction. */
function direction(k: SortKey): string {
  return `${k.descending ? 'DESC' : 'ASC'}-nulls-${k.nullsFirst ? 'first' : 'last'}`;
}

function aggCall(c: AggCall): string {
  const filter = c.filterArg >= 0 ? ` FILTER $${c.filterArg}` : '';
  return `${c.alias}=[${c.name}(${c.distinct ? 'DISTINCT ' : ''}${c.args.map(dollar).join(', ')})${filter}]`;
}

/** The largest unit the interval is a whole number of, as Calcite types the literal the user most likely wrote. */
function intervalLiteral(ms: number): string {
  for (const [unit, size] of [['DAY', 86_400_000], ['HOUR', 3_600_000], ['MINUTE', 60_000]] as const) {
    if (ms !== 0 && ms % size === 0) return `${ms}:INTERVAL ${unit}`;
  }
  return `${ms}:INTERVAL SECOND`;
}

function windowInvocation(w: WindowSpec, timeField: string): string {
  // Flink 2.x prints the table argument as the scan's first input and the descriptor by its column's name
  // (1.20 printed `DESCRIPTOR($3)` alone).
  const head = `TABLE(#0), DESCRIPTOR(_UTF-16LE'${timeField}')`;
  const off = w.offset === 0 ? '' : `, ${intervalLiteral(w.offset)}`;
  switch (w.kind) {
    case 'TUMBLE':
      return `TUMBLE(${head}, ${intervalLiteral(w.size)}${off})`;
    case 'HOP':
      return `HOP(${head}, ${intervalLiteral(w.slide)}, ${intervalLiteral(w.size)}${off})`;
    case 'CUMULATE':
      return `CUMULATE(${head}, ${intervalLiteral(w.step)}, ${intervalLiteral(w.size)}${off})`;
    case 'SESSION':
      return `SESSION(${head}, ${intervalLiteral(w.gap)})`;
    default: {
      const never: never = w;
      return never;
    }
  }
}

/** The table scan, under a LogicalWatermarkAssigner when the table declares a watermark. */
function scanTree(n: ScanNode): ExplainTree {
  const scan = node(logicalScanText(n));
  return n.watermark === null ? scan : node(logicalWatermarkAssignerText(n), [scan]);
}

/** Whether the calc outputs its input's fields, each once, in order (names aside). */
function projectsInputInOrder(n: CalcNode): boolean {
  return n.projects.length === n.input.fields.length && n.projects.every((p, i) => p.kind === 'input-ref' && p.index === i);
}

/**
 * The binder's projection of a table's columns (computed ones included) over a scan with a watermark:
 * Flink puts the LogicalWatermarkAssigner above it, so it is neither merged nor a user projection.
 */
function isWatermarkedTableProjection(n: PlanNode): n is CalcNode & { input: ScanNode } {
  if (n.kind !== 'calc' || n.condition !== null || n.input.kind !== 'scan' || n.input.watermark === null) return false;
  return !projectsInputInOrder(n) && n.fields.length === n.input.table.schema.columns.length;
}

/** `ROW_NUMBER() OVER (PARTITION BY $0 ORDER BY $4 NULLS FIRST)`: a rank's window call as Calcite's RexOver prints. */
function rankOverText(n: RankNode): string {
  const part = n.partitionKeys.length === 0 ? '' : `PARTITION BY ${n.partitionKeys.map(dollar).join(', ')} `;
  const order = n.orderKeys.map((k) => `$${k.index}${k.descending ? ' DESC' : ''} NULLS ${k.nullsFirst ? 'FIRST' : 'LAST'}`).join(', ');
  return `${n.rankType ?? 'ROW_NUMBER'}() OVER (${part}ORDER BY ${order})`;
}

/**
 * The select list holding a `ROW_NUMBER() OVER (...)` (the binder's projection over the rank it made of it) as
 * Calcite converts it: one LogicalProject with the window call in place of the rank's number column, e.g.
 * `LogicalProject(uid=[$0], ..., rn=[ROW_NUMBER() OVER (PARTITION BY $0 ORDER BY $4 NULLS FIRST)])` (a real Flink
 * 2.3.0, test/planner/flink-explain-goldens/dedup-proctime-first-row.changelog.txt). Undefined for any other
 * projection, or when the number is used inside an expression (then the rank prints on its own).
 */
function overRankProject(n: CalcNode): ExplainTree | undefined {
  const rank = n.input;
  if (n.condition !== null || rank.kind !== 'rank' || rank.limit !== null || !rank.outputRankNumber) return undefined;
  const width = rank.input.fields.length;
  const texts: string[] = [];
  for (const p of n.projects) {
    if (p.kind === 'input-ref' && p.index === width) texts.push(rankOverText(rank));
    else if (collectInputRefs(p).has(width)) return undefined;
    else texts.push(rex(p));
  }
  return node(`LogicalProject(${texts.map((t, i) => `${n.fields[i]!.name}=[${t}]`).join(', ')})`, [astTree(rank.input)]);
}

/**
 * The aggregate under a SELECT list that is its output in order (`SELECT k, COUNT(*) AS c ... GROUP BY k`):
 * Calcite builds no LogicalProject for it (SqlToRelConverter projects the aggregate without forcing a trivial
 * project), and an alias of a group key names that key in the projection below the aggregate instead. Undefined
 * for any other calc.
 */
function bareAggregate(n: CalcNode): PlanNode | undefined {
  if (n.condition !== null || !projectsInputInOrder(n)) return undefined;
  // HAVING: a LogicalFilter between them, still with no project above.
  const having = n.input.kind === 'calc' && n.input.condition !== null && projectsInputInOrder(n.input) ? n.input : null;
  const agg = having === null ? n.input : having.input;
  if (agg.kind !== 'aggregate') return undefined;
  const keys = agg.groupKeys.length;
  if (n.fields.some((f, i) => i >= keys && f.name !== agg.fields[i]!.name)) return undefined;
  let bare: PlanNode = agg;
  if (n.fields.some((f, i) => i < keys && f.name !== agg.fields[i]!.name)) {
    const below = agg.input;
    if (below.kind !== 'calc') return undefined;
    const fields = below.fields.map((f, j) => {
      const key = agg.groupKeys.indexOf(j);
      return key < 0 ? f : { ...f, name: n.fields[key]!.name };
    });
    bare = { ...agg, input: { ...below, fields }, fields: n.fields };
  }
  return having === null ? bare : { ...having, input: bare, fields: n.fields };
}

/**
 * The unoptimized plan as Calcite's logical nodes, the "Abstract Syntax Tree" section of Flink's EXPLAIN:
 * input refs as `$i`, literals and calls as RexNode digests.
 */
export function astTree(n: PlanNode): ExplainTree {
  switch (n.kind) {
    case 'scan':
      return scanTree(n);
    case 'values':
      return node(`LogicalValues(tuples=[[${n.rows.map((r) => `{ ${r.map((v, i) => rex({ kind: 'literal', value: v, type: n.fields[i]!.type })).join(', ')} }`).join(', ')}]])`);
    case 'calc': {
      // Calcite merges a projection over a projection while converting SQL (INSERT's column mapping too).
      if (isWatermarkedTableProjection(n)) {
        const project = node(`LogicalProject(${n.projects.map((p, i) => `${n.fields[i]!.name}=[${rex(p)}]`).join(', ')})`, [node(logicalScanText(n.input))]);
        return node(logicalWatermarkAssignerText(n.input), [project]);
      }
      if (n.condition === null && n.input.kind === 'calc' && n.input.condition === null && !isWatermarkedTableProjection(n.input)) {
        const inner = n.input;
        // A bare reference keeps the name it had below, as Calcite adds no renaming project for an INSERT.
        const fields = n.fields.map((f, i) => {
          const p = n.projects[i]!;
          return p.kind === 'input-ref' ? { ...f, name: inner.fields[p.index]!.name } : f;
        });
        return astTree({ ...n, input: inner.input, fields, projects: n.projects.map((p) => rewriteInputRefs(p, (r) => inner.projects[r.index]!)) });
      }
      const inlined = overRankProject(n);
      if (inlined !== undefined) return inlined;
      const bare = bareAggregate(n);
      if (bare !== undefined) return astTree(bare);
      const identity = projectsInputInOrder(n);
      let tree = astTree(n.input);
      if (n.condition !== null) tree = node(`LogicalFilter(condition=[${rex(n.condition)}])`, [tree]);
      // A WHERE / HAVING without a projection of its own is a bare LogicalFilter in Calcite.
      if (identity && n.condition !== null) return tree;
      return node(`LogicalProject(${n.projects.map((p, i) => `${n.fields[i]!.name}=[${rex(p)}]`).join(', ')})`, [tree]);
    }
    case 'aggregate':
      return node(`LogicalAggregate(group=[{${n.groupKeys.join(', ')}}]${n.aggCalls.map((c) => `, ${aggCall(c)}`).join('')})`, [astTree(n.input)]);
    case 'union':
      return node('LogicalUnion(all=[true])', n.inputs.map(astTree));
    case 'sort': {
      const parts = n.keys.flatMap((k, i) => [`sort${i}=[$${k.index}]`, `dir${i}=[${direction(k)}]`]);
      if (n.offset > 0) parts.push(`offset=[${n.offset}]`);
      if (n.fetch !== null) parts.push(`fetch=[${n.fetch}]`);
      return node(`LogicalSort(${parts.join(', ')})`, [astTree(n.input)]);
    }
    case 'join': {
      const eq = n.leftKeys.map((k, i) => `=($${k}, $${n.left.fields.length + n.rightKeys[i]!})`);
      const parts = [...eq, ...(n.condition === null ? [] : [rex(n.condition)])];
      const cond = parts.length === 0 ? 'true' : parts.length === 1 ? parts[0] : `AND(${parts.join(', ')})`;
      return node(`LogicalJoin(condition=[${cond}], joinType=[${n.joinType.toLowerCase()}])`, [astTree(n.left), astTree(n.right)]);
    }
    case 'over': {
      const part = n.partitionKeys.length === 0 ? '' : `PARTITION BY ${n.partitionKeys.map(dollar).join(', ')} `;
      const order = `ORDER BY $${n.orderKey.index} ${n.orderKey.descending ? 'DESC ' : ''}NULLS ${n.orderKey.nullsFirst ? 'FIRST' : 'LAST'}`;
      const calls = n.calls.map((c) => {
        const start = c.frame.preceding === null ? 'UNBOUNDED PRECEDING' : `${c.frame.preceding} PRECEDING`;
        const call = `${c.call.name}(${c.call.distinct ? 'DISTINCT ' : ''}${c.call.args.map(dollar).join(', ')})`;
        return `${c.call.alias}=[${call} OVER (${part}${order} ${c.frame.unit} ${start})]`;
      });
      return node(`LogicalProject(${[...n.input.fields.map((f, i) => `${f.name}=[$${i}]`), ...calls].join(', ')})`, [astTree(n.input)]);
    }
    case 'rank': {
      const width = n.input.fields.length;
      const over = rankOverText(n);
      const cols = [...n.input.fields.map((f, i) => `${f.name}=[$${i}]`), `${n.outputRankNumber ? n.fields[width]!.name : 'w0$o0'}=[${over}]`];
      let tree = node(`LogicalProject(${cols.join(', ')})`, [astTree(n.input)]);
      if (n.limit !== null) tree = node(`LogicalFilter(condition=[<=($${width}, ${n.limit})])`, [tree]);
      return node(`LogicalProject(${n.fields.map((f, i) => `${f.name}=[$${i}]`).join(', ')})`, [tree]);
    }
    case 'lookup-join': {
      const id = n.identifier;
      const time = n.input.fields.find((f) => (f.type.kind === 'TIMESTAMP' || f.type.kind === 'TIMESTAMP_LTZ') && f.type.timeAttribute !== undefined);
      const cond = n.rightKeys.map((k, i) => `=($cor0.${n.input.fields[n.leftKeys[i]!]!.name}, $${k})`);
      const snapshot = node(`LogicalSnapshot(period=[$cor0.${time?.name ?? 'proctime'}])`, [node(`LogicalTableScan(table=[[${id.catalog}, ${id.database}, ${id.object}]])`)]);
      const right = node(`LogicalFilter(condition=[${cond.length === 1 ? cond[0] : `AND(${cond.join(', ')})`}])`, [snapshot]);
      return node(`LogicalCorrelate(correlation=[$cor0], joinType=[${n.joinType.toLowerCase()}], requiredColumns=[{${[...n.leftKeys].sort((a, b) => a - b).join(', ')}}])`, [astTree(n.input), right]);
    }
    case 'unnest': {
      const uncollect = node(`Uncollect${n.withOrdinality ? '(withOrdinality=[true])' : ''}`, [node(`LogicalProject(EXPR$0=[${explainRex(n.collection, 'calcite', (i) => `$cor0.${n.input.fields[i]?.name ?? i}`)}])`, [node('LogicalValues(tuples=[[{ 0 }]])')])]);
      return node(`LogicalCorrelate(correlation=[$cor0], joinType=[${n.keepEmpty ? 'left' : 'inner'}], requiredColumns=[{}])`, [astTree(n.input), uncollect]);
    }
    case 'window-tvf': {
      const rowType = n.fields.map((f) => `${flinkType(f.type)} ${f.name}`).join(', ');
      // `TABLE T` is converted as `SELECT * FROM T`: an identity LogicalProject over the table (a real Flink 2.3.0
      // prints it, test/planner/flink-explain-goldens/window-tvf.txt).
      const input = n.input.kind === 'scan' ? node(`LogicalProject(${n.input.fields.map((f, i) => `${f.name}=[$${i}]`).join(', ')})`, [astTree(n.input)]) : astTree(n.input);
      return node(`LogicalTableFunctionScan(invocation=[${windowInvocation(n.window, n.input.fields[n.timeIndex]!.name)}], rowType=[RecordType(${rowType})])`, [input]);
    }
    case 'sink': {
      const id = n.identifier;
      // Flink's Sink has its input's row type, so it prints the input's names (Sink.scala deriveRowType).
      return node(`LogicalSink(table=[${id.catalog}.${id.database}.${id.object}], fields=[${n.input.fields.map((f) => f.name).join(', ')}])`, [astTree(n.input)]);
    }
    case 'match':
      // The conditions read pattern references (`PREV(A.$2, 0)`), which Calcite prints as in the physical plan.
      return node(logicalMatchText(n, (e, texts) => explainRex(e, 'prefix', (i) => texts[i] ?? `$${i}`)), [astTree(n.input)]);
    case 'changelog-normalize':
      // A physical node only (placed after optimization); the AST shows the scan it reads.
      return astTree(n.input);
    case 'local-window-aggregate':
    case 'global-window-aggregate':
      // Physical nodes only (placed by the optimizer); the AST is always drawn from the unoptimized plan.
      return astTree(n.input);
    default: {
      const never: never = n;
      return never;
    }
  }
}
