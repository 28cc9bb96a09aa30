import { ValidationError } from '../../errors/sluice-error.js';
import { FastRandom, MULBERRY32_STEP, mixSeed, mulberry32, uint32ToInt } from '../datagen/random.js';

/** Generator parameters (Nexmark's `NexmarkConfiguration` / Beam's `GeneratorConfig`). */
export interface NexmarkConfig {
  readonly personProportion: number;
  readonly auctionProportion: number;
  readonly bidProportion: number;
  /** Events per second in the first and second half of each rate period (SQUARE shape). */
  readonly firstEventRate: number;
  readonly nextEventRate: number;
  readonly ratePeriodMs: number;
  /** Event time of event 0 (epoch ms). */
  readonly baseTime: number;
  readonly seed: number;
  readonly numActivePeople: number;
  readonly numInFlightAuctions: number;
  readonly hotAuctionRatio: number;
  readonly hotSellersRatio: number;
  readonly hotBiddersRatio: number;
  readonly avgPersonByteSize: number;
  readonly avgAuctionByteSize: number;
  readonly avgBidByteSize: number;
}

export const DEFAULT_NEXMARK_CONFIG: NexmarkConfig = {
  personProportion: 1,
  auctionProportion: 3,
  bidProportion: 46,
  firstEventRate: 10_000,
  nextEventRate: 10_000,
  ratePeriodMs: 600_000,
  baseTime: 0,
  seed: 0,
  numActivePeople: 1000,
  numInFlightAuctions: 100,
  hotAuctionRatio: 2,
  hotSellersRatio: 4,
  hotBiddersRatio: 4,
  avgPersonByteSize: 200,
  avgAuctionByteSize: 500,
  avgBidByteSize: 100,
};

export const EVENT_PERSON = 0;
export const EVENT_AUCTION = 1;
export const EVENT_BID = 2;

/** Which of the ROW columns `event` builds (bit 1 person, 2 auction, 4 bid); the others stay null. */
export const PART_PERSON = 1;
export const PART_AUCTION = 2;
export const PART_BID = 4;
export const ALL_PARTS = PART_PERSON | PART_AUCTION | PART_BID;

const FIRST_PERSON_ID = 1000;
const FIRST_AUCTION_ID = 1000;
const FIRST_CATEGORY_ID = 10;
const NUM_CATEGORIES = 5;
const PERSON_ID_LEAD = 10;
const AUCTION_ID_LEAD = 10;
/** A "hot" id is the first of each batch of 100 (HOT_*_RATIO in Nexmark's generators). */
const HOT_BATCH = 100;
const MIN_STRING_LENGTH = 3;
const CHANNELS_NUMBER = 10_000;

const FIRST_NAMES = ['Peter', 'Paul', 'Luke', 'John', 'Saul', 'Vicky', 'Kate', 'Julie', 'Sarah', 'Deiter', 'Walter'];
const LAST_NAMES = ['Shultz', 'Abrams', 'Spencer', 'White', 'Bartels', 'Walton', 'Smith', 'Jones', 'Noris'];
const US_CITIES = ['Phoenix', 'Los Angeles', 'San Francisco', 'Boise', 'Portland', 'Bend', 'Redmond', 'Seattle', 'Kent', 'Cheyenne'];
const US_STATES = ['AZ', 'CA', 'ID', 'OR', 'WA', 'WY'];
const HOT_CHANNELS = ['Google', 'Facebook', 'Baidu', 'Apple'];
/** `first last` for every pair, at first * LAST_NAMES.length + last: no concatenation per person. */
const FULL_NAMES = FIRST_NAMES.flatMap((f) => LAST_NAMES.map((l) => `${f} ${l}`));

/**
 * Fixed pools of text, sliced at random offsets: one slice replaces a per-character loop (the generator
 * must reach millions of events per second). Built from a fixed seed, so output stays deterministic.
 * Built by the first generator, not on import: every `sluice` start and most test files load this module,
 * and building the pools took a tenth of a second of each.
 */
