import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { ScanContext, ScanRuntimeProvider, ScanTableSource, TableStats } from '../../factories/dynamic-table-source.js';
import { PlanningError } from '../../errors/sluice-error.js';
import type { Source } from '../../runtime/index.js';
import { Row } from '../../types/row.js';
import type { FieldGenerator } from './field-generators.js';
import { GeneratorSource, type GeneratorSplit, type RowBatchGenerator } from './generator-source.js';
import { FastRandom, randomSeed } from './random.js';

export interface DataGenSettings {
  readonly generators: readonly FieldGenerator[];
  readonly rowsPerSecond: number;
  /** From number-of-rows and every sequence field (the smallest wins); null = unbounded. */
  readonly totalRows: number | null;
  readonly parallelism: number | undefined;
  /** Fixes the random values (tests); by default every reader seeds from the clock. */
  readonly seed?: number;
  /** `catalog.database.table`, named in errors (e.g. an unbounded table queried in batch mode). */
  readonly tableName?: string;
}

/** Fills batches column by column from the projected fields' generators. */
class DataGenBatchGenerator implements RowBatchGenerator {
  private readonly rng: FastRandom;
  constructor(
    private readonly fields: readonly FieldGenerator[],
    seed: number,
  ) {
    this.rng = new FastRandom(seed);
  }
  generate(_split: GeneratorSplit, from: number, count: number, out: Row[], now: number): void {
    const fields = this.fields;
    const rng = this.rng;
    const arity = fields.length;
    for (let k = 0; k < count; k++) {
      const index = from + k;
      const values = new Array<unknown>(arity);
      for (let f = 0; f < arity; f++) {
        const g = fields[f]!;
        values[f] = g.kind === 'random' ? g.next(rng, now) : g.valueAt(index);
      }
      out.push(new Row(0, values));
    }
  }
}

/**
 * `'connector' = 'datagen'` as a scan source with limit push-down. Like Flink's DataGenTableSource it
 * refuses projection push-down: every declared column is generated and a Calc above projects.
 */
export class DataGenTableSource implements ScanTableSource {
  readonly kind = 'scan-source';
  private limit: number | undefined;

  constructor(private readonly settings: DataGenSettings) {}

  getChangelogMode(): ChangelogMode {
    return ChangelogMode.insertOnly();
  }

  applyLimit(limit: number): void {
    this.limit = limit;
  }

  private totalRows(): number | null {
    const t = this.settings.totalRows;
    if (this.limit === undefined) return t;
    return t === null ? this.limit : Math.min(t, this.limit);
  }

  reportStatistics(): TableStats {
    return { rowCount: this.totalRows() ?? Number.POSITIVE_INFINITY, rowsPerSecond: this.settings.rowsPerSecond };
  }

  getScanRuntimeProvider(ctx: ScanContext): ScanRuntimeProvider {
    const total = this.totalRows();
    if (ctx.batchMode && total === null) {
      throw new PlanningError(
        `Querying an unbounded table '${this.settings.tableName ?? 'datagen'}' in batch mode is not allowed: ` +
          "set 'number-of-rows' or give a field 'fields.<name>.kind' = 'sequence'.",
      );
    }
    const fields = this.settings.generators;
    const baseSeed = this.settings.seed;
    let readers = 0;
    const source = new GeneratorSource({
      totalRows: total,
      rowsPerSecond: this.settings.rowsPerSecond,
      layout: 'ranges',
      generator: () => new DataGenBatchGenerator(fields, baseSeed === undefined ? randomSeed() : baseSeed + readers++),
    }) as Source<Row, GeneratorSplit, unknown> as ScanRuntimeProvider['source'];
    const p = this.settings.parallelism;
    return p === undefined ? { source, bounded: total !== null } : { source, bounded: total !== null, parallelism: p };
  }

  asSummaryString(): string {
    return 'DataGenTableSource';
  }
}
