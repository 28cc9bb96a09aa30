import { PlanningError } from '../../errors/sluice-error.js';
import type { CatalogTable } from '../../catalog/catalog-table.js';
import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { ScanTableSource } from '../../factories/dynamic-table-source.js';
import { RowKind } from '../../types/row-kind.js';
import type { AggregateNode, ChangelogNormalizeNode, PlanNode, ScanNode, SinkNode } from '../logical/plan-node.js';
import { inputsOf, withInputs } from '../logical/plan-node.js';
import { ChangelogInference } from '../logical/changelog.js';
import { rankStrategy } from '../logical/rank-strategy.js';
import { primaryKeyIndexes, upsertKeys } from '../logical/upsert-keys.js';

/*
 * Where Flink puts a ChangelogNormalize, and where its changelog-mode inference takes it away again
 * (FlinkChangelogModeInferenceProgram with SatisfyUpdateKindTraitVisitor, SatisfyDeleteKindTraitVisitor and
 * ChangelogNormalizeRequirementResolver in Flink 2.x):
 *
 * - every scan of an upsert source (updates without -U and a primary key; DynamicSourceUtils.isUpsertSource),
 *   and of a CDC source when `table.exec.source.cdc-events-duplicate` is on, gets one keyed by the primary key;
 * - it is dropped again when everything downstream takes updates by key (ONLY_UPDATE_AFTER): a sink that
 *   accepts upserts and whose primary key is the input's upsert key, reached only through projections,
 *   unions, lookup joins and unnests; not when a consumer needs -U (the collect sink of a SELECT, an
 *   aggregate, a Top-N, a join, a filter: FLINK-9528), nor when metadata columns are read, nor for
 *   duplicate CDC events;
 * - a streaming GROUP BY under such consumers emits its updates without -U (its generateUpdateBefore), instead of
 *   a DropUpdateBefore in front of the sink taking them away.
 *
 * Sluice keeps it where Flink 2.x could also drop it under a join whose input key contains the join key:
 * Sluice's join retracts by -U. The normalize emits -U only where a consumer needs it (Flink's
 * generateUpdateBefore).
 */

/** How a consumer needs updates: with -U (BEFORE_AND_AFTER) or by key (ONLY_UPDATE_AFTER). */
type UpdateNeed = 'before-and-after' | 'only-after';

export interface NormalizeOptions {
  /** `table.exec.source.cdc-events-duplicate`. */
  readonly cdcEventsDuplicate: boolean;
}

/** Updates without -U, with a primary key (Flink's DynamicSourceUtils.isUpsertSource). */
export function isUpsertSource(table: CatalogTable, source: ScanTableSource): boolean {
  const m = source.getChangelogMode();
  return m.contains(RowKind.UPDATE_AFTER) && !m.contains(RowKind.UPDATE_BEFORE) && table.schema.primaryKey !== undefined;
}

/** A CDC source whose events may repeat, so it is normalized by key (DynamicSourceUtils.isSourceChangeEventsDuplicate). */
export function isDuplicateCdcSource(table: CatalogTable, source: ScanTableSource, options: NormalizeOptions): boolean {
  const m = source.getChangelogMode();
  return options.cdcEventsDuplicate && !m.isInsertOnly() && !isUpsertSource(table, source) && table.schema.primaryKey !== undefined;
}

/** True if a scan of this table needs its primary key columns for a ChangelogNormalize (projection push-down keeps them). */
export function needsPrimaryKey(table: CatalogTable, source: ScanTableSource, options: NormalizeOptions): boolean {
  return isUpsertSource(table, source) || isDuplicateCdcSource(table, source, options);
}

/** Places ChangelogNormalize nodes in an optimized streaming query plan, whose result is collected with -U. */
export function normalizeQuery(root: PlanNode, options: NormalizeOptions): PlanNode {
  // A -U requirement is always satisfiable: only ONLY_UPDATE_AFTER can fail (under a filter).
  return visit(root, 'before-and-after', options)!;
}

/** Places ChangelogNormalize nodes in an optimized streaming INSERT plan, by what its sink accepts. */
export function normalizeInsert(sink: SinkNode, options: NormalizeOptions): SinkNode {
  for (const need of sinkNeeds(sink)) {
    const input = visit(sink.input, need, options);
    if (input !== undefined) return input === sink.input ? sink : { ...sink, input };
  }
  return { ...sink, input: visit(sink.input, 'before-and-after', options)! };
}

/** The update kinds the sink can take, preferred first (Flink's inferSinkRequiredTraits). */
function sinkNeeds(sink: SinkNode): UpdateNeed[] {
  const produced = new ChangelogInference('streaming').of(sink.input);
  if (produced.isInsertOnly()) return ['before-and-after'];
  // Flink asks the sink with the full changelog of the kinds the query produces (ModifyKindSet.toChangelogMode).
  const kinds = [RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE].filter(
    (k) => produced.contains(k) || ((k === RowKind.UPDATE_BEFORE || k === RowKind.UPDATE_AFTER) && (produced.contains(RowKind.UPDATE_AFTER) || produced.contains(RowKind.UPDATE_BEFORE))),
  );
  const accepted = sink.sink.getChangelogMode(ChangelogMode.of(...kinds));
  if (accepted.contains(RowKind.UPDATE_BEFORE) || !accepted.contains(RowKind.UPDATE_AFTER)) return ['before-and-after'];
  const pk = sink.table.schema.primaryKey;
  if (pk === undefined) return ['only-after', 'before-and-after'];
  const sinkKey = pk.columns.map((c) => sink.fields.findIndex((f) => f.name === c));
  // Flink takes updates by key only when one of the input's upsert keys is exactly the sink's key.
  const same = upsertKeys(sink.input).some((key) => key.length === sinkKey.length && sinkKey.every((k) => key.includes(k)));
  return same ? ['only-after', 'before-and-after'] : ['before-and-after'];
}

