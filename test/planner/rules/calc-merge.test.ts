import { describe, expect, it } from 'vitest';
import type { CatalogTable } from '../../../src/catalog/catalog-table.js';
import type { ObjectIdentifier } from '../../../src/catalog/object-identifier.js';
import type { DynamicTableSource } from '../../../src/factories/dynamic-table-source.js';
import type { CalcNode, PlanNode } from '../../../src/planner/logical/plan-node.js';
import { planQuery } from '../../../src/planner/planner.js';
import { call, inputRef } from '../../../src/planner/rex/rex-node.js';
import type { RexNode } from '../../../src/planner/rex/rex-node.js';
import { rexToString } from '../../../src/planner/rex/rex-to-string.js';
import { mergeCalcs, pruneInnerProjects } from '../../../src/planner/rules/calc-merge.js';
import { parseStatement } from '../../../src/sql/parse.js';
import { DataTypes } from '../../../src/types/data-types.js';
import { notNull } from '../../../src/types/logical-type.js';
import { Columns, ResolvedSchema } from '../../../src/types/schema.js';
import { testTable, TestContext } from '../harness.js';

const INT = notNull(DataTypes.INT());
const values: PlanNode = { kind: 'values', rows: [[1, 2]], fields: [{ name: 'a', type: INT }, { name: 'b', type: INT }] };
const rand = call('RAND_INTEGER', [], INT, false);

function calc(input: PlanNode, projects: RexNode[], names: string[], condition: RexNode | null = null): CalcNode {
  return { kind: 'calc', input, projects, condition, fields: projects.map((p, i) => ({ name: names[i]!, type: p.type })) };
}

/** The inner calc: a, b, a RAND column r and a + b as s. */
const inner = calc(values, [inputRef(0, 'a', INT), inputRef(1, 'b', INT), rand, call('+', [inputRef(0, 'a', INT), inputRef(1, 'b', INT)], INT)], ['a', 'b', 'r', 's']);

describe('calc merge with pruning', () => {
  it('drops an unread non-deterministic projection, then merges', () => {
    const outer = calc(inner, [inputRef(3, 's', INT), inputRef(0, 'a', INT)], ['s', 'a']);
    const m = mergeCalcs(outer);
    if (m.kind !== 'calc') throw new Error('expected calc');
    expect(m.input).toBe(values);
    expect(m.projects.map((p) => rexToString(p))).toEqual(['+(a, b)', 'a']);
    expect(m.fields.map((f) => f.name)).toEqual(['s', 'a']);
  });

  it('inlines a non-deterministic projection read once, in the condition too', () => {
    const outer = calc(inner, [inputRef(0, 'a', INT)], ['a'], call('>', [inputRef(2, 'r', INT), inputRef(1, 'b', INT)], DataTypes.BOOLEAN()));
    const m = mergeCalcs(outer);
    if (m.kind !== 'calc') throw new Error('expected calc');
    expect(m.input).toBe(values);
    expect(rexToString(m.condition!)).toBe('>(RAND_INTEGER(), b)');
  });

  it('keeps a non-deterministic projection read twice apart (no duplicate), but prunes what is unread', () => {
    const outer = calc(inner, [inputRef(2, 'r', INT), call('+', [inputRef(2, 'r', INT), inputRef(0, 'a', INT)], INT)], ['r', 'x']);
    const m = mergeCalcs(outer);
    if (m.kind !== 'calc' || m.input.kind !== 'calc') throw new Error('expected calc over calc');
    expect(m.input.fields.map((f) => f.name)).toEqual(['a', 'r']);
    expect(m.input.input).toBe(values);
    expect(m.projects.map((p) => rexToString(p))).toEqual(['r', '+(r, a)']);
    expect((m.projects[0] as RexNode & { kind: 'input-ref' }).index).toBe(1);
  });

  it('returns the node itself when every inner projection is read', () => {
    const outer = calc(inner, [inputRef(0, 'a', INT), inputRef(1, 'b', INT), inputRef(2, 'r', INT), inputRef(3, 's', INT)], ['a', 'b', 'r', 's']);
    expect(pruneInnerProjects(outer as CalcNode & { input: CalcNode })).toBe(outer);
  });
});

describe('projection push-down into a source that refuses it', () => {
  class RefusingContext extends TestContext {
    override createSource(id: ObjectIdentifier, table: CatalogTable): DynamicTableSource {
      const s = super.createSource(id, table);
      return s.kind === 'scan-source' ? { ...s, applyProjection: () => false } : s;
    }
  }

  it('leaves the scan reading every column, so EXPLAIN prints no project=', async () => {
    const abc = ResolvedSchema.of([Columns.physical('a', DataTypes.INT()), Columns.physical('b', DataTypes.BIGINT()), Columns.physical('c', DataTypes.STRING())]);
    const ctx = new RefusingContext('streaming').add('T', testTable(abc, [], { bounded: false }));
    const stmt = parseStatement('SELECT a FROM T');
    if (stmt.kind !== 'query') throw new Error('not a query');
    const text = (await planQuery(stmt.query, ctx)).explain();
    expect(text).toContain('Calc(select=[a])\n+- TableSourceScan(table=[[default_catalog, default_database, T]], fields=[a, b, c])');
  });
});