const POOL_SIZE = 1 << 16;
let LETTERS = '';
let WORDS = '';
/** The URL of each hot channel (built with the pools, from their text). */
let HOT_URLS: readonly string[] = [];

function buildTextPools(): void {
  if (LETTERS !== '') return;
  const r = new FastRandom(0x5eed);
  // Joined once, not appended to: 65536 appends made a cons-string chain that the first slice flattened.
  const letters = new Array<string>(POOL_SIZE);
  const words = new Array<string>(POOL_SIZE);
  for (let i = 0; i < POOL_SIZE; i++) {
    letters[i] = String.fromCharCode(97 + r.nextInt(26));
    words[i] = r.nextInt(13) === 0 ? ' ' : String.fromCharCode(97 + r.nextInt(26));
  }
  LETTERS = letters.join('');
  WORDS = words.join('');
  const u = new FastRandom(0x40757);
  HOT_URLS = HOT_CHANNELS.map(() => baseUrl(u));
}

function nextString(r: FastRandom, maxLength: number): string {
  const len = MIN_STRING_LENGTH + r.nextInt(maxLength - MIN_STRING_LENGTH);
  let at = r.nextInt(POOL_SIZE - len);
  let end = at + len;
  // `slice(at, end).trim()` without the intermediate string: WORDS holds only letters and spaces.
  while (at < end && WORDS.charCodeAt(at) === 32) at++;
  while (end > at && WORDS.charCodeAt(end - 1) === 32) end--;
  return WORDS.slice(at, end);
}

function nextExactString(r: FastRandom, length: number): string {
  if (length <= 0) return '';
  const at = r.nextInt(POOL_SIZE - length);
  return LETTERS.slice(at, at + length);
}

/** Pads an event towards its average byte size (Nexmark's `nextExtra`). */
function nextExtra(r: FastRandom, currentSize: number, desiredAverageSize: number): string {
  if (currentSize > desiredAverageSize) return '';
  const avg = desiredAverageSize - currentSize;
  const delta = Math.round(avg * 0.2);
  const minSize = avg - delta;
  const size = minSize + (delta === 0 ? 0 : r.nextInt(2 * delta));
  return nextExactString(r, size);
}

const LN10_TIMES_6 = Math.LN10 * 6;

/** 10^(6u) for u = x / 2^32 split into x's top 11, middle 11 and low 10 bits: 10^(6u) = A[a] * B[b] * C[c]. */
const priceTable = (bits: number, shift: number): Float64Array =>
  Float64Array.from({ length: 1 << bits }, (_, i) => Math.exp(((i * 2 ** shift) / 4294967296) * LN10_TIMES_6));
const PRICE_A = priceTable(11, 21);
const PRICE_B = priceTable(11, 10);
const PRICE_C = priceTable(10, 0);

/**
 * 10^(6u) * 100 rounded, u = x / 2^32 uniform in [0, 1) (Nexmark's PriceGenerator). Three table lookups instead of
 * `Math.exp`, which was a sixth of generating a bid; the product differs from exp by an ulp or two, so a
 * price lands on the other side of a .5 at most once in billions.
 */
function priceOf(x: number): number {
  return Math.round(PRICE_A[x >>> 21]! * PRICE_B[(x >>> 10) & 2047]! * PRICE_C[x & 1023]! * 100);
}

/**
 * Prices are log-uniform, so a sixth of them are below SMALL_PRICES: their bigints are made once. The table
 * is kept small (8 KB) on purpose: the generator's allocation stream evicts a larger one from the caches,
 * and a miss costs more than the `BigInt(price)` it saves (16384 entries were 7% slower than 1024).
 */
const SMALL_PRICES = 1024;
const smallPriceBigints = new Array<bigint | undefined>(SMALL_PRICES).fill(undefined);
function priceBigInt(price: number): bigint {
  if (price >= SMALL_PRICES) return BigInt(price);
  return (smallPriceBigints[price] ??= BigInt(price));
}

/**
 * BIGINT values (docs/values.md) for ids that repeat: auction and bidder ids of bids fall into a window
 * of a few hundred recent ids (and half of them on one hot id), so a direct-mapped cache turns most of
 * the per-bid `BigInt(...)` allocations into an array lookup. New people and auctions go through it too:
 * the bids that follow reuse their bigints. Person and auction ids share it, a bigint being just its value.
 */