/**
 * Rewrites `n` so its output satisfies `need`; undefined when it cannot (the caller then tries -U).
 * Mirrors SatisfyUpdateKindTraitVisitor for the nodes Sluice has.
 */
function visit(n: PlanNode, need: UpdateNeed, o: NormalizeOptions): PlanNode | undefined {
  const all = (childNeed: UpdateNeed): PlanNode | undefined => {
    const inputs: PlanNode[] = [];
    for (const i of inputsOf(n)) {
      const v = visit(i, childNeed, o);
      if (v === undefined) return undefined;
      inputs.push(v);
    }
    return inputs.every((x, i) => x === inputsOf(n)[i]) ? n : withInputs(n, inputs);
  };
  switch (n.kind) {
    case 'scan':
      return normalizeScan(n, need, o);
    case 'values':
      return n;
    case 'calc':
      // A filter does not keep ONLY_UPDATE_AFTER (Flink, FLINK-9528: `cnt < 10` over updates by key).
      if (need === 'only-after' && n.condition !== null) return undefined;
      return all(need);
    case 'union':
    case 'unnest':
    case 'lookup-join':
    case 'window-tvf':
    case 'sink':
      return all(need);
    case 'join':
      if (n.temporal !== undefined) {
        // The versioned side of a temporal join is taken by key (Flink prefers ONLY_UPDATE_AFTER there).
        const left = visit(n.left, 'before-and-after', o)!;
        const right = visit(n.right, 'only-after', o) ?? visit(n.right, 'before-and-after', o)!;
        return left === n.left && right === n.right ? n : { ...n, left, right };
      }
      return all('before-and-after');
    case 'aggregate': {
      // A GROUP BY gives whatever its consumers need (Flink's SatisfyUpdateKindTraitVisitor: its provided trait is
      // the required one), but retracts with -U from its input.
      const c = all('before-and-after');
      if (c === undefined || need === 'before-and-after' || n.window !== undefined) return c;
      return { ...(c as AggregateNode), generateUpdateBefore: false };
    }
    case 'rank':
      // An update-fast Top-N reads each update as one change of its row: it asks its input for +U alone (Flink's
      // visitRankStrategies), where the input can give it; the input's -U would go unread.
      if (rankStrategy(n, new ChangelogInference('streaming')).kind === 'update-fast') {
        const input = visit(n.input, 'only-after', o) ?? visit(n.input, 'before-and-after', o)!;
        return input === n.input ? n : { ...n, input };
      }
      return all('before-and-after');
    case 'local-window-aggregate':
    case 'global-window-aggregate':
    case 'sort':
    case 'over':
    case 'match':
    case 'changelog-normalize':
      // They retract with -U (group aggregates, limits, retracting Top-N, regular and temporal joins).
      return all('before-and-after');
    default: {
      const never: never = n;
      return never;
    }
  }
}

/** Flink's DynamicSourceUtils.validateScanSourceForStreaming: the changelogs that need a primary key have one. */
function checkPrimaryKey(scan: ScanNode, o: NormalizeOptions): void {
  if (scan.table.schema.primaryKey !== undefined) return;
  const m = scan.source.getChangelogMode();
  const id = scan.identifier;
  const name = `${id.catalog}.${id.database}.${id.object}`;
  if (m.contains(RowKind.UPDATE_AFTER) && !m.contains(RowKind.UPDATE_BEFORE)) {
    throw new PlanningError(`Table '${name}' produces a changelog stream that contains UPDATE_AFTER but no UPDATE_BEFORE. This requires defining a primary key constraint on the table.`);
  }
  if (o.cdcEventsDuplicate && !m.isInsertOnly()) {
    throw new PlanningError(
      `Configuration 'table.exec.source.cdc-events-duplicate' is enabled which requires the changelog sources to define a PRIMARY KEY. However, table '${name}' doesn't have a primary key.`,
    );
  }
}

function normalizeScan(scan: ScanNode, need: UpdateNeed, o: NormalizeOptions): PlanNode {
  checkPrimaryKey(scan, o);
  const upsert = isUpsertSource(scan.table, scan.source);
  if (!upsert && !isDuplicateCdcSource(scan.table, scan.source, o)) return scan;
  const keys = primaryKeyIndexes(scan);
  if (keys === undefined) return scan;
  // ChangelogNormalizeRequirementResolver: not needed when updates by key suffice, the source's changes
  // are not duplicated, and no metadata column is read (the normalize would be where they are consistent).
  if (upsert && need === 'only-after' && scan.metadataKeys.length === 0) return scan;
  const node: ChangelogNormalizeNode = {
    kind: 'changelog-normalize',
    input: scan,
    uniqueKeys: keys,
    generateUpdateBefore: need === 'before-and-after',
    fields: scan.fields,
  };
  return node;
}
