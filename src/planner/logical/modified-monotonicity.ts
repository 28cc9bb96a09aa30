import { Decimal } from '../../types/decimal.js';
import type { RexNode } from '../rex/rex-node.js';
import type { ChangelogInference } from './changelog.js';
import { deduplicationOf } from './deduplicate.js';
import type { AggCall, PlanNode } from './plan-node.js';
import { rankStrategy } from './rank-strategy.js';

/**
 * How an update may change a field (Flink's RelModifiedMonotonicity): never (`constant`: the field is a key the
 * updates are for, or the stream only inserts), only upwards, only downwards, or any way.
 */
export type Monotonicity = 'constant' | 'increasing' | 'decreasing' | 'not';

/**
 * The modified monotonicity of each output field of `n`, or null when `n` may delete rows or nothing is known
 * (Flink's FlinkRelMdModifiedMonotonicity, for the nodes a streaming Top-N over an aggregate meets: calc, group
 * aggregate, a Top-N that never deletes; any other updating node is unknown here, where Flink knows a few more, and
 * some that delete rows, which no update-fast Top-N can take).
 */
export function modifiedMonotonicity(n: PlanNode, changelog: ChangelogInference): readonly Monotonicity[] | null {
  if (changelog.of(n).isInsertOnly()) return n.fields.map(() => 'constant');
  switch (n.kind) {
    case 'calc':
      return calcMonotonicity(n, changelog);
    case 'aggregate':
      return n.window === undefined ? aggregateMonotonicity(n.input, n.groupKeys, n.aggCalls, changelog) : null;
    case 'rank':
      return rankMonotonicity(n, changelog);
    case 'changelog-normalize':
      // Flink gives its key fields CONSTANT, but it deletes rows, which an update-fast Top-N cannot take back
      // (it keeps only its top rows, and Flink's reads a -D as the row's new version): unknown here.
      return null;
    default:
      return null;
  }
}

function calcMonotonicity(n: PlanNode & { kind: 'calc' }, changelog: ChangelogInference): Monotonicity[] | null {
  const input = modifiedMonotonicity(n.input, changelog);
  if (input === null) return null;
  const out = n.projects.map((p): Monotonicity => {
    const ref = stripCast(p);
    return ref.kind === 'input-ref' ? input[ref.index]! : 'not';
  });
  // A filter on an updated field can turn an update into a retraction (the new value no longer passes).
  if (n.condition !== null && needsRetraction(n.condition, input)) return out.map(() => 'not');
  return out;
}

/** Flink's isNeedRetract: whether the condition can drop a row an update changes. */
function needsRetraction(r: RexNode, input: readonly Monotonicity[]): boolean {
  if (r.kind === 'input-ref') return input[r.index] !== 'constant';
  if (r.kind !== 'call') return false;
  const ops = r.operands.map(stripCast);
  const updated = ops.find((o) => o.kind === 'input-ref' && input[o.index] !== 'constant');
  const m = updated?.kind === 'input-ref' ? input[updated.index]! : undefined;
  switch (r.op) {
    case 'AND':
    case 'OR':
      return ops.some((o) => needsRetraction(o, input));
    case '>':
    case '>=':
      return m !== undefined && m !== 'increasing';
    case '<':
    case '<=':
      return m !== undefined && m !== 'decreasing';
    case '=':
    case '<>':
    case 'IN':
    case 'NOT IN':
    case 'SEARCH':
      return m !== undefined;
    case 'NOT':
    case 'IS TRUE':
    case 'IS NOT TRUE':
    case 'IS NULL':
    case 'IS NOT NULL':
      return ops.length === 1 && needsRetraction(ops[0]!, input);
    default:
      return false;
  }
}

function aggregateMonotonicity(input: PlanNode, groupKeys: readonly number[], calls: readonly AggCall[], changelog: ChangelogInference): Monotonicity[] | null {
  const inMono = modifiedMonotonicity(input, changelog);
  if (inMono === null || groupKeys.some((k) => inMono[k] !== 'constant')) return null;
  const inputUpdates = inMono.some((m) => m !== 'constant');
  return [
    ...groupKeys.map((): Monotonicity => 'constant'),
    ...calls.map((c): Monotonicity => {
      const own = callMonotonicity(c, input);
      if (!inputUpdates || c.name === 'COUNT') return own;
      // Over updates, the call keeps its direction only when its argument moves the same way.
      if (c.args.length !== 1) return 'not';
      return inMono[c.args[0]!] === own ? own : 'not';
    }),
  ];
}

