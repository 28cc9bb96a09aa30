-- Nexmark q1 (currency conversion) and q2 (selection) over the built-in Nexmark generator, bounded to
-- 10,000 events with a fixed seed and base time, so every run prints the same result.
--   npx sluice -f sql-examples/nexmark-q1.sql     (from anywhere; no server needed)

SET 'execution.runtime-mode' = 'batch';

CREATE TEMPORARY TABLE nexmark (
    event_type int,
    person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR, state VARCHAR,
               dateTime TIMESTAMP(3), extra VARCHAR>,
    auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT,
                dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR>,
    bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR>,
    dateTime AS
        CASE
            WHEN event_type = 0 THEN person.dateTime
            WHEN event_type = 1 THEN auction.dateTime
            ELSE bid.dateTime
        END,
    WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH (
    'connector' = 'nexmark',
    'events.num' = '10000',
    'first-event.rate' = '10000',
    'next-event.rate' = '10000',
    'rate-limited' = 'false',
    'seed' = '42',
    'base-time' = '1704067200000'
);

CREATE TEMPORARY VIEW bid AS
SELECT bid.auction, bid.bidder, bid.price, bid.channel, bid.url, dateTime, bid.extra
FROM nexmark WHERE event_type = 2;

-- q1: every bid with its price converted from dollars to euros.
CREATE TEMPORARY VIEW q1 AS
SELECT auction, bidder, 0.908 * price AS price, dateTime, extra FROM bid;

SELECT auction, bidder, price, dateTime FROM q1 ORDER BY dateTime, auction, bidder, price LIMIT 5;

SELECT COUNT(*) AS bids, SUM(price) AS total_eur, MIN(dateTime) AS first_bid, MAX(dateTime) AS last_bid FROM q1;

-- q2: the bids on a few auctions (auction ids divisible by 123).
SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0 ORDER BY auction, price;
