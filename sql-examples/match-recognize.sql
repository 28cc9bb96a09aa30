-- Pattern recognition with MATCH_RECOGNIZE: periods of a falling stock price (the Flink docs' ticker example),
-- over a shipped CSV file with a WATERMARK.
--   npx sluice -f sql-examples/match-recognize.sql     (from the repository root; no server needed)
-- Rows wait until the watermark passes them and are then matched per symbol in time order; when the file ends the
-- watermark jumps to the end of time, so every match is found and the job ends.

SET 'execution.runtime-mode' = 'streaming';

CREATE TEMPORARY TABLE Ticker (
  symbol  STRING,
  rowtime TIMESTAMP(3),
  price   BIGINT,
  tax     BIGINT,
  WATERMARK FOR rowtime AS rowtime
) WITH (
  'connector' = 'filesystem',
  'path' = 'sql-examples/data/ticker',
  'format' = 'csv'
);

-- A start row, one or more rows each cheaper than the last, then a row dearer than the bottom.
SELECT *
FROM Ticker
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            START_ROW.rowtime AS start_tstamp,
            LAST(PRICE_DOWN.rowtime) AS bottom_tstamp,
            LAST(PRICE_UP.rowtime) AS end_tstamp,
            COUNT(PRICE_DOWN.price) AS falls
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO LAST PRICE_UP
        PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
        DEFINE
            PRICE_DOWN AS
                (LAST(PRICE_DOWN.price, 1) IS NULL AND PRICE_DOWN.price < START_ROW.price) OR
                    PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
            PRICE_UP AS
                PRICE_UP.price > LAST(PRICE_DOWN.price, 1)
    ) MR;
