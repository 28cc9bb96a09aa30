import { describe, expect, it } from 'vitest';
import { BlackHoleTableSinkFactory } from '../../../src/connectors/blackhole/blackhole-table-sink-factory.js';
import { DataGenTableSourceFactory } from '../../../src/connectors/datagen/datagen-table-source-factory.js';
import { ChangelogMode } from '../../../src/factories/changelog-mode.js';
import type { ScanTableSource } from '../../../src/factories/dynamic-table-source.js';
import { defaultRuntimeConfig, executeJob } from '../../../src/runtime/index.js';
import { DataTypes } from '../../../src/types/data-types.js';
import { RowKind } from '../../../src/types/row-kind.js';
import { pipe, tableContext } from '../datagen/context.js';

const cols = [['id', DataTypes.INT()]] as const;

describe('blackhole', () => {
  it('rejects any option besides connector with the supported list', () => {
    expect(() => new BlackHoleTableSinkFactory().createDynamicTableSink(tableContext(cols, { connector: 'blackhole', 'sink.parallelism': '2' }))).toThrow(
      /Unsupported options found for 'blackhole'\.\n\nUnsupported options:\n\nsink\.parallelism/,
    );
  });

  it('accepts every changelog kind but does not ask for UPDATE_BEFORE', () => {
    const sink = new BlackHoleTableSinkFactory().createDynamicTableSink(tableContext(cols, { connector: 'blackhole' }));
    const mode = sink.getChangelogMode(ChangelogMode.all());
    expect(mode.contains(RowKind.INSERT) && mode.contains(RowKind.UPDATE_AFTER) && mode.contains(RowKind.DELETE)).toBe(true);
    expect(mode.contains(RowKind.UPDATE_BEFORE)).toBe(false);
    expect(sink.getChangelogMode(ChangelogMode.insertOnly()).isInsertOnly()).toBe(true);
  });

  it('consumes a bounded job to the end', async () => {
    const src = new DataGenTableSourceFactory().createDynamicTableSource(
      tableContext(cols, { connector: 'datagen', 'number-of-rows': '3000', 'rows-per-second': '10000000' }),
    ) as ScanTableSource;
    const sink = new BlackHoleTableSinkFactory().createDynamicTableSink(tableContext(cols, { connector: 'blackhole' }));
    const client = executeJob(pipe(src.getScanRuntimeProvider({ batchMode: false }).source, sink.getSinkRuntimeProvider({ bounded: true }).sink), defaultRuntimeConfig());
    expect((await client.waitForCompletion()).status).toBe('FINISHED');
    expect(client.metrics().vertices.find((v) => v.vertexId === 'src')!.recordsIn).toBe(3000);
  });
});
