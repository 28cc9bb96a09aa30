import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { ScanContext, ScanRuntimeProvider, ScanTableSource } from '../../factories/dynamic-table-source.js';
import { PlanningError } from '../../errors/sluice-error.js';
import type { Source } from '../../runtime/index.js';
import { Row } from '../../types/row.js';
import { GeneratorSource, type GeneratorSplit, type RowBatchGenerator } from '../datagen/generator-source.js';
import { ALL_PARTS, NexmarkGenerator, PART_AUCTION, PART_BID, PART_PERSON, type NexmarkConfig } from './nexmark-generator.js';

export interface NexmarkSettings {
  /** baseTime undefined = the time the source is planned. */
  readonly config: Omit<NexmarkConfig, 'baseTime'> & { readonly baseTime: number | undefined };
  /** 0 = unbounded. */
  readonly eventsNum: number;
  readonly rateLimited: boolean;
  readonly parallelism: number | undefined;
}

/** Slice i of p emits global events i, i+p, i+2p, ...: event time advances at the same pace in every slice. */
class NexmarkBatchGenerator implements RowBatchGenerator {
  private readonly gen: NexmarkGenerator;
  /** The ROW columns the projection keeps: events of the other kinds are not generated at all. */
  private readonly parts: number;
  constructor(
    config: NexmarkConfig,
    private readonly projection: readonly number[] | undefined,
  ) {
    this.gen = new NexmarkGenerator(config);
    this.parts =
      projection === undefined
        ? ALL_PARTS
        : (projection.includes(1) ? PART_PERSON : 0) | (projection.includes(2) ? PART_AUCTION : 0) | (projection.includes(3) ? PART_BID : 0);
  }
  generate(split: GeneratorSplit, from: number, count: number, out: Row[]): void {
    const gen = this.gen;
    const p = split.of;
    const proj = this.projection;
    const parts = this.parts;
    let n = split.index + from * p;
    for (let k = 0; k < count; k++, n += p) {
      const fields = gen.event(n, parts);
      if (proj === undefined) {
        out.push(new Row(0, fields));
        continue;
      }
      const values = new Array<unknown>(proj.length);
      for (let j = 0; j < proj.length; j++) values[j] = fields[proj[j]!];
      out.push(new Row(0, values));
    }
  }
}

/** `'connector' = 'nexmark'`: the Nexmark event stream as one table (event_type, person, auction, bid). */
export class NexmarkTableSource implements ScanTableSource {
  readonly kind = 'scan-source';
  private projection: readonly number[] | undefined;

  constructor(private readonly settings: NexmarkSettings) {}

  getChangelogMode(): ChangelogMode {
    return ChangelogMode.insertOnly();
  }

  applyProjection(fieldIndexes: readonly number[]): boolean {
    this.projection = [...fieldIndexes];
    return true;
  }

  getScanRuntimeProvider(ctx: ScanContext): ScanRuntimeProvider {
    const s = this.settings;
    if (ctx.batchMode && s.eventsNum === 0) {
      throw new PlanningError("Querying an unbounded 'nexmark' table in batch mode is not allowed: set 'events.num'.");
    }
    const config: NexmarkConfig = { ...s.config, baseTime: s.config.baseTime ?? Date.now() };
    const projection = this.projection;
    const source = new GeneratorSource({
      totalRows: s.eventsNum === 0 ? null : s.eventsNum,
      rowsPerSecond: s.rateLimited ? config.firstEventRate : null,
      batchSize: 2048,
      layout: 'strided',
      generator: () => new NexmarkBatchGenerator(config, projection),
    }) as Source<Row, GeneratorSplit, unknown> as ScanRuntimeProvider['source'];
    const bounded = s.eventsNum !== 0;
    return s.parallelism === undefined ? { source, bounded } : { source, bounded, parallelism: s.parallelism };
  }

  asSummaryString(): string {
    return 'NexmarkTableSource';
  }
}