class BigIntCache {
  private readonly keys = new Float64Array(BIGINT_CACHE_SIZE).fill(-1);
  private readonly values: bigint[] = new Array<bigint>(BIGINT_CACHE_SIZE).fill(0n);

  of(v: number): bigint {
    const slot = v & (BIGINT_CACHE_SIZE - 1);
    if (this.keys[slot] === v) return this.values[slot]!;
    const b = BigInt(v);
    this.keys[slot] = v;
    this.values[slot] = b;
    return b;
  }
}
const BIGINT_CACHE_SIZE = 4096;
/** The most draws one bid makes: hot auction?, auction, hot bidder?, bidder, price, hot channel?, channel, extra length, extra offset. */
const MAX_BID_DRAWS = 9;
/** The size Nexmark counts for a bid before its `extra` (BidGenerator's nextExtra(random, 32, ...)). */
const BID_SIZE = 32;
const CATEGORY_BIGINTS = Array.from({ length: NUM_CATEGORIES }, (_, i) => BigInt(FIRST_CATEGORY_ID + i));

function baseUrl(r: FastRandom): string {
  return `https://www.nexmark.com/${nextString(r, 5)}/${nextString(r, 5)}/${nextString(r, 5)}/item.htm?query=1`;
}

/** Channel `channel-i` and its URL; 90% of URLs carry `&channel_id=` (Nexmark's channel cache). */
let channelCache: { readonly channels: string[]; readonly urls: string[] } | undefined;
function channels(): { readonly channels: string[]; readonly urls: string[] } {
  if (channelCache) return channelCache;
  buildTextPools();
  const r = new FastRandom(0xc4a77e1);
  const cs: string[] = [];
  const us: string[] = [];
  for (let i = 0; i < CHANNELS_NUMBER; i++) {
    cs.push(`channel-${i}`);
    let url = baseUrl(r);
    if (r.nextInt(10) > 0) url += `&channel_id=${Math.abs(reverseBits32(i))}`;
    us.push(url);
  }
  return (channelCache = { channels: cs, urls: us });
}

/** The 32 bits of `v` reversed, as a signed int (Java's Integer.reverse); swaps halves, bytes, nibbles, pairs, bits. */
function reverseBits32(v: number): number {
  let x = v | 0;
  x = ((x >>> 1) & 0x55555555) | ((x & 0x55555555) << 1);
  x = ((x >>> 2) & 0x33333333) | ((x & 0x33333333) << 2);
  x = ((x >>> 4) & 0x0f0f0f0f) | ((x & 0x0f0f0f0f) << 4);
  x = ((x >>> 8) & 0x00ff00ff) | ((x & 0x00ff00ff) << 8);
  return (x >>> 16) | (x << 16);
}

/**
 * The Nexmark event generator. Event `n` (0-based, global over all parallel slices) is a pure function of
 * the configuration and `n`: each event draws from a PRNG seeded with (seed, n), as Beam seeds
 * `new Random(eventId)`, so any slice can start anywhere and a restore continues exactly.
 *
 * Rows follow the `nexmark` table: `[event_type, person, auction, bid]`, two of the three ROW values null.
 */
export class NexmarkGenerator {
  private readonly r = new FastRandom();
  private readonly total: number;
  private readonly cycleEvents: number;
  private readonly firstHalfEvents: number;
  private readonly halfMs: number;
  private readonly cache = channels();
  private readonly ids = new BigIntCache();
  /** Scratch for the draws of one bid (see bid). */
  private readonly draws = new Float64Array(MAX_BID_DRAWS);
  // The configuration's hot fields as own numbers: read for every event.
  private readonly seed: number;
  private readonly personProportion: number;
  private readonly auctionProportion: number;
  private readonly personAuctionProportion: number;
  private readonly numActivePeople: number;
  private readonly numInFlightAuctions: number;
  private readonly hotAuctionRatio: number;
  private readonly hotBiddersRatio: number;
  /** Events it takes to create numInFlightAuctions more auctions (an auction's expiry horizon). */
  private readonly eventsForAuctions: number;
  /** A bid's `extra` length is bidExtraMin + nextInt(2 * bidExtraDelta): the same for every bid. */
  private readonly bidExtraMin: number;
  private readonly bidExtraDelta: number;

