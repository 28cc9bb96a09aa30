import { describe, expect, it } from 'vitest';
import { ChangelogMode } from '../../src/factories/changelog-mode.js';
import { explain } from '../../src/planner/planner.js';
import { parseStatement } from '../../src/sql/parse.js';
import { DataTypes } from '../../src/types/data-types.js';
import { notNull } from '../../src/types/logical-type.js';
import { Row } from '../../src/types/row.js';
import { RowKind } from '../../src/types/row-kind.js';
import { Columns, ResolvedSchema } from '../../src/types/schema.js';
import { formatRows, materialize, runInsert, runQuery, testTable, TestContext } from './harness.js';

// An upsert table as upsert-kafka reads it: +I for a new key, +U for a known one, a key-only -D (tombstone).
const pkKv = ResolvedSchema.of([Columns.physical('k', notNull(DataTypes.STRING())), Columns.physical('v', DataTypes.INT())], [], ResolvedSchema.primaryKey(['k']));
const pkKvMeta = ResolvedSchema.of(
  [Columns.physical('k', notNull(DataTypes.STRING())), Columns.physical('v', DataTypes.INT()), Columns.metadata('ts', DataTypes.TIMESTAMP_LTZ(3), 'timestamp', true)],
  [],
  ResolvedSchema.primaryKey(['k']),
);
const wide = ResolvedSchema.of(
  [Columns.physical('k', notNull(DataTypes.STRING())), Columns.physical('v', DataTypes.INT()), Columns.physical('w', DataTypes.INT())],
  [],
  ResolvedSchema.primaryKey(['k']),
);
const pkKvTs = ResolvedSchema.of(
  [Columns.physical('k', notNull(DataTypes.STRING())), Columns.physical('v', DataTypes.INT()), Columns.physical('t', DataTypes.TIMESTAMP_LTZ(3))],
  [],
  ResolvedSchema.primaryKey(['k']),
);
const kv = ResolvedSchema.of([Columns.physical('k', DataTypes.STRING()), Columns.physical('v', DataTypes.INT())]);
const vOnly = ResolvedSchema.of([Columns.physical('v', DataTypes.INT())], [], ResolvedSchema.primaryKey(['v']));
const counts = ResolvedSchema.of([Columns.physical('c', notNull(DataTypes.BIGINT())), Columns.physical('s', DataTypes.INT())]);

const upsertRows = (): Row[] => [
  new Row(RowKind.INSERT, ['a', 1]),
  new Row(RowKind.INSERT, ['b', 2]),
  new Row(RowKind.UPDATE_AFTER, ['a', 5]),
  new Row(RowKind.UPDATE_AFTER, ['a', 5]), // an identical repeat
  new Row(RowKind.DELETE, ['b', null]), // a tombstone: key only
  new Row(RowKind.DELETE, ['zz', null]), // a tombstone of a key never seen
];

function ctx(config: Record<string, string> = {}): TestContext {
  return new TestContext('streaming', config)
    .add('upserts', testTable(pkKv, upsertRows(), { changelog: ChangelogMode.upsert() }))
    .add('wide', testTable(wide, [], { changelog: ChangelogMode.upsert() }))
    .add('upserts_meta', testTable(pkKvMeta, [], { changelog: ChangelogMode.upsert() }))
    .add('cdc', testTable(pkKv, [], { changelog: ChangelogMode.all() }))
    .add('upsert_sink', testTable(pkKv, [], { sinkMode: 'upsert' }))
    .add('upsert_sink_ts', testTable(pkKvTs, [], { sinkMode: 'upsert' }))
    .add('upsert_sink_v', testTable(vOnly, [], { sinkMode: 'upsert' }))
    .add('retract_sink', testTable(kv, [], { sinkMode: 'all' }))
    .add('append_sink', testTable(kv))
    .add('count_sink', testTable(counts, [], { sinkMode: 'all' }))
    .add('plain', testTable(kv, plainRows()))
    .add('upsert_sink_kc', testTable(kc, [], { sinkMode: 'upsert' }))
    .add('upsert_sink_nokey', testTable(kcNoKey, [], { sinkMode: 'upsert' }))
    .add('retract_sink_kc', testTable(kcNoKey, [], { sinkMode: 'all' }));
}

const kc = ResolvedSchema.of([Columns.physical('k', notNull(DataTypes.STRING())), Columns.physical('c', DataTypes.BIGINT())], [], ResolvedSchema.primaryKey(['k']));
const kcNoKey = ResolvedSchema.of([Columns.physical('k', DataTypes.STRING()), Columns.physical('c', DataTypes.BIGINT())]);
/** Insert-only rows; 'b' twice, for an update. */
const plainRows = (): Row[] => [Row.insert('a', 1), Row.insert('b', 2), Row.insert('b', 3), Row.insert('c', 4)];