/** Flink's getMonotonicityOnAggCall: which way the call's value moves as rows are added. */
function callMonotonicity(c: AggCall, input: PlanNode): Monotonicity {
  switch (c.name) {
    case 'COUNT':
      return 'increasing';
    case 'MAX':
      return 'increasing';
    case 'MIN':
      return 'decreasing';
    case 'SUM':
    case 'SUM0': {
      // A sum of values never below zero only grows (and one of values never above zero only falls).
      const sign = c.args.length === 1 && c.filterArg < 0 ? knownSign(input, c.args[0]!) : undefined;
      return sign === 'non-negative' ? 'increasing' : sign === 'non-positive' ? 'decreasing' : 'not';
    }
    default:
      return 'not';
  }
}

type Sign = 'non-negative' | 'non-positive';

/**
 * The sign every value of field `index` of `n` is known to have, from a literal projected there or a calc's
 * condition bounding it by a literal (a simple form of Flink's FlinkRelMdFilteredColumnInterval).
 */
function knownSign(n: PlanNode, index: number): Sign | undefined {
  if (n.kind !== 'calc') return undefined;
  const p = stripCast(n.projects[index]!);
  if (p.kind === 'literal') {
    const x = numeric(p.value);
    return x === undefined ? undefined : x >= 0 ? 'non-negative' : 'non-positive';
  }
  if (p.kind !== 'input-ref') return undefined;
  const conjuncts = n.condition === null ? [] : n.condition.kind === 'call' && n.condition.op === 'AND' ? n.condition.operands : [n.condition];
  for (const c of conjuncts) {
    if (c.kind !== 'call' || c.operands.length !== 2) continue;
    const [a, b] = c.operands.map(stripCast) as [RexNode, RexNode];
    // Normalise to `field op literal`.
    const flipped: Record<string, string> = { '>': '<', '>=': '<=', '<': '>', '<=': '>=' };
    const [ref, lit, op] = a.kind === 'input-ref' && b.kind === 'literal' ? [a, b, c.op] : b.kind === 'input-ref' && a.kind === 'literal' ? [b, a, flipped[c.op]] : [];
    if (ref === undefined || lit === undefined || ref.kind !== 'input-ref' || ref.index !== p.index || lit.kind !== 'literal') continue;
    const bound = numeric(lit.value);
    if (bound === undefined) continue;
    if ((op === '>' || op === '>=') && bound >= 0) return 'non-negative';
    if ((op === '<' || op === '<=') && bound <= 0) return 'non-positive';
  }
  return knownSign(n.input, p.index);
}

/** A numeric literal's value as a double (enough to tell its sign); undefined for any other literal. */
function numeric(v: unknown): number | undefined {
  const x = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v instanceof Decimal ? v.toNumber() : undefined;
  return x === undefined || Number.isNaN(x) ? undefined : x;
}

function rankMonotonicity(n: PlanNode & { kind: 'rank' }, changelog: ChangelogInference): Monotonicity[] | null {
  const input = modifiedMonotonicity(n.input, changelog);
  if (input === null) return null;
  if (deduplicationOf(n) !== undefined) return null;
  // Only a Top-N that never deletes: an append-fast or update-fast one that moves rows through numbered ranks in
  // place, or a Top-1 (Flink asks this of any Top-N; a -D would be misread by an update-fast Top-N above).
  const strategy = rankStrategy(n, changelog).kind;
  const top1 = n.limit === 1 && (n.sortLimit?.offset ?? 0) === 0;
  if (strategy === 'retract' || (!n.outputRankNumber && !top1)) return null;
  if (n.partitionKeys.some((k) => input[k] !== 'constant')) return null;
  const out: Monotonicity[] = n.fields.map((_, i) => (n.partitionKeys.includes(i) ? 'constant' : 'not'));
  if (n.outputRankNumber) out[n.fields.length - 1] = 'constant';
  const first = n.orderKeys[0];
  if (first !== undefined) {
    const m = input[first.index];
    out[first.index] = first.descending && (m === 'increasing' || m === 'constant') ? 'increasing' : !first.descending && (m === 'decreasing' || m === 'constant') ? 'decreasing' : 'not';
  }
  return out;
}

function stripCast(r: RexNode): RexNode {
  return r.kind === 'call' && r.op === 'CAST' && r.operands.length === 1 ? stripCast(r.operands[0]!) : r;
}
