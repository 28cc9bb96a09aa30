import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { ScanContext, ScanRuntimeProvider, ScanTableSource, TableStats } from '../../factories/dynamic-table-source.js';
import { equalityValues, type FilterPushDownResult, type SourceExpression } from '../../factories/source-filter.js';
import { PlanningError } from '../../errors/sluice-error.js';
import type { Source } from '../../runtime/index.js';
import { Row } from '../../types/row.js';
import { GeneratorSource, type GeneratorSplit, type RowBatchGenerator } from '../datagen/generator-source.js';
import { ALL_PARTS, EVENT_AUCTION, EVENT_BID, EVENT_PERSON, NexmarkGenerator, PART_AUCTION, PART_BID, PART_PERSON, type NexmarkConfig } from './nexmark-generator.js';

export interface NexmarkSettings {
  /** baseTime undefined = the time the source is planned. */
  readonly config: Omit<NexmarkConfig, 'baseTime'> & { readonly baseTime: number | undefined };
  /** 0 = unbounded. */
  readonly eventsNum: number;
  readonly rateLimited: boolean;
  readonly parallelism: number | undefined;
}

/** The event_type column: physical column 0 of the nexmark table. */
const EVENT_TYPE_COLUMN = 0;
const PART_OF_TYPE: readonly number[] = [PART_PERSON, PART_AUCTION, PART_BID];

/**
 * Slice i of p emits global events i, i+p, i+2p, ...: event time advances at the same pace in every slice.
 * With an event type filter, events of other types are stepped over without building a row, so the
 * kept events (and the split positions that checkpoints hold) are the same as without the filter; a
 * batch then holds fewer than `count` rows.
 */
class NexmarkBatchGenerator implements RowBatchGenerator {
  private readonly gen: NexmarkGenerator;
  /** The ROW columns the projection keeps: events of the other kinds are not generated at all. */
  private readonly parts: number;
  /** keep[t]: events of type t are emitted (all true without an event type filter). */
  private readonly keep: readonly boolean[];
  private readonly filtered: boolean;
  constructor(
    config: NexmarkConfig,
    private readonly projection: readonly number[] | undefined,
    eventTypes: ReadonlySet<number> | undefined,
  ) {
    this.gen = new NexmarkGenerator(config);
    const projected =
      projection === undefined
        ? ALL_PARTS
        : (projection.includes(1) ? PART_PERSON : 0) | (projection.includes(2) ? PART_AUCTION : 0) | (projection.includes(3) ? PART_BID : 0);
    this.keep = [EVENT_PERSON, EVENT_AUCTION, EVENT_BID].map((t) => eventTypes === undefined || eventTypes.has(t));
    this.filtered = eventTypes !== undefined;
    this.parts = projected & PART_OF_TYPE.reduce((m, part, t) => (this.keep[t] ? m | part : m), 0);
  }
  generate(split: GeneratorSplit, from: number, count: number, out: Row[]): void {
    const gen = this.gen;
    const p = split.of;
    const proj = this.projection;
    const parts = this.parts;
    const keep = this.keep;
    const filtered = this.filtered;
    let n = split.index + from * p;
    for (let k = 0; k < count; k++, n += p) {
      if (filtered && !keep[gen.eventType(n)]!) continue;
      const fields = gen.event(n, parts);
      let row: Row;
      if (proj === undefined) row = new Row(0, fields);
      else {
        const values = new Array<unknown>(proj.length);
        for (let j = 0; j < proj.length; j++) values[j] = fields[proj[j]!];
        row = new Row(0, values);
      }
      // `out` arrives as an empty small-integer array and its first push changes its map: pushed from one
      // site with the others, every push saw two maps and went through the generic builtin.
      if (out.length === 0) out.push(row);
      else out.push(row);
    }
  }
}

/** `'connector' = 'nexmark'`: the Nexmark event stream as one table (event_type, person, auction, bid). */
export class NexmarkTableSource implements ScanTableSource {
  readonly kind = 'scan-source';
  /** Watermarks are generated per split inside the source, as Flink's SupportsWatermarkPushDown. */
  readonly supportsWatermarkPushDown = true;
  private projection: readonly number[] | undefined;
  /** Set by filter push-down: the only event types to emit. */
  private eventTypes: Set<number> | undefined;

  constructor(private readonly settings: NexmarkSettings) {}

  /**
   * SupportsFilterPushDown: `event_type = <literal>` and `event_type IN (<literals>)` are applied by the
   * generator (fully: they leave the plan); every other filter remains for the planner.
   */
  applyFilters(filters: readonly SourceExpression[]): FilterPushDownResult {
    const accepted: SourceExpression[] = [];
    const remaining: SourceExpression[] = [];
    for (const f of filters) {
      const values = equalityValues(f, EVENT_TYPE_COLUMN);
      if (values === undefined || !values.every((v) => typeof v === 'number' || typeof v === 'bigint')) {
        remaining.push(f);
        continue;
      }
      const types = new Set(values.map(Number));
      this.eventTypes = this.eventTypes === undefined ? types : new Set([...this.eventTypes].filter((t) => types.has(t)));
      accepted.push(f);
    }
    return { accepted, remaining };
  }

  getChangelogMode(): ChangelogMode {
    return ChangelogMode.insertOnly();
  }

  applyProjection(fieldIndexes: readonly number[]): boolean {
    this.projection = [...fieldIndexes];
    return true;
  }

  /** The events generated, whatever the event type filter keeps: generating is the cost either way. */
  reportStatistics(): TableStats {
    const s = this.settings;
    const rowCount = s.eventsNum === 0 ? Number.POSITIVE_INFINITY : s.eventsNum;
    return s.rateLimited ? { rowCount, rowsPerSecond: Math.max(s.config.firstEventRate, s.config.nextEventRate) } : { rowCount };
  }

  getScanRuntimeProvider(ctx: ScanContext): ScanRuntimeProvider {
    const s = this.settings;
    if (ctx.batchMode && s.eventsNum === 0) {
      throw new PlanningError("Querying an unbounded 'nexmark' table in batch mode is not allowed: set 'events.num'.");
    }
    const config: NexmarkConfig = { ...s.config, baseTime: s.config.baseTime ?? Date.now() };
    const projection = this.projection;
    const eventTypes = this.eventTypes;
    const source = new GeneratorSource({
      totalRows: s.eventsNum === 0 ? null : s.eventsNum,
      rowsPerSecond: s.rateLimited ? config.firstEventRate : null,
      // Batches of 512, not 2048: the runtime keeps a few batches in flight per edge (element queue and
      // channel capacities count batches), and every scavenge copies those rows; at 2048 the copying was
      // a sixth of a source -> blackhole job, at 512 the job ran ~25% faster (bench/connector-nexmark.mjs).
      batchSize: 512,
      layout: 'strided',
      generator: () => new NexmarkBatchGenerator(config, projection, eventTypes),
    }) as Source<Row, GeneratorSplit, unknown> as ScanRuntimeProvider['source'];
    const bounded = s.eventsNum !== 0;
    return s.parallelism === undefined ? { source, bounded } : { source, bounded, parallelism: s.parallelism };
  }

  asSummaryString(): string {
    return 'NexmarkTableSource';
  }
}