async function plan(sql: string, c = ctx()): Promise<string> {
  const text = await explain(parseStatement(sql), c, ['CHANGELOG_MODE']);
  return text.split('== Optimized Physical Plan ==\n')[1]!.split('\n\n')[0]!;
}

describe('ChangelogNormalize placement (Flink 2.x changelog-mode inference)', () => {
  it('normalizes an upsert source under SELECT *, keyed and hashed by the primary key', async () => {
    expect(await plan('SELECT * FROM upserts')).toBe(
      [
        'ChangelogNormalize(key=[k], changelogMode=[I,UB,UA,D])',
        '+- Exchange(distribution=[hash[k]], changelogMode=[I,UA,D])',
        '   +- TableSourceScan(table=[[default_catalog, default_database, upserts]], fields=[k, v], changelogMode=[I,UA,D])',
      ].join('\n'),
    );
  });

  it('keeps the primary key in a projection pushed into the source, under an aggregate', async () => {
    const p = await plan('SELECT COUNT(*), SUM(v) FROM wide');
    expect(p).toContain('ChangelogNormalize(key=[k], changelogMode=[I,UB,UA,D])');
    expect(p).toContain('TableSourceScan(table=[[default_catalog, default_database, wide, project=[k, v]]], fields=[k, v]');
    const q = await plan('SELECT w FROM wide');
    expect(q).toContain('Calc(select=[w], changelogMode=[I,UB,UA,D])\n+- ChangelogNormalize(key=[k]');
    expect(q).toContain('wide, project=[k, w]]], fields=[k, w]');
  });

  it('is not needed by an upsert sink keyed like the source, reached through a projection', async () => {
    const p = await plan('INSERT INTO upsert_sink SELECT k, v + 1 FROM upserts');
    expect(p).not.toContain('ChangelogNormalize');
    expect(p).toContain('Calc(select=[k, +(v, 1) AS EXPR$1], changelogMode=[I,UA,D])');
  });

  it('is kept for an upsert sink with another key, a filter, a metadata column or a retract sink', async () => {
    // Flink keeps it where -U is needed: sink key differs from the upsert key, a filter (FLINK-9528), a retracting sink.
    expect(await plan('INSERT INTO upsert_sink_v SELECT v FROM upserts')).toContain('ChangelogNormalize(key=[k], changelogMode=[I,UB,UA,D])');
    expect(await plan('INSERT INTO upsert_sink SELECT k, v FROM upserts WHERE v > 1')).toContain('ChangelogNormalize(key=[k]');
    expect(await plan('INSERT INTO retract_sink SELECT k, v FROM upserts')).toContain('ChangelogNormalize(key=[k], changelogMode=[I,UB,UA,D])');
    // Metadata read: kept, but without -U since the sink takes updates by key (generateUpdateBefore = false).
    const m = await plan('INSERT INTO upsert_sink_ts SELECT k, v, ts FROM upserts_meta');
    expect(m).toContain('ChangelogNormalize(key=[k], changelogMode=[I,UA,D])');
    expect(await plan('INSERT INTO upsert_sink SELECT k, v FROM upserts_meta')).not.toContain('ChangelogNormalize');
  });

  it('is not placed for CDC sources unless table.exec.source.cdc-events-duplicate is on', async () => {
    expect(await plan('SELECT * FROM cdc')).not.toContain('ChangelogNormalize');
    const dup = await plan('SELECT v FROM cdc', ctx({ 'table.exec.source.cdc-events-duplicate': 'true' }));
    expect(dup).toContain('ChangelogNormalize(key=[k]');
    expect(dup).toContain('fields=[k, v]');
  });

  it('names the normalize as the producer of updates an append sink cannot take', async () => {
    await expect(runInsert('INSERT INTO append_sink SELECT k, v FROM upserts', ctx())).rejects.toThrow(
      "Table sink 'default_catalog.default_database.append_sink' doesn't support consuming update and delete changes which is produced by node ChangelogNormalize(key=[k])",
    );
  });

  it('requires a primary key on an upsert source, as Flink', async () => {
    const c = new TestContext('streaming').add('nopk', testTable(kv, [], { changelog: ChangelogMode.upsert() }));
    await expect(runQuery('SELECT * FROM nopk', c)).rejects.toThrow(
      "Table 'default_catalog.default_database.nopk' produces a changelog stream that contains UPDATE_AFTER but no UPDATE_BEFORE. This requires defining a primary key constraint on the table.",
    );
  });
});