  constructor(readonly config: NexmarkConfig) {
    this.total = config.personProportion + config.auctionProportion + config.bidProportion;
    this.halfMs = config.ratePeriodMs / 2;
    this.firstHalfEvents = (config.firstEventRate * this.halfMs) / 1000;
    this.cycleEvents = this.firstHalfEvents + (config.nextEventRate * this.halfMs) / 1000;
    this.seed = config.seed;
    this.personProportion = config.personProportion;
    this.auctionProportion = config.auctionProportion;
    this.personAuctionProportion = config.personProportion + config.auctionProportion;
    // Draws pick from up to numActivePeople + 10 people and numInFlightAuctions + 11 auctions with one
    // 32-bit draw each (bids draw inline, without FastRandom's two-draw path for wider bounds).
    if (!(config.numActivePeople < 2 ** 31 && config.numInFlightAuctions < 2 ** 31)) {
      throw new ValidationError('Nexmark numActivePeople and numInFlightAuctions must be below 2^31.');
    }
    this.numActivePeople = config.numActivePeople;
    this.numInFlightAuctions = config.numInFlightAuctions;
    this.hotAuctionRatio = config.hotAuctionRatio;
    this.hotBiddersRatio = config.hotBiddersRatio;
    this.eventsForAuctions = Math.floor((config.numInFlightAuctions * this.total) / config.auctionProportion);
    const avg = Math.max(config.avgBidByteSize - BID_SIZE, 0);
    this.bidExtraDelta = config.avgBidByteSize < BID_SIZE ? 0 : Math.round(avg * 0.2);
    this.bidExtraMin = avg - this.bidExtraDelta;
  }

  /** Event time of event `n`: SQUARE rate shape, `firstEventRate` then `nextEventRate` per half period. */
  timestampOf(n: number): number {
    const c = this.config;
    if (c.firstEventRate === c.nextEventRate) return c.baseTime + Math.floor((n * 1000) / c.firstEventRate);
    const cycle = Math.floor(n / this.cycleEvents);
    const within = n - cycle * this.cycleEvents;
    const offset =
      within < this.firstHalfEvents
        ? (within * 1000) / c.firstEventRate
        : this.halfMs + ((within - this.firstHalfEvents) * 1000) / c.nextEventRate;
    return c.baseTime + cycle * c.ratePeriodMs + Math.floor(offset);
  }

  /** 0 person, 1 auction, 2 bid. */
  eventType(n: number): number {
    const rem = n % this.total;
    if (rem < this.personProportion) return EVENT_PERSON;
    if (rem < this.personAuctionProportion) return EVENT_AUCTION;
    return EVENT_BID;
  }

  private lastBase0PersonId(n: number): number {
    const epoch = Math.floor(n / this.total);
    let offset = n % this.total;
    if (offset >= this.config.personProportion) offset = this.config.personProportion - 1;
    return epoch * this.config.personProportion + offset;
  }

  private lastBase0AuctionId(n: number): number {
    const c = this.config;
    let epoch = Math.floor(n / this.total);
    let offset = n % this.total;
    if (offset < c.personProportion) {
      epoch--;
      offset = c.auctionProportion - 1;
    } else if (offset >= c.personProportion + c.auctionProportion) {
      offset = c.auctionProportion - 1;
    } else {
      offset -= c.personProportion;
    }
    return epoch * c.auctionProportion + offset;
  }

  private nextBase0PersonId(n: number): number {
    return this.base0PersonIdAfter(this.lastBase0PersonId(n), this.r.nextUint32());
  }

