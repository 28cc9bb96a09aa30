// The edge into a table sink whose 'sink.parallelism' differs from its input's (issue #12): a round robin
// would send the changes of one key to different sink subtasks, which write them in no order between
// them, so an updating input is hashed by the sink's primary key, and refused without one (Flink's
// CommonExecSink), and `table.exec.sink.keyed-shuffle` decides for an insert-only input.
import { describe, expect, it } from 'vitest';
import { PlanningError, ValidationError } from '../../../src/errors/sluice-error.js';
import { planInsert } from '../../../src/planner/planner.js';
import { sinkExchange, sinkExchangeOf } from '../../../src/planner/physical/sink-exchange.js';
import { PhysicalPlanner } from '../../../src/planner/physical/physical-planner.js';
import type { PlanNode, SinkNode } from '../../../src/planner/logical/plan-node.js';
import type { DynamicTableSink } from '../../../src/factories/dynamic-table-sink.js';
import { objectIdentifier } from '../../../src/catalog/object-identifier.js';
import type { JobGraph } from '../../../src/runtime/job-graph.js';
import { executeJob } from '../../../src/runtime/job-master.js';
import { keyGroupOf, subtaskOfKeyGroup } from '../../../src/runtime/key-groups.js';
import { defaultRuntimeConfig } from '../../../src/runtime/runtime-config.js';
import { parseStatement } from '../../../src/sql/parse.js';
import { DataTypes } from '../../../src/types/data-types.js';
import { Row } from '../../../src/types/row.js';
import { Columns, ResolvedSchema } from '../../../src/types/schema.js';
import { hashFields } from '../../../src/types/values/equality.js';
import { formatRows, testTable, TestContext, type TestTable } from '../harness.js';

const KEYS = 20;
const ROWS = 400;
const kv = ResolvedSchema.of([Columns.physical('k', DataTypes.STRING()), Columns.physical('v', DataTypes.INT())]);
const kcsColumns = [Columns.physical('k', DataTypes.STRING()), Columns.physical('c', DataTypes.BIGINT()), Columns.physical('s', DataTypes.INT())];
const withKey = ResolvedSchema.of(kcsColumns, [], ResolvedSchema.primaryKey(['k']));
const withoutKey = ResolvedSchema.of(kcsColumns);
const kvWithKey = ResolvedSchema.of(kv.columns, [], ResolvedSchema.primaryKey(['k']));

const input = Array.from({ length: ROWS }, (_, i) => Row.insert(`k${i % KEYS}`, i));
const GROUP_BY = 'INSERT INTO snk SELECT k, COUNT(*), SUM(v) FROM src GROUP BY k';

function ctx(out: TestTable, config: Record<string, string> = {}): TestContext {
  return new TestContext('streaming', { 'parallelism.default': '3', ...config }).add('src', testTable(kv, input)).add('snk', out);
}

async function jobGraph(sql: string, c: TestContext): Promise<JobGraph> {
  const stmt = parseStatement(sql);
  if (stmt.kind !== 'insert') throw new Error('not an insert');
  return (await planInsert(stmt, c)).toJobGraph();
}

/** The partitioner kind of the edge into the (only) sink vertex. */
function sinkEdge(g: JobGraph): string {
  const sink = g.vertices.find((v) => v.kind === 'sink')!;
  return g.edges.find((e) => e.to === sink.id)!.partitioner.kind;
}

describe('a sink whose parallelism differs from its input, fed an updating query', () => {
  it('is fed by a hash of the primary key, so every change of a key reaches one subtask in order, and the result is exact', async () => {
    const out = testTable(withKey, [], { sinkMode: 'upsert', sinkParallelism: 2, bySubtask: [] });
    const c = ctx(out);
    const g = await jobGraph(GROUP_BY, c);
    expect(g.vertices.find((v) => v.kind === 'sink')!.parallelism).toBe(2);
    expect(sinkEdge(g)).toBe('hash');
    await executeJob(g, defaultRuntimeConfig()).waitForCompletion();

    const types = withKey.columnTypes();
    const subtasksOf = new Map<string, Set<number>>();
    out.bySubtask!.forEach((rows, i) => rows.forEach((r) => subtasksOf.set(r.fields[0] as string, (subtasksOf.get(r.fields[0] as string) ?? new Set()).add(i))));
    expect(subtasksOf.size).toBe(KEYS);
    for (const [k, subtasks] of subtasksOf) {
      // The subtask that owns the key's key group, as for every hash exchange.
      expect([...subtasks], k).toEqual([subtaskOfKeyGroup(keyGroupOf(hashFields([k], [0]), 128), 128, 2)]);
    }
    expect(new Set([...subtasksOf.values()].map((s) => [...s][0])).size).toBe(2);
    // Each subtask's last row of a key is the key's final value: the upsert a sink would have kept.
    const last = new Map<string, Row>();
    for (const rows of out.bySubtask!) for (const r of rows) last.set(r.fields[0] as string, r);
    const expected = Array.from({ length: KEYS }, (_, k) => {
      const vs = input.filter((r) => r.fields[0] === `k${k}`).map((r) => r.fields[1] as number);
      return `[k${k}, ${vs.length}, ${vs.reduce((a, b) => a + b, 0)}]`;
    }).sort();
    expect(formatRows([...last.values()], types).map((l) => l.slice(2)).sort()).toEqual(expected);
  });

  it('is refused without a primary key, with Flink\'s message naming the table and both parallelisms, at the table name', async () => {
    const c = ctx(testTable(withoutKey, [], { sinkMode: 'all', sinkParallelism: 2 }));
    const error = await jobGraph(`INSERT INTO snk\nSELECT k, COUNT(*), SUM(v) FROM src GROUP BY k`, c).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PlanningError);
    expect((error as PlanningError).range).toMatchObject({ line: 1, column: 13 });
    expect((error as Error).message).toContain(
      "The sink for table 'default_catalog.default_database.snk' has a configured parallelism of 2, while the input parallelism is 3. Since the configured parallelism is different from the input's parallelism and the changelog mode is not insert-only, a primary key is required but could not be found.",
    );
  });

  it('is planned without a primary key when the parallelisms agree (the edge is forward)', async () => {
    const c = ctx(testTable(withoutKey, [], { sinkMode: 'all', sinkParallelism: 3 }));
    expect(sinkEdge(await jobGraph(GROUP_BY, c))).toBe('forward');
  });
});

