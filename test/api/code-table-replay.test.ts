// The recording of what a code connector's sources answered on the main thread, and the stand-ins a worker plans
// with (issue #19 item 4): the same answers in the same order, nothing a worker cannot rebuild, and a clear
// internal error when a worker's planning would ask something the main thread's did not.
import { describe, expect, it } from 'vitest';
import { buildsTableObjects, CodeFactoryUse, TableObjectRecorder, TableObjectReplayer } from '../../src/api/code-table-replay.js';
import { objectIdentifier } from '../../src/catalog/object-identifier.js';
import { ChangelogMode } from '../../src/factories/changelog-mode.js';
import type { DynamicTableFactoryContext, DynamicTableSourceFactory } from '../../src/factories/dynamic-table-factory.js';
import type { ScanTableSource } from '../../src/factories/dynamic-table-source.js';
import { mainThreadOnlyReason } from '../../src/factories/main-thread-only.js';
import type { SourceExpression } from '../../src/factories/source-filter.js';
import { RowKind } from '../../src/types/row-kind.js';

const ctx = (table: string): DynamicTableFactoryContext => ({ identifier: objectIdentifier('cat', 'db', table) }) as unknown as DynamicTableFactoryContext;
const PIN = "connector 'mine' is registered in code without a module";
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
    const recorder = new TableObjectRecorder();
    const real = recorder.record('cat.db.t', 'source', PIN, summaryCounting());
    const filters = [filter(0), filter(1)];
    const seen = [real.asSummaryString(), real.applyProjection!([2, 0], null as never), real.asSummaryString(), real.applyFilters!(filters, null as never)];
    expect(mainThreadOnlyReason(real)).toBe(PIN);
    expect(recorder.unreplayable).toBeUndefined();

    const replayer = new TableObjectReplayer(structuredClone(recorder.objects));
    const replay = replayer.next('source', 'cat.db.t') as ScanTableSource;
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
    expect(mainThreadOnlyReason(replay)).toBe(PIN);
    expect(() => replay.getChangelogMode()).toThrow(/internal: a worker thread asked getChangelogMode of the source of table 'cat\.db\.t'/);
  });

  it('replays a changelog mode and a runtime provider whose source runs on the main thread only', () => {
    const recorder = new TableObjectRecorder();
    const real = recorder.record('cat.db.t', 'source', PIN, summaryCounting());
    real.getChangelogMode();
    real.getScanRuntimeProvider({ batchMode: false });
    const replayer = new TableObjectReplayer(structuredClone(recorder.objects));
    const replay = replayer.next('source', 'cat.db.t') as ScanTableSource;
    const mode = replay.getChangelogMode();
    expect([RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE].map((k) => mode.contains(k))).toEqual([true, false, true, true]);
    const p = replay.getScanRuntimeProvider({ batchMode: false });
    expect([p.bounded, p.parallelism, p.source.boundedness()]).toEqual([true, 3, 'BOUNDED']);
    expect(() => p.source.getSplitSerializer()).toThrow(/runs on the main thread only/);
    // A table built normally on the main thread is built normally in the worker too; one built once more is an internal error.
    expect(replayer.next('source', 'cat.db.other')).toBeUndefined();
    expect(replayer.next('sink', 'cat.db.t')).toBeUndefined();
    expect(() => replayer.next('source', 'cat.db.t')).toThrow(/internal: a worker thread planned the source of table 'cat\.db\.t' \(connector 'mine' is registered in code without a module\) more often/);
  });

  it('says why a worker cannot plan the job when a source pushes down filters of its own making', () => {
    const recorder = new TableObjectRecorder();
    const rewriting = (): ScanTableSource => ({ ...summaryCounting(), applyFilters: () => ({ accepted: [], remaining: [filter(9)] }) });
    recorder.record('cat.db.t', 'source', PIN, rewriting()).applyFilters!([filter(0)], null as never);
    expect(recorder.unreplayable).toBe(
      "the source of table 'cat.db.t' (connector 'mine' is registered in code without a module) answered applyFilters with expressions of its own, which a worker thread cannot rebuild",
    );
  });

  it('names the code factories a creation used: the connector, and a format a built-in connector looked up', () => {
    const use = new CodeFactoryUse();
    const connector = use.wrap(factory(summaryCounting)) as DynamicTableSourceFactory;
    const format = use.wrap({ factoryIdentifier: 'fmt', requiredOptions: () => [], optionalOptions: () => [], createDecodingFormat: () => ({}) } as never) as unknown as {
      createDecodingFormat(): object;
    };
    expect(use.during(() => 1).pin).toBeUndefined();
    expect(use.during(() => connector.createDynamicTableSource(ctx('t'))).pin).toBe(PIN);
    const both = use.during(() => (format.createDecodingFormat(), connector.createDynamicTableSource(ctx('t')), format.createDecodingFormat()));
    expect(both.pin).toBe("format 'fmt' and connector 'mine' are registered in code without a module");
    // Outside a creation the factories work as they are, and nothing is noted.
    expect(connector.createDynamicTableSource(ctx('t'))).toHaveProperty('kind', 'scan-source');
    expect(connector.factoryIdentifier).toBe('mine');
  });

  it('records what connector and format factories build: a catalog factory builds nothing a worker runs', () => {
    expect(buildsTableObjects(factory(summaryCounting))).toBe(true);
    expect(buildsTableObjects({ factoryIdentifier: 'f', requiredOptions: () => [], optionalOptions: () => [], createDecodingFormat: () => null } as never)).toBe(true);
    expect(buildsTableObjects({ factoryIdentifier: 'c', requiredOptions: () => [], optionalOptions: () => [], createCatalog: () => null } as never)).toBe(false);
  });
});
