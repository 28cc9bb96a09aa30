/**
 * Nexmark q0-q22 as Sluice runs them (nexmark-flink's `queries/qN.sql`, the SELECT part: every sink there is
 * a blackhole). `setup` statements run first (views, functions).
 */
export interface NexmarkQuery {
  readonly name: string;
  readonly setup?: readonly string[];
  readonly sql: string;
}

/**
 * `count` over all bids and over each of Nexmark's three price ranks (`total_<name>`, `rank1_<name>`, ...):
 * the statistics q15, q16 (q15 per channel) and q17 (per auction) share, so the rank bounds are written
 * once. The queries' text stays the upstream files', character for character.
 */
function perPriceRank(count: string, name: string): string {
  return [
    `${count} AS total_${name}`,
    `${count} filter (where price < 10000) AS rank1_${name}`,
    `${count} filter (where price >= 10000 and price < 1000000) AS rank2_${name}`,
    `${count} filter (where price >= 1000000) AS rank3_${name}`,
  ].join(',\n            ');
}

export const NEXMARK_QUERIES: readonly NexmarkQuery[] = [
  { name: 'q0', sql: 'SELECT auction, bidder, price, dateTime, extra FROM bid' },
  { name: 'q1', sql: 'SELECT auction, bidder, 0.908 * price AS price, dateTime, extra FROM bid' },
  { name: 'q2', sql: 'SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0' },
  {
    name: 'q3',
    sql: `SELECT P.name, P.city, P.state, A.id FROM auction AS A INNER JOIN person AS P ON A.seller = P.id
          WHERE A.category = 10 AND (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA')`,
  },
  {
    name: 'q4',
    sql: `SELECT Q.category, AVG(Q.final) FROM (
            SELECT MAX(B.price) AS final, A.category FROM auction A, bid B
            WHERE A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires
            GROUP BY A.id, A.category) Q
          GROUP BY Q.category`,
  },
  {
    name: 'q5',
    sql: `SELECT AuctionBids.auction, AuctionBids.num FROM (
            SELECT auction, count(*) AS num, window_start AS starttime, window_end AS endtime
            FROM TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
            GROUP BY auction, window_start, window_end) AS AuctionBids
          JOIN (
            SELECT max(CountBids.num) AS maxn, CountBids.starttime, CountBids.endtime FROM (
              SELECT count(*) AS num, window_start AS starttime, window_end AS endtime
              FROM TABLE(HOP(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
              GROUP BY auction, window_start, window_end) AS CountBids
            GROUP BY CountBids.starttime, CountBids.endtime) AS MaxBids
          ON AuctionBids.starttime = MaxBids.starttime AND AuctionBids.endtime = MaxBids.endtime AND AuctionBids.num >= MaxBids.maxn`,
  },
  {
    name: 'q6',
    sql: `SELECT Q.seller, AVG(Q.final) OVER (PARTITION BY Q.seller ORDER BY Q.dateTime ROWS BETWEEN 10 PRECEDING AND CURRENT ROW)
          FROM (SELECT MAX(B.price) AS final, A.seller, B.dateTime FROM auction AS A, bid AS B
                WHERE A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires
                GROUP BY A.id, A.seller) AS Q`,
  },
  {
    name: 'q7',
    sql: `SELECT B.auction, B.price, B.bidder, B.dateTime, B.extra FROM bid B
          JOIN (SELECT MAX(price) AS maxprice, window_end AS dateTime
                FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
                GROUP BY window_start, window_end) B1
          ON B.price = B1.maxprice
          WHERE B.dateTime BETWEEN B1.dateTime - INTERVAL '10' SECOND AND B1.dateTime`,
  },
  {
    name: 'q8',
    sql: `SELECT P.id, P.name, P.starttime FROM (
            SELECT id, name, window_start AS starttime, window_end AS endtime
            FROM TABLE(TUMBLE(TABLE person, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
            GROUP BY id, name, window_start, window_end) P
          JOIN (
            SELECT seller, window_start AS starttime, window_end AS endtime
            FROM TABLE(TUMBLE(TABLE auction, DESCRIPTOR(dateTime), INTERVAL '10' SECOND))
            GROUP BY seller, window_start, window_end) A
          ON P.id = A.seller AND P.starttime = A.starttime AND P.endtime = A.endtime`,
  },
  {
    name: 'q9',
    sql: `SELECT id, itemName, description, initialBid, reserve, dateTime, expires, seller, category, extra,
                 auction, bidder, price, bid_dateTime, bid_extra FROM (
            SELECT A.*, B.auction, B.bidder, B.price, B.dateTime AS bid_dateTime, B.extra AS bid_extra,
                   ROW_NUMBER() OVER (PARTITION BY A.id ORDER BY B.price DESC, B.dateTime ASC) AS rownum
            FROM auction A, bid B
            WHERE A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires)
          WHERE rownum <= 1`,
  },
  {
    name: 'q10',
    sql: `SELECT auction, bidder, price, dateTime, extra, DATE_FORMAT(dateTime, 'yyyy-MM-dd'), DATE_FORMAT(dateTime, 'HH:mm') FROM bid`,
  },
  {
    name: 'q11',
    sql: `SELECT B.bidder, count(*) AS bid_count,
                 SESSION_START(B.dateTime, INTERVAL '10' SECOND) AS starttime,
                 SESSION_END(B.dateTime, INTERVAL '10' SECOND) AS endtime
          FROM bid B GROUP BY B.bidder, SESSION(B.dateTime, INTERVAL '10' SECOND)`,
  },
  {
    name: 'q12',
    setup: ['CREATE TEMPORARY VIEW bid_proctime AS SELECT *, PROCTIME() AS p_time FROM bid'],
    sql: `SELECT B.bidder, count(*) AS bid_count, window_start AS starttime, window_end AS endtime
          FROM TABLE(TUMBLE(TABLE bid_proctime, DESCRIPTOR(p_time), INTERVAL '10' SECOND)) B
          GROUP BY B.bidder, window_start, window_end`,
  },
  {
    name: 'q13',
    setup: ["CREATE TEMPORARY TABLE side_input (`key` BIGINT, `value` VARCHAR) WITH ('connector' = 'datagen', 'number-of-rows' = '10')"],
    sql: `SELECT B.auction, B.bidder, B.price, B.dateTime, S.\`value\`
          FROM (SELECT *, PROCTIME() AS p_time FROM bid) B
          JOIN side_input FOR SYSTEM_TIME AS OF B.p_time AS S ON mod(B.auction, 10000) = S.\`key\``,
  },
  {
    name: 'q14',
    sql: `SELECT auction, bidder, 0.908 * price AS price,
            CASE
              WHEN HOUR(dateTime) >= 8 AND HOUR(dateTime) <= 18 THEN 'dayTime'
              WHEN HOUR(dateTime) <= 6 OR HOUR(dateTime) >= 20 THEN 'nightTime'
              ELSE 'otherTime'
            END AS bidTimeType,
            dateTime, extra, count_char(extra, 'c') AS c_counts
          FROM bid WHERE 0.908 * price > 1000000 AND 0.908 * price < 50000000`,
  },
  {
    name: 'q15',
    sql: `SELECT DATE_FORMAT(dateTime, 'yyyy-MM-dd') AS \`day\`,
            ${perPriceRank('count(*)', 'bids')},
            ${perPriceRank('count(distinct bidder)', 'bidders')},
            ${perPriceRank('count(distinct auction)', 'auctions')}
          FROM bid GROUP BY DATE_FORMAT(dateTime, 'yyyy-MM-dd')`,
  },
  {
    name: 'q16',
    sql: `SELECT channel, DATE_FORMAT(dateTime, 'yyyy-MM-dd') AS \`day\`, max(DATE_FORMAT(dateTime, 'HH:mm')) AS \`minute\`,
            ${perPriceRank('count(*)', 'bids')},
            ${perPriceRank('count(distinct bidder)', 'bidders')},
            ${perPriceRank('count(distinct auction)', 'auctions')}
          FROM bid GROUP BY channel, DATE_FORMAT(dateTime, 'yyyy-MM-dd')`,
  },
  {
    name: 'q17',
    sql: `SELECT auction, DATE_FORMAT(dateTime, 'yyyy-MM-dd') AS \`day\`,
            ${perPriceRank('count(*)', 'bids')},
            min(price) AS min_price, max(price) AS max_price, avg(price) AS avg_price, sum(price) AS sum_price
          FROM bid GROUP BY auction, DATE_FORMAT(dateTime, 'yyyy-MM-dd')`,
  },
  {
    name: 'q18',
    sql: `SELECT auction, bidder, price, channel, url, dateTime, extra FROM (
            SELECT *, ROW_NUMBER() OVER (PARTITION BY bidder, auction ORDER BY dateTime DESC) AS rank_number FROM bid)
          WHERE rank_number <= 1`,
  },
  {
    name: 'q19',
    sql: `SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM bid)
          WHERE rank_number <= 10`,
  },
  {
    name: 'q20',
    sql: `SELECT auction, bidder, price, channel, url, B.dateTime, B.extra,
                 itemName, description, initialBid, reserve, A.dateTime, expires, seller, category, A.extra
          FROM bid AS B INNER JOIN auction AS A ON B.auction = A.id WHERE A.category = 10`,
  },
  {
    name: 'q21',
    sql: `SELECT auction, bidder, price, channel,
            CASE
              WHEN lower(channel) = 'apple' THEN '0'
              WHEN lower(channel) = 'google' THEN '1'
              WHEN lower(channel) = 'facebook' THEN '2'
              WHEN lower(channel) = 'baidu' THEN '3'
              ELSE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2)
            END AS channel_id
          FROM bid
          WHERE REGEXP_EXTRACT(url, '(&|^)channel_id=([^&]*)', 2) is not null OR lower(channel) in ('apple', 'google', 'facebook', 'baidu')`,
  },
  {
    name: 'q22',
    sql: `SELECT auction, bidder, price, channel,
            SPLIT_INDEX(url, '/', 3) AS dir1, SPLIT_INDEX(url, '/', 4) AS dir2, SPLIT_INDEX(url, '/', 5) AS dir3
          FROM bid`,
  },
];