describe("'table.exec.sink.keyed-shuffle' for an insert-only input into a sink with a primary key", () => {
  const INSERT = 'INSERT INTO snk SELECT k, v FROM src';
  const out = (sinkParallelism: number): TestTable => testTable(kvWithKey, [], { sinkParallelism });

  it('AUTO (the default) hashes by the key when the parallelisms differ, and not into a sink of parallelism 1', async () => {
    expect(sinkEdge(await jobGraph(INSERT, ctx(out(2))))).toBe('hash');
    expect(sinkEdge(await jobGraph(INSERT, ctx(out(3))))).toBe('forward');
    expect(sinkEdge(await jobGraph(INSERT, ctx(out(1))))).toBe('rebalance');
  });

  it('FORCE hashes by the key even at equal parallelism; NONE never does', async () => {
    expect(sinkEdge(await jobGraph(INSERT, ctx(out(3), { 'table.exec.sink.keyed-shuffle': 'FORCE' })))).toBe('hash');
    expect(sinkEdge(await jobGraph(INSERT, ctx(out(2), { 'table.exec.sink.keyed-shuffle': 'none' })))).toBe('rebalance');
  });

  it('a table without a key is fed round robin whatever the option', async () => {
    const c = ctx(testTable(kv, [], { sinkParallelism: 2 }), { 'table.exec.sink.keyed-shuffle': 'FORCE' });
    expect(sinkEdge(await jobGraph(INSERT, c))).toBe('rebalance');
  });

  it('rejects an unknown value', async () => {
    await expect(jobGraph(INSERT, ctx(out(2), { 'table.exec.sink.keyed-shuffle': 'ALWAYS' }))).rejects.toThrow(ValidationError);
  });
});

describe('sinkExchange', () => {
  it('keys an updating input by the primary key when the parallelisms differ, whatever keyed-shuffle says but NONE', () => {
    const base = { table: 't', sinkParallelism: 4, inputParallelism: 2, inputInsertOnly: false, primaryKey: [1] } as const;
    expect(sinkExchange({ ...base, keyedShuffle: 'AUTO' })).toEqual({ kind: 'keyed', keys: [1] });
    expect(sinkExchange({ ...base, keyedShuffle: 'FORCE' })).toEqual({ kind: 'keyed', keys: [1] });
    expect(sinkExchange({ ...base, keyedShuffle: 'NONE' })).toEqual({ kind: 'forward' });
  });
});

describe('sinkExchangeOf: the sink of the physical plan', () => {
  const values: PlanNode = { kind: 'values', rows: [['a', 1n, 2]], fields: kcsColumns.map((c) => ({ name: c.name, type: c.type })) };
  const sinkOver = (input: PlanNode, schema: ResolvedSchema): SinkNode => ({
    kind: 'sink',
    input,
    identifier: objectIdentifier('cat', 'db', 'out'),
    sink: {} as DynamicTableSink,
    table: { kind: 'table', schema, partitionKeys: [], options: {} },
    overwrite: false,
    staticPartition: new Map(),
    fields: input.fields,
  });
  const updating: PlanNode = { kind: 'aggregate', input: values, groupKeys: [0], aggCalls: [], fields: values.fields.slice(0, 1) };
  const physical = new PhysicalPlanner('streaming');

  it("hashes an updating input by the table's primary key, read from the plan, when the parallelisms differ", () => {
    const keyed = { kind: 'aggregate' as const, input: values, groupKeys: [0, 2], aggCalls: [], fields: [values.fields[0]!, values.fields[2]!] };
    const s = ResolvedSchema.of([kcsColumns[0]!, kcsColumns[2]!], [], ResolvedSchema.primaryKey(['s']));
    expect(sinkExchangeOf(physical.of(sinkOver(keyed, s)), { sink: 2, input: 3 }, 'AUTO')).toEqual({ kind: 'keyed', keys: [1] });
    expect(sinkExchangeOf(physical.of(sinkOver(keyed, s)), { sink: 3, input: 3 }, 'AUTO')).toEqual({ kind: 'forward' });
  });

  it('forwards an insert-only input without keyed shuffle, and refuses an updating one without a key when the parallelisms differ', () => {
    expect(sinkExchangeOf(physical.of(sinkOver(values, withKey)), { sink: 2, input: 3 }, 'NONE')).toEqual({ kind: 'forward' });
    const noKey = ResolvedSchema.of([kcsColumns[0]!]);
    expect(() => sinkExchangeOf(physical.of(sinkOver(updating, noKey)), { sink: 2, input: 3 }, 'AUTO')).toThrow(PlanningError);
    expect(sinkExchangeOf(physical.of(sinkOver(updating, noKey)), { sink: 3, input: 3 }, 'AUTO')).toEqual({ kind: 'forward' });
  });
});
