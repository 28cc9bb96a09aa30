import { ConfigOptions } from '../../config/config-options.js';
import { FactoryOptions } from '../../factories/factory-options.js';

/**
 * Options of `'connector' = 'nexmark'`, keyed as the nexmark-flink connector's DDL uses them
 * (`first-event.rate`, `events.num`, `*.proportion`); `seed` and `base-time` are Sluice's, for
 * reproducible runs.
 */
export const NexmarkOptions = {
  FIRST_EVENT_RATE: ConfigOptions.key('first-event.rate')
    .longType()
    .defaultValue(10_000)
    .withDescription('Events per second in the first half of each rate period; sets both pacing and event-time spacing.'),
  NEXT_EVENT_RATE: ConfigOptions.key('next-event.rate')
    .longType()
    .defaultValue(10_000)
    .withDescription('Events per second in the second half of each rate period (SQUARE rate shape).'),
  RATE_PERIOD: ConfigOptions.key('rate.period').durationType().defaultValue(600_000).withDescription('Length of one rate period.'),
  EVENTS_NUM: ConfigOptions.key('events.num')
    .longType()
    .defaultValue(0)
    .withDescription('Total events to generate; 0 means unbounded.'),
  PERSON_PROPORTION: ConfigOptions.key('person.proportion').intType().defaultValue(1).withDescription('Share of person events.'),
  AUCTION_PROPORTION: ConfigOptions.key('auction.proportion').intType().defaultValue(3).withDescription('Share of auction events.'),
  BID_PROPORTION: ConfigOptions.key('bid.proportion').intType().defaultValue(46).withDescription('Share of bid events.'),
  SEED: ConfigOptions.key('seed').longType().defaultValue(0).withDescription('Seed of the generator; the same seed gives the same events.'),
  BASE_TIME: ConfigOptions.key('base-time')
    .longType()
    .noDefaultValue()
    .withDescription('Event time of the first event in epoch ms; by default the time the job starts.'),
  RATE_LIMITED: ConfigOptions.key('rate-limited')
    .booleanType()
    .defaultValue(true)
    .withDescription('Pace emission at the event rate (as nexmark-flink); false generates as fast as possible.'),
  SOURCE_PARALLELISM: FactoryOptions.SCAN_PARALLELISM,
} as const;
