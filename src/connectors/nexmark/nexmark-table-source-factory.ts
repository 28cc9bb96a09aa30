import type { ConfigOption } from '../../config/config-option.js';
import type { DynamicTableFactoryContext, DynamicTableSourceFactory } from '../../factories/dynamic-table-factory.js';
import type { DynamicTableSource } from '../../factories/dynamic-table-source.js';
import { createTableFactoryHelper } from '../../factories/table-factory-helper.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { DEFAULT_NEXMARK_CONFIG } from './nexmark-generator.js';
import { NexmarkOptions } from './nexmark-options.js';
import { checkNexmarkColumns } from './nexmark-schema.js';
import { NexmarkTableSource } from './nexmark-table-source.js';

/** Finds the Nexmark generator by `'connector' = 'nexmark'`; use with `NEXMARK_TABLE_DDL`. */
export class NexmarkTableSourceFactory implements DynamicTableSourceFactory {
  readonly factoryIdentifier = 'nexmark';
  readonly description = 'The Nexmark benchmark event stream (persons, auctions, bids).';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return Object.values(NexmarkOptions) as ConfigOption<unknown>[];
  }

  createDynamicTableSource(ctx: DynamicTableFactoryContext): DynamicTableSource {
    const helper = createTableFactoryHelper(this, ctx);
    helper.validate();
    checkNexmarkColumns(ctx.identifier.object, ctx.table.schema.physicalColumns());
    const o = helper.options;
    const positive = (key: string, v: number): number => {
      if (!(v > 0)) throw new ValidationError(`Invalid value for option '${key}': '${v}'. It must be positive.`);
      return v;
    };
    const person = o.get(NexmarkOptions.PERSON_PROPORTION);
    const auction = o.get(NexmarkOptions.AUCTION_PROPORTION);
    const bid = o.get(NexmarkOptions.BID_PROPORTION);
    if (person < 1 || auction < 1 || bid < 0) {
      throw new ValidationError("Nexmark proportions must be 'person.proportion' >= 1, 'auction.proportion' >= 1 and 'bid.proportion' >= 0.");
    }
    const eventsNum = o.get(NexmarkOptions.EVENTS_NUM);
    if (eventsNum < 0) throw new ValidationError(`Invalid value for option 'events.num': '${eventsNum}'. It must not be negative.`);
    return new NexmarkTableSource({
      config: {
        ...DEFAULT_NEXMARK_CONFIG,
        personProportion: person,
        auctionProportion: auction,
        bidProportion: bid,
        firstEventRate: positive('first-event.rate', o.get(NexmarkOptions.FIRST_EVENT_RATE)),
        nextEventRate: positive('next-event.rate', o.get(NexmarkOptions.NEXT_EVENT_RATE)),
        ratePeriodMs: positive('rate.period', o.get(NexmarkOptions.RATE_PERIOD)),
        seed: o.get(NexmarkOptions.SEED),
        baseTime: o.get(NexmarkOptions.BASE_TIME),
      },
      eventsNum,
      rateLimited: o.get(NexmarkOptions.RATE_LIMITED),
      parallelism: o.get(NexmarkOptions.SOURCE_PARALLELISM),
    });
  }
}
