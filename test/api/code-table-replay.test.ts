// The recording of what a code connector's sources answered on the main thread, and the stand-ins a worker plans
// with (issue #19 item 4): the same answers in the same order, nothing a worker cannot rebuild, and a clear
// internal error when a worker's planning would ask something the main thread's did not.
import { describe, expect, it } from 'vitest';
import { CodeTableRecorder, isReplayableFactory, standInFactory } from '../../src/api/code-table-replay.js';
import { objectIdentifier } from '../../src/catalog/object-identifier.js';
import { ChangelogMode } from '../../src/factories/changelog-mode.js';
import type { DynamicTableFactoryContext, DynamicTableSourceFactory } from '../../src/factories/dynamic-table-factory.js';
import type { ScanTableSource } from '../../src/factories/dynamic-table-source.js';
import { mainThreadOnlyReason } from '../../src/factories/main-thread-only.js';
import type { SourceExpression } from '../../src/factories/source-filter.js';
import { RowKind } from '../../src/types/row-kind.js';

const ctx = (table: string): DynamicTableFactoryContext => ({ identifier: objectIdentifier('cat', 'db', table) }) as unknown as DynamicTableFactoryContext;
const INT = { kind: 'INT', nullable: true } as const;
const filter = (i: number): SourceExpression => ({ kind: 'field', name: `f${i}`, index: i, type: INT });

/** A source factory whose sources answer from `source()`, a fresh object each time. */
function factory(source: () => ScanTableSource): DynamicTableSourceFactory {
  return { factoryIdentifier: 'mine', requiredOptions: () => [], optionalOptions: () => [], createDynamicTableSource: () => source() };
}

function summaryCounting(): ScanTableSource {
  let projected = 'all';
  return {
    kind: 'scan-source',
    supportsWatermarkPushDown: true,
    getChangelogMode: () => ChangelogMode.upsert(),
    getScanRuntimeProvider: () => ({ source: { boundedness: () => 'BOUNDED' } as never, bounded: true, parallelism: 3 }),
    asSummaryString: () => `mine(${projected})`,
    applyProjection: (fields) => {
      projected = fields.join(',');
      return true;
    },
    applyFilters: (filters) => ({ accepted: [filters[1]!], remaining: [filters[0]!, filters[1]!] }),
  };
}

describe('a code connector recorded on the main thread and replayed in a worker', () => {
  it('answers in the worker as the main thread did, in order, marked main-thread only', () => {
    const recorder = new CodeTableRecorder();
    const f = recorder.wrap(factory(summaryCounting)) as DynamicTableSourceFactory;
    recorder.startJob();
    const real = f.createDynamicTableSource(ctx('t')) as ScanTableSource;
    const filters = [filter(0), filter(1)];
    const seen = [real.asSummaryString(), real.applyProjection!([2, 0], null as never), real.asSummaryString(), real.applyFilters!(filters, null as never)];
    expect(mainThreadOnlyReason(real)).toBe("connector 'mine' is registered in code without a module");
    const recorded = recorder.recorded();
    if (typeof recorded === 'string') throw new Error(recorded);

    const stand = standInFactory('mine', { source: true, sink: false }, structuredClone(recorded)) as unknown as DynamicTableSourceFactory & { startJob(): void };
    stand.startJob();
    const replay = stand.createDynamicTableSource(ctx('t')) as ScanTableSource;
    const workerFilters = [filter(0), filter(1)];
    expect([replay.asSummaryString(), replay.applyProjection!([2, 0], null as never), replay.asSummaryString()]).toEqual(seen.slice(0, 3));
    const pushed = replay.applyFilters!(workerFilters, null as never);
    // The worker's own filter objects, where the main thread's source put them.
    expect(pushed.accepted[0]).toBe(workerFilters[1]);
    expect(pushed.remaining).toEqual([workerFilters[0], workerFilters[1]]);
    // A summary asked once more than on the main thread gets the last answer.
    expect(replay.asSummaryString()).toBe('mine(2,0)');
    expect(replay.getChangelogMode).toBeTypeOf('function');
    expect(replay.supportsWatermarkPushDown).toBe(true);
    expect(replay.kind).toBe('scan-source');
    expect(mainThreadOnlyReason(replay)).toBe("connector 'mine' is registered in code without a module");
    expect(() => replay.getChangelogMode()).toThrow(/internal: a worker thread asked getChangelogMode of the source of table 'cat\.db\.t'/);
  });

  it('replays a changelog mode and a runtime provider whose source runs on the main thread only', () => {
    const recorder = new CodeTableRecorder();
    const f = recorder.wrap(factory(summaryCounting)) as DynamicTableSourceFactory;
    recorder.startJob();
    const real = f.createDynamicTableSource(ctx('t')) as ScanTableSource;
    real.getChangelogMode();
    real.getScanRuntimeProvider({ batchMode: false });
    const stand = standInFactory('mine', { source: true, sink: false }, structuredClone(recorder.recorded() as never)) as unknown as DynamicTableSourceFactory & { startJob(): void };
    stand.startJob();
    const replay = stand.createDynamicTableSource(ctx('t')) as ScanTableSource;
    const mode = replay.getChangelogMode();
    expect([RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE].map((k) => mode.contains(k))).toEqual([true, false, true, true]);
    const p = replay.getScanRuntimeProvider({ batchMode: false });
    expect([p.bounded, p.parallelism, p.source.boundedness()]).toEqual([true, 3, 'BOUNDED']);
    expect(() => p.source.getSplitSerializer()).toThrow(/runs on the main thread only/);
    // A table the main thread's planning of the job did not read.
    expect(() => stand.createDynamicTableSource(ctx('other'))).toThrow(/internal: a worker thread planned the source of table 'cat\.db\.other'/);
  });

  it('says why a worker cannot plan the job when a source pushes down filters of its own making', () => {
    const recorder = new CodeTableRecorder();
    const rewriting = (): ScanTableSource => ({ ...summaryCounting(), applyFilters: () => ({ accepted: [], remaining: [filter(9)] }) });
    const f = recorder.wrap(factory(rewriting)) as DynamicTableSourceFactory;
    recorder.startJob();
    (f.createDynamicTableSource(ctx('t')) as ScanTableSource).applyFilters!([filter(0)], null as never);
    expect(recorder.recorded()).toBe(
      "the source of table 'cat.db.t' (connector 'mine', registered in code without a module) answered applyFilters with expressions of its own, which a worker thread cannot rebuild",
    );
    // The next job starts afresh.
    recorder.startJob();
    expect(recorder.recorded()).toEqual({ job: [], latest: [expect.objectContaining({ table: 'cat.db.t' })] });
  });

  it('replays connector factories only: a format or catalog factory stays a closure no worker can plan with', () => {
    expect(isReplayableFactory(factory(summaryCounting))).toBe(true);
    expect(isReplayableFactory({ ...factory(summaryCounting), createDecodingFormat: () => null } as never)).toBe(false);
    expect(isReplayableFactory({ factoryIdentifier: 'c', requiredOptions: () => [], optionalOptions: () => [], createCatalog: () => null } as never)).toBe(false);
  });
});