describe('GROUP BY updates without -U (Flink\'s generateUpdateBefore)', () => {
  it('emits +U alone to a sink taking updates by key, as Flink\'s plan shows (TableSinkTest: changelogMode=[I,UA])', async () => {
    expect(await plan('INSERT INTO upsert_sink_kc SELECT k, COUNT(*) FROM plain GROUP BY k')).toContain(
      'GroupAggregate(groupBy=[k], select=[k, COUNT(*) AS EXPR$1], changelogMode=[I,UA])',
    );
    // A sink without a primary key that drops -U (as blackhole): the same.
    expect(await plan('INSERT INTO upsert_sink_nokey SELECT k, COUNT(*) FROM plain GROUP BY k')).toContain('changelogMode=[I,UA])');
    // Over an updating input it still retracts from its own state, and deletes: [I,UA,D].
    expect(await plan('INSERT INTO upsert_sink_kc SELECT k, COUNT(*) FROM upserts GROUP BY k')).toContain(
      'GroupAggregate(groupBy=[k], select=[k, COUNT(*) AS EXPR$1], changelogMode=[I,UA,D])',
    );
  });

  it('keeps -U for a retract sink, behind a filter (FLINK-9528), and for a SELECT', async () => {
    expect(await plan('INSERT INTO retract_sink_kc SELECT k, COUNT(*) FROM plain GROUP BY k')).toContain('changelogMode=[I,UB,UA])');
    expect(await plan('INSERT INTO upsert_sink_kc SELECT * FROM (SELECT k, COUNT(*) AS c FROM plain GROUP BY k) WHERE c < 10')).toContain(
      'GroupAggregate(groupBy=[k], select=[k, COUNT(*) AS c], changelogMode=[I,UB,UA])',
    );
    expect(await plan('SELECT k, COUNT(*) FROM plain GROUP BY k')).toContain('changelogMode=[I,UB,UA])');
  });

  it('writes +I and +U rows only, which materialize to the result', async () => {
    const c = ctx();
    await runInsert('INSERT INTO upsert_sink_kc SELECT k, COUNT(*) FROM plain GROUP BY k', c);
    expect(formatRows(c.tables.get('upsert_sink_kc')!.written, kc.columnTypes())).toEqual(['+I[a, 1]', '+I[b, 1]', '+U[b, 2]', '+I[c, 1]']);
    // Over an upsert source (v read, so the update of 'a' is one): its -U empties the group of 'a', a -D with the
    // whole row; the tombstone of 'b' deletes its group.
    const u = ctx();
    await runInsert('INSERT INTO upsert_sink_kc SELECT k, COUNT(*) FROM upserts WHERE v > 0 GROUP BY k', u);
    expect(formatRows(u.tables.get('upsert_sink_kc')!.written, kc.columnTypes())).toEqual(['+I[a, 1]', '+I[b, 1]', '-D[a, 1]', '+I[a, 1]', '-D[b, 1]']);
  });
});

describe('ChangelogNormalize results', () => {
  it('SELECT * retracts the old row before an update and deletes with the full row', async () => {
    const { rows, types } = await runQuery('SELECT * FROM upserts', ctx());
    expect(formatRows(rows, types)).toEqual(['+I[a, 1]', '+I[b, 2]', '-U[a, 1]', '+U[a, 5]', '-D[b, 2]']);
    expect(materialize(rows, types)).toEqual(['[a, 5]']);
  });

  it('an aggregate over an upsert source counts each key once and honours tombstones', async () => {
    const { rows, types } = await runQuery('SELECT COUNT(*) AS c, SUM(v) AS s FROM upserts', ctx());
    expect(materialize(rows, types)).toEqual(['[1, 5]']);
    const c = ctx();
    await runInsert('INSERT INTO count_sink SELECT COUNT(*), SUM(v) FROM upserts', c);
    expect(materialize(c.tables.get('count_sink')!.written, counts.columnTypes())).toEqual(['[1, 5]']);
  });

  it('an upsert sink keyed like the source gets the source rows as they are', async () => {
    const c = ctx();
    await runInsert('INSERT INTO upsert_sink SELECT k, v FROM upserts', c);
    expect(formatRows(c.tables.get('upsert_sink')!.written, pkKv.columnTypes())).toEqual([
      '+I[a, 1]',
      '+I[b, 2]',
      '+U[a, 5]',
      '+U[a, 5]',
      '-D[b, NULL]',
      '-D[zz, NULL]',
    ]);
  });

  it('with a state TTL an identical repeat is still emitted (Flink: refreshes downstream state)', async () => {
    const { rows, types } = await runQuery('SELECT * FROM upserts', ctx({ 'table.exec.state.ttl': '1 h' }));
    expect(formatRows(rows, types)).toEqual(['+I[a, 1]', '+I[b, 2]', '-U[a, 1]', '+U[a, 5]', '-U[a, 5]', '+U[a, 5]', '-D[b, 2]']);
  });
});
