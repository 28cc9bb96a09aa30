// The exchange-insertion rule (src/planner/physical/physical-planner.ts): which inputs get an exchange, with which
// distribution, and which traits each physical node carries.
import { describe, expect, it } from 'vitest';
import type { AggregateNode, CalcNode, JoinNode, PlanField, PlanNode, SortNode, ValuesNode } from '../../../src/planner/logical/plan-node.js';
import { ANY, satisfies, SINGLE } from '../../../src/planner/physical/distribution.js';
import type { PhysicalNode, PhysicalOperator } from '../../../src/planner/physical/physical-node.js';
import { PhysicalPlanner } from '../../../src/planner/physical/physical-planner.js';
import { inputRef } from '../../../src/planner/rex/rex-node.js';
import type { LogicalType } from '../../../src/types/logical-type.js';

const INT: LogicalType = { kind: 'INT', nullable: true };
const fields = (...names: string[]): PlanField[] => names.map((name) => ({ name, type: INT }));

const values = (...names: string[]): ValuesNode => ({ kind: 'values', rows: [names.map((_, i) => i)], fields: fields(...names) });
const groupBy = (input: PlanNode, keys: number[]): AggregateNode => ({
  kind: 'aggregate',
  input,
  groupKeys: keys,
  aggCalls: [{ name: 'COUNT', args: [], distinct: false, filterArg: -1, type: { kind: 'BIGINT', nullable: false }, alias: 'c' }],
  fields: [...keys.map((k) => input.fields[k]!), { name: 'c', type: { kind: 'BIGINT', nullable: false } }],
});
const project = (input: PlanNode, picks: number[]): CalcNode => ({
  kind: 'calc',
  input,
  projects: picks.map((i) => inputRef(i, input.fields[i]!.name, input.fields[i]!.type)),
  condition: null,
  fields: picks.map((i) => input.fields[i]!),
});
const join = (left: PlanNode, right: PlanNode, leftKeys: number[], rightKeys: number[], extra: Partial<JoinNode> = {}): JoinNode => ({
  kind: 'join',
  joinType: 'INNER',
  left,
  right,
  leftKeys,
  rightKeys,
  condition: null,
  fields: [...left.fields, ...right.fields],
  ...extra,
});
const sort = (input: PlanNode): SortNode => ({ kind: 'sort', input, keys: [{ index: 0, descending: false, nullsFirst: true }], offset: 0, fetch: 3, fields: input.fields });

/** An input as `kind` + its distribution, or `operator` for an input taken where it is. */
const edge = (p: PhysicalNode): string => (p.kind === 'operator' ? 'forward' : p.distribution.kind === 'single' ? 'single' : `hash[${p.distribution.keys.join(',')}]`);
const plan = (n: PlanNode): PhysicalOperator => new PhysicalPlanner('streaming').of(n);

describe('satisfies (Flink FlinkRelDistribution.satisfies, strict hash)', () => {
  it('accepts the same distribution', () => {
    expect(satisfies(SINGLE, SINGLE)).toBe(true);
    expect(satisfies({ kind: 'hash', keys: [0, 2] }, { kind: 'hash', keys: [0, 2] })).toBe(true);
  });
  it('refuses no promise, another kind, a subset or another order of the keys', () => {
    expect(satisfies(ANY, SINGLE)).toBe(false);
    expect(satisfies(ANY, { kind: 'hash', keys: [0] })).toBe(false);
    expect(satisfies(SINGLE, { kind: 'hash', keys: [0] })).toBe(false);
    expect(satisfies({ kind: 'hash', keys: [0] }, SINGLE)).toBe(false);
    expect(satisfies({ kind: 'hash', keys: [0] }, { kind: 'hash', keys: [0, 1] })).toBe(false);
    expect(satisfies({ kind: 'hash', keys: [1, 0] }, { kind: 'hash', keys: [0, 1] })).toBe(false);
  });
});

describe('the exchange-insertion rule', () => {
  it('puts a hash exchange on the group keys in front of a GROUP BY, none in front of a calc', () => {
    const calc = project(values('a', 'b', 'c'), [2, 0]);
    const agg = plan(groupBy(calc, [1]));
    expect(agg.inputs.map(edge)).toEqual(['hash[1]']);
    const below = agg.inputs[0]!;
    expect(below.kind === 'exchange' && below.input.logical).toBe(calc);
    expect(below.kind === 'exchange' && below.input.inputs.map(edge)).toEqual(['forward']);
  });

  it('gathers a global aggregate and a sort in one subtask', () => {
    expect(plan(groupBy(values('a'), [])).inputs.map(edge)).toEqual(['single']);
    expect(plan(sort(values('a'))).inputs.map(edge)).toEqual(['single']);
  });

  it('keeps the exchange of a node over a keyed node on the same keys: a keyed node promises no distribution, as in Flink streaming', () => {
    // Flink 2.3.0: Rank(partitionBy=[a]) +- Exchange(hash[a]) +- GroupAggregate(groupBy=[a]); SortLimit +- Exchange(single) +- GroupAggregate(single).
    const inner = groupBy(values('a', 'b'), [0]);
    const outer = plan(groupBy(inner, [0]));
    expect(outer.inputs.map(edge)).toEqual(['hash[0]']);
    expect(outer.distribution).toEqual(ANY);
    expect(new PhysicalPlanner('batch').of(sort(groupBy(values('a'), []))).inputs.map(edge)).toEqual(['single']);
  });

  it("hashes each side of a join by that side's keys", () => {
    const j = plan(join(values('a', 'b'), values('x', 'y', 'z'), [1], [2]));
    expect(j.inputs.map(edge)).toEqual(['hash[1]', 'hash[2]']);
  });

  it('gathers both sides of a join without equi keys, and of a null-aware NOT IN', () => {
    expect(plan(join(values('a'), values('x'), [], [])).inputs.map(edge)).toEqual(['single', 'single']);
    expect(plan(join(values('a'), values('x'), [0], [0], { joinType: 'ANTI', semiNulls: 'not-in', fields: fields('a') })).inputs.map(edge)).toEqual(['single', 'single']);
  });

  it('carries changelog modes: an exchange passes its input mode on', () => {
    const agg = plan(groupBy(values('a'), [0]));
    expect(agg.inputs[0]!.changelog.isInsertOnly()).toBe(true);
    expect(agg.changelog.isInsertOnly()).toBe(false);
  });

  it('keeps a shared input one physical node, read through one exchange per reader', () => {
    const shared = values('a', 'b');
    const j = plan(join(shared, shared, [0], [1]));
    const [l, r] = j.inputs;
    expect(l !== r && l!.kind === 'exchange' && r!.kind === 'exchange' && l!.input === r!.input).toBe(true);
  });

  it('plans a plan thousands of nodes deep without running out of stack', () => {
    let n: PlanNode = values('a');
    for (let i = 0; i < 20000; i++) n = project(n, [0]);
    expect(plan(groupBy(n, [0])).inputs.map(edge)).toEqual(['hash[0]']);
  });
});
