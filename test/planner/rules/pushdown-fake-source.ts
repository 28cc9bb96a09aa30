import type { CatalogTable } from '../../../src/catalog/catalog-table.js';
import type { ObjectIdentifier } from '../../../src/catalog/object-identifier.js';
import { ChangelogMode } from '../../../src/factories/changelog-mode.js';
import type { DynamicTableSource, ScanTableSource } from '../../../src/factories/dynamic-table-source.js';
import type { FilterCompiler, FilterPushDownResult, RowPredicate, SourceExpression } from '../../../src/factories/source-filter.js';
import { ValuesSource } from '../../../src/table-runtime/values-source.js';
import type { LogicalType } from '../../../src/types/logical-type.js';
import { Row } from '../../../src/types/row.js';
import type { ResolvedSchema } from '../../../src/types/schema.js';
import { TestContext } from '../harness.js';

export type Verdict = 'accept' | 'both' | 'reject';

/** A readable text of a source filter, for assertions: `greaterThan(a#0, 3)`. */
export function filterText(e: SourceExpression): string {
  switch (e.kind) {
    case 'field':
      return `${e.name}#${e.index}`;
    case 'literal':
      return String(e.value);
    case 'call':
      return `${e.name}(${e.args.map(filterText).join(', ')})`;
  }
}

/** What the planner did to a FakeSource. */
export interface FakeLog {
  offered?: string[];
  partitions?: string[];
  listCalls: number;
  projection?: readonly number[];
}

/**
 * A scan source over fixed rows (physical columns, then metadata values) implementing filter and
 * partition push-down; it applies the filters it accepts with the planner's compiler.
 */
export class FakeSource implements ScanTableSource {
  readonly kind = 'scan-source';
  private predicates: RowPredicate[] = [];
  private projection: readonly number[] | undefined;
  private metadata: readonly string[] = [];
  private partitionSet: Set<string> | undefined;

  constructor(
    private readonly rows: readonly (readonly unknown[])[],
    private readonly physicalCount: number,
    readonly log: FakeLog,
    private readonly verdict: (e: SourceExpression) => Verdict,
    private readonly partitions: readonly ReadonlyMap<string, string | null>[] | null | undefined,
    private readonly partitionOf: (row: readonly unknown[]) => string = () => '',
  ) {
    if (partitions === undefined) {
      this.listPartitions = undefined;
      this.applyPartitions = undefined;
    }
  }
  getChangelogMode(): ChangelogMode {
    return ChangelogMode.insertOnly();
  }
  asSummaryString(): string {
    return 'fake';
  }
  listReadableMetadata(): ReadonlyMap<string, LogicalType> {
    return new Map([['m', { kind: 'INT', nullable: true }]]);
  }
  applyReadableMetadata(keys: readonly string[]): void {
    this.metadata = keys;
  }
  applyProjection(idx: readonly number[]): boolean {
    this.projection = idx;
    this.log.projection = idx;
    return true;
  }
  applyFilters(filters: readonly SourceExpression[], compiler: FilterCompiler): FilterPushDownResult {
    this.log.offered = filters.map(filterText);
    const accepted = filters.filter((f) => this.verdict(f) !== 'reject');
    this.predicates = accepted.map((f) => compiler.compile(f));
    return { accepted, remaining: filters.filter((f) => this.verdict(f) !== 'accept') };
  }
  listPartitions?: () => readonly ReadonlyMap<string, string | null>[] | null = () => {
    this.log.listCalls++;
    return this.partitions ?? null;
  };
  applyPartitions?: (remaining: readonly ReadonlyMap<string, string | null>[]) => void = (remaining) => {
    this.log.partitions = remaining.map((p) => [...p.values()].join('/'));
    this.partitionSet = new Set(this.log.partitions);
  };
  getScanRuntimeProvider(): { source: ValuesSource; bounded: boolean } {
    const out: Row[] = [];
    for (const r of this.rows) {
      const physical = r.slice(0, this.physicalCount);
      if (!this.predicates.every((p) => p(physical))) continue;
      if (this.partitionSet !== undefined && !this.partitionSet.has(this.partitionOf(r))) continue;
      const fields = (this.projection ?? physical.map((_, i) => i)).map((i) => physical[i]);
      for (let m = 0; m < this.metadata.length; m++) fields.push(r[this.physicalCount + m]);
      out.push(new Row(0, fields));
    }
    return { source: new ValuesSource(out), bounded: true };
  }
}

/** A planner context whose table `t` is a FakeSource. */
export class FakeContext extends TestContext {
  readonly log: FakeLog = { listCalls: 0 };
  constructor(
    private readonly schema: ResolvedSchema,
    private readonly rows: readonly (readonly unknown[])[],
    private readonly verdict: (e: SourceExpression) => Verdict,
    private readonly opts: { partitionKeys?: string[]; partitions?: ReadonlyMap<string, string | null>[] | null; partitionOf?: (r: readonly unknown[]) => string } = {},
  ) {
    super('batch');
    const table: CatalogTable = { kind: 'table', schema, partitionKeys: opts.partitionKeys ?? [], options: { connector: 'fake' } };
    this.add('t', { table, written: [], pushed: {} });
  }
  override createSource(_id: ObjectIdentifier, _table: CatalogTable): DynamicTableSource {
    const physicalCount = this.schema.columns.filter((c) => c.kind === 'physical').length;
    return new FakeSource(this.rows, physicalCount, this.log, this.verdict, this.opts.partitions, this.opts.partitionOf);
  }
}