  /** The active person that draw `x` picks, `lastPerson` being the base-0 id of the latest one. */
  private base0PersonIdAfter(lastPerson: number, x: number): number {
    const numPeople = lastPerson + 1;
    const active = Math.min(numPeople, this.numActivePeople);
    return numPeople - active + uint32ToInt(x, active + PERSON_ID_LEAD);
  }

  /** The in-flight auction that draw `x` picks, `max` being the base-0 id of the latest one. */
  private base0AuctionIdUpTo(max: number, x: number): number {
    const min = Math.max(max - this.numInFlightAuctions, 0);
    return min + uint32ToInt(x, max - min + 1 + AUCTION_ID_LEAD);
  }

  /**
   * The fields of event `n` as the table's row: `[event_type, person, auction, bid]`. Columns left out of
   * `parts` (a projection without them) are null and cost nothing: each event draws from its own seed, so
   * skipping one changes no other event.
   */
  event(n: number, parts: number = ALL_PARTS): unknown[] {
    const type = this.eventType(n);
    if (type === EVENT_BID) {
      if ((parts & PART_BID) === 0) return [EVENT_BID, null, null, null];
    } else if ((parts & (type === EVENT_PERSON ? PART_PERSON : PART_AUCTION)) === 0) {
      return [type, null, null, null];
    }
    const seed = mixSeed(this.seed, n);
    const ts = this.timestampOf(n);
    switch (type) {
      case EVENT_PERSON:
        this.r.reseed(seed);
        return [EVENT_PERSON, this.person(n, ts), null, null];
      case EVENT_AUCTION:
        this.r.reseed(seed);
        return [EVENT_AUCTION, null, this.auction(n, ts), null];
      default:
        return [EVENT_BID, null, null, this.bid(Math.floor(n / this.total), ts, seed)];
    }
  }

  private person(n: number, ts: number): unknown[] {
    const r = this.r;
    const id = this.lastBase0PersonId(n) + FIRST_PERSON_ID;
    const first = r.nextInt(FIRST_NAMES.length);
    const name = FULL_NAMES[first * LAST_NAMES.length + r.nextInt(LAST_NAMES.length)]!;
    const email = `${nextString(r, 7)}@${nextString(r, 5)}.com`;
    const card = creditCard(r.nextInt(10000), r.nextInt(10000), r.nextInt(10000), r.nextInt(10000));
    const city = US_CITIES[r.nextInt(US_CITIES.length)]!;
    const state = US_STATES[r.nextInt(US_STATES.length)]!;
    const size = 8 + name.length + email.length + card.length + city.length + state.length;
    const extra = nextExtra(r, size, this.config.avgPersonByteSize);
    return [this.ids.of(id), name, email, card, city, state, ts, extra];
  }

  private auction(n: number, ts: number): unknown[] {
    const r = this.r;
    const c = this.config;
    const id = this.lastBase0AuctionId(n) + FIRST_AUCTION_ID;
    let seller: number;
    // Hot sellers: a share (1 - 1/ratio) goes to the first person of the latest batch of 100.
    if (r.nextInt(c.hotSellersRatio) > 0) seller = Math.floor(this.lastBase0PersonId(n) / HOT_BATCH) * HOT_BATCH;
    else seller = this.nextBase0PersonId(n);
    seller += FIRST_PERSON_ID;
    const category = FIRST_CATEGORY_ID + r.nextInt(NUM_CATEGORIES);
    const initialBid = priceOf(r.nextUint32());
    const itemName = nextString(r, 20);
    const description = nextString(r, 100);
    const reserve = initialBid + priceOf(r.nextUint32());
    // Expiry: within twice the time it takes to create numInFlightAuctions more auctions.
    const horizon = this.timestampOf(n + this.eventsForAuctions) - ts;
    const expires = ts + 1 + r.nextInt(Math.max(horizon * 2, 1));
    const size = 8 + itemName.length + description.length + 8 + 8 + 8 + 8 + 8;
    const extra = nextExtra(r, size, c.avgAuctionByteSize);
    return [this.ids.of(id), itemName, description, priceBigInt(initialBid), priceBigInt(reserve), ts, expires, this.ids.of(seller), CATEGORY_BIGINTS[category - FIRST_CATEGORY_ID]!, extra];
  }

