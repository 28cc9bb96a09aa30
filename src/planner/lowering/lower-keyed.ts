// Lowering of the keyed nodes behind one exchange: sort, OVER, MATCH_RECOGNIZE, rank, ChangelogNormalize.
import { PlanningError } from '../../errors/sluice-error.js';
import { temporalSortFactory } from '../../table-runtime/temporal-sort-operator.js';
import { limitFactory, sortLimitFactory } from '../../table-runtime/sort-limit-operator.js';
import { overAggregateFactory } from '../../table-runtime/over-aggregate-operator.js';
import type { OverSpec } from '../../table-runtime/over-aggregate-operator.js';
import { matchRecognizeFactory } from '../../table-runtime/match-recognize/match-recognize-operator.js';
import { rankOperatorFactory } from '../../table-runtime/rank-operator.js';
import { changelogNormalizeFactory } from '../../table-runtime/changelog-normalize-operator.js';
import { replacesTop1InPlace } from '../logical/changelog.js';
import { rankStrategy } from '../logical/rank-strategy.js';
import { deduplicationOf, isProctimeFirstRow, isRowtimeInsertOnlyFirstRow } from '../logical/deduplicate.js';
import { rowtimeFirstRowFactory } from '../../table-runtime/rowtime-first-row-operator.js';
import { windowRankFactory } from '../../table-runtime/window-rank-operator.js';
import type { ChangelogNormalizeNode, OverNode, RankNode, SortNode } from '../logical/plan-node.js';
import type { MatchNode } from '../logical/match-node.js';
import { matchSpec } from './lower-match.js';
import { aggregateFunction } from './lower-aggregate.js';
import type { Lowering, Stream } from './lowering-context.js';

/** ORDER BY (on a time attribute in streaming mode) and LIMIT: one subtask. */
export function lowerSort(b: Lowering, n: SortNode, name: string): Stream {
  const o = b.options;
  const input = b.lower(n.input);
  const v = b.keyedVertex(n, name);
  if (n.keys.length === 0) v.operators.push(limitFactory(name, n.offset, n.fetch));
  else if (o.mode === 'batch') v.operators.push(sortLimitFactory(name, n.keys, n.offset, n.fetch));
  else {
    // Checked by the planner: the first key is an ascending rowtime.
    v.operators.push(temporalSortFactory(name, n.keys[0]!.index, n.keys));
    if (n.fetch !== null || n.offset > 0) v.operators.push(limitFactory(name, n.offset, n.fetch));
  }
  b.exchange(n, input, v);
  return { id: v.id, parallelism: v.parallelism };
}

/** An OVER aggregate, keyed by its partition keys. */
export function lowerOver(b: Lowering, n: OverNode, name: string): Stream {
  const o = b.options;
  const input = b.lower(n.input);
  const keys = n.partitionKeys;
  const v = b.keyedVertex(n, name);
  const inputTypes = n.input.fields.map((f) => f.type);
  const spec = (): OverSpec => ({
    partitionKeys: keys,
    orderKey: n.orderKey.index,
    descending: n.orderKey.descending,
    mode: o.mode,
    calls: n.calls.map((c) => ({
      create: () => aggregateFunction(b, c.call, inputTypes),
      args: c.call.args,
      frame: c.frame,
      distinct: c.call.distinct,
    })),
  });
  v.operators.push(overAggregateFactory(name, spec));
  b.exchange(n, input, v);
  return { id: v.id, parallelism: v.parallelism };
}

/** MATCH_RECOGNIZE, keyed by its partition keys. */
export function lowerMatch(b: Lowering, n: MatchNode, name: string): Stream {
  const o = b.options;
  const input = b.lower(n.input);
  // Without PARTITION BY the whole input is one partition, so one subtask (as Flink).
  const v = b.keyedVertex(n, name);
  v.operators.push(matchRecognizeFactory(name, () => matchSpec(n, o.mode, o.timeZone, o.functions)));
  b.exchange(n, input, v);
  return { id: v.id, parallelism: v.parallelism };
}

/** A Top-N, SortLimit or deduplication, keyed by its partition keys. */
export function lowerRank(b: Lowering, n: RankNode, name: string): Stream {
  const o = b.options;
  const input = b.lower(n.input);
  const keys = n.partitionKeys;
  const v = b.keyedVertex(n, name);
  if (o.mode === 'streaming' && n.limit === null) {
    throw new PlanningError('OVER windows\' ordering in stream mode must be defined on a time attribute.');
  }
  const w = n.window;
  if (o.mode === 'streaming' && w !== undefined && n.limit !== null) {
    // A window Top-N / deduplication, keyed (as its exchange) by the partition keys other than the window's.
    const dedup = deduplicationOf(n);
    v.operators.push(
      windowRankFactory(name, {
        partitionKeys: keys.filter((k) => k !== w.startField && k !== w.endField),
        windowEndField: w.endField,
        orderKeys: n.orderKeys,
        rankStart: 1,
        rankEnd: n.limit,
        outputRankNumber: n.outputRankNumber,
        newestFirstAmongTies: dedup?.keep === 'LastRow',
      }),
    );
    b.exchange(n, input, v);
    return { id: v.id, parallelism: v.parallelism };
  }
  const inputMode = b.physical.of(n.input).changelog;
  const rowtimeFirstRow = o.mode === 'streaming' && isRowtimeInsertOnlyFirstRow(n, inputMode.isInsertOnly());
  const strategy = o.mode === 'streaming' ? rankStrategy(n, b.physical.changelog) : undefined;
  v.operators.push(
    rowtimeFirstRow
      ? rowtimeFirstRowFactory(name, { partitionKeys: keys, rowtimeIndex: n.orderKeys[0]!.index })
      : rankOperatorFactory(name, {
          partitionKeys: keys,
          orderKeys: n.orderKeys,
          limit: n.limit,
          outputRankNumber: n.outputRankNumber,
          mode: o.mode,
          rankType: n.rankType ?? 'ROW_NUMBER',
          firstRowOnly: isProctimeFirstRow(n),
          newestFirstAmongTies: o.mode === 'streaming' && deduplicationOf(n)?.keep === 'LastRow',
          rankStart: n.sortLimit === undefined ? 1 : n.sortLimit.offset + 1,
          insertOnlyInput: o.mode === 'streaming' && inputMode.isInsertOnly(),
          top1Updates: o.mode === 'streaming' && !n.outputRankNumber && replacesTop1InPlace(n, inputMode),
          ...(n.prunedFrom === undefined ? {} : { restoredRows: n.prunedFrom }),
          ...(strategy?.kind === 'update-fast' ? { updateFast: { rowKey: strategy.rowKey } } : {}),
        }),
  );
  b.exchange(n, input, v);
  return { id: v.id, parallelism: v.parallelism };
}

/** A ChangelogNormalize, keyed by the source's unique key. */
export function lowerChangelogNormalize(b: Lowering, n: ChangelogNormalizeNode, name: string): Stream {
  const o = b.options;
  const input = b.lower(n.input);
  const keys = n.uniqueKeys;
  const v = b.keyedVertex(n, name);
  v.operators.push(changelogNormalizeFactory(name, { keys, generateUpdateBefore: n.generateUpdateBefore, stateTtlMs: o.stateTtlMs ?? 0 }));
  b.exchange(n, input, v);
  return { id: v.id, parallelism: v.parallelism };
}