  /**
   * The bid of epoch `epoch` (event n / total), drawing from `seed` as FastRandom would. Bids are 92% of
   * events, so their draws keep the mulberry32 state in a local (`s += STEP` then `mulberry32(s)` is one
   * `nextUint32`) and call nothing but BigInt and slice. A bid comes after its epoch's people and auctions,
   * so the latest person and auction ids are plain products: no divisions or remainders of `n` again.
   */
  private bid(epoch: number, ts: number, seed: number): unknown[] {
    // All the draws a bid may use, up front: one inlined mulberry32 instead of nine call sites, which
    // exhausted TurboFan's inlining budget. A draw a bid does not use is simply never read.
    const d = this.draws;
    for (let k = 0, s = seed | 0; k < MAX_BID_DRAWS; k++) d[k] = mulberry32((s = (s + MULBERRY32_STEP) | 0));
    let k = 0;
    const lastAuction = (epoch + 1) * this.auctionProportion - 1;
    const lastPerson = (epoch + 1) * this.personProportion - 1;
    const auction =
      uint32ToInt(d[k++]!, this.hotAuctionRatio) > 0 ? Math.floor(lastAuction / HOT_BATCH) * HOT_BATCH : this.base0AuctionIdUpTo(lastAuction, d[k++]!);
    const bidder =
      uint32ToInt(d[k++]!, this.hotBiddersRatio) > 0 ? Math.floor(lastPerson / HOT_BATCH) * HOT_BATCH + 1 : this.base0PersonIdAfter(lastPerson, d[k++]!);
    const priceDraw = d[k++]!;
    const hot = uint32ToInt(d[k++]!, 2) > 0;
    const channelDraw = d[k++]!;
    let length = this.bidExtraMin;
    if (this.bidExtraDelta !== 0) length += uint32ToInt(d[k++]!, 2 * this.bidExtraDelta);
    const at = length > 0 ? uint32ToInt(d[k]!, POOL_SIZE - length) : 0;
    // Table loads come after all the arithmetic: they may miss the caches, and issued close together
    // their misses overlap instead of each stalling on its own.
    let channel: string;
    let url: string;
    if (hot) {
      const i = uint32ToInt(channelDraw, HOT_CHANNELS.length);
      channel = HOT_CHANNELS[i]!;
      url = HOT_URLS[i]!;
    } else {
      const i = uint32ToInt(channelDraw, CHANNELS_NUMBER);
      channel = this.cache.channels[i]!;
      url = this.cache.urls[i]!;
    }
    const price = priceOf(priceDraw);
    const extra = length > 0 ? LETTERS.slice(at, at + length) : '';
    // Nexmark's BidGenerator adds FIRST_PERSON_ID twice to the bidder; kept so outputs compare with Flink's.
    return [this.ids.of(auction + FIRST_AUCTION_ID), this.ids.of(bidder + 2 * FIRST_PERSON_ID), priceBigInt(price), channel, url, ts, extra];
  }
}

const ZERO = 48;
const SPACE = 32;

/**
 * `dddd dddd dddd dddd`, each group zero-padded: one string from char codes instead of four number
 * conversions, four paddings and six concatenations (a person cost seven bids).
 */
function creditCard(a: number, b: number, c: number, d: number): string {
  return String.fromCharCode(
    ZERO + Math.floor(a / 1000), ZERO + (Math.floor(a / 100) % 10), ZERO + (Math.floor(a / 10) % 10), ZERO + (a % 10), SPACE,
    ZERO + Math.floor(b / 1000), ZERO + (Math.floor(b / 100) % 10), ZERO + (Math.floor(b / 10) % 10), ZERO + (b % 10), SPACE,
    ZERO + Math.floor(c / 1000), ZERO + (Math.floor(c / 100) % 10), ZERO + (Math.floor(c / 10) % 10), ZERO + (c % 10), SPACE,
    ZERO + Math.floor(d / 1000), ZERO + (Math.floor(d / 100) % 10), ZERO + (Math.floor(d / 10) % 10), ZERO + (d % 10),
  );
}
