-- Queries from Flink's SQL query documentation (select, window TVF, joins, Top-N, dedup, OVER, CTE, sets)
SELECT * FROM Orders;

SELECT order_id, price + tax FROM Orders;

SELECT order_id, price FROM (VALUES (1, 2.0), (2, 3.1)) AS t (order_id, price);

SELECT price + tax FROM Orders WHERE id = 10;

SELECT PRETTY_PRINT(order_id) FROM Orders;

SELECT DISTINCT id FROM Orders;

SELECT COUNT(*) FROM Orders GROUP BY order_id;

SELECT COUNT(DISTINCT order_id) FROM Orders;

SELECT supplier_id, rating, COUNT(*) AS total
FROM (VALUES
    ('supplier1', 'product1', 4),
    ('supplier1', 'product2', 3),
    ('supplier2', 'product3', 3),
    ('supplier2', 'product4', 4))
AS Products(supplier_id, product_id, rating)
GROUP BY GROUPING SETS ((supplier_id, rating), (supplier_id), ());

SELECT supplier_id, rating, COUNT(*) FROM Products GROUP BY ROLLUP (supplier_id, rating);

SELECT supplier_id, rating, product_id, COUNT(*) FROM Products GROUP BY CUBE (supplier_id, rating, product_id);

SELECT SUM(amount) FROM Orders GROUP BY users HAVING SUM(amount) > 50;

SELECT window_start, window_end, SUM(price) AS total_price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end;

SELECT window_start, window_end, SUM(price) AS total_price
  FROM TABLE(
    HOP(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end;

SELECT window_start, window_end, SUM(price) AS total_price
  FROM TABLE(
    CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES, INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end;

SELECT window_start, window_end, item, SUM(price) AS total_price
  FROM TABLE(
    SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES))
  GROUP BY item, window_start, window_end;

SELECT * FROM TABLE(
   TUMBLE(
     DATA => TABLE Bid,
     TIMECOL => DESCRIPTOR(bidtime),
     SIZE => INTERVAL '10' MINUTES));

SELECT * FROM TABLE(
   TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES, INTERVAL '1' MINUTES));

SELECT window_start, window_end, supplier_id, SUM(price) AS total_price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end, GROUPING SETS ((supplier_id), ());

SELECT window_start, window_end, supplier_id, SUM(price) AS total_price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end, ROLLUP (supplier_id);

SELECT window_start AS window_5mintumble_start, window_end AS window_5mintumble_end, window_time AS rowtime, SUM(price) AS partial_price
  FROM TABLE(
    TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES))
  GROUP BY supplier_id, window_start, window_end, window_time;

SELECT *
  FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS rownum
    FROM (
      SELECT window_start, window_end, supplier_id, SUM(price) AS price, COUNT(*) AS cnt
      FROM TABLE(
        TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
      GROUP BY window_start, window_end, supplier_id
    )
  ) WHERE rownum <= 3;

SELECT *
FROM (
  SELECT *,
    ROW_NUMBER() OVER (PARTITION BY category ORDER BY sales DESC) AS row_num
  FROM ShopSales)
WHERE row_num <= 5;

SELECT product_id, category, product_name, sales
FROM (
  SELECT *,
    ROW_NUMBER() OVER (PARTITION BY category ORDER BY sales DESC) AS row_num
  FROM ShopSales)
WHERE row_num <= 5;

SELECT order_id, `user`, product, number
FROM (
  SELECT *,
    ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY proctime ASC) AS row_num
  FROM Orders)
WHERE row_num = 1;

SELECT *
  FROM (
    SELECT bidtime, price, item, supplier_id, window_start, window_end,
      ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY bidtime DESC) AS rownum
    FROM TABLE(
      TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  ) WHERE rownum <= 1;

SELECT order_id, order_time, amount,
  SUM(amount) OVER (
    PARTITION BY product
    ORDER BY order_time
    RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW
  ) AS one_hour_prod_amount_sum
FROM Orders;

SELECT order_id, order_time, amount,
  SUM(amount) OVER w AS sum_amount,
  AVG(amount) OVER w AS avg_amount
FROM Orders
WINDOW w AS (
  PARTITION BY product
  ORDER BY order_time
  RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW);

SELECT product, SUM(amount) OVER (PARTITION BY product ORDER BY order_time ROWS BETWEEN 10 PRECEDING AND CURRENT ROW) FROM Orders;

SELECT product, COUNT(amount) OVER (PARTITION BY product ORDER BY order_time ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM Orders;

SELECT * FROM Orders
INNER JOIN Product
ON Orders.productId = Product.id;

SELECT * FROM Orders
LEFT JOIN Product
ON Orders.product_id = Product.id;

SELECT * FROM Orders
RIGHT JOIN Product
ON Orders.product_id = Product.id;

SELECT * FROM Orders
FULL OUTER JOIN Product
ON Orders.product_id = Product.id;

SELECT *
FROM Orders o, Shipments s
WHERE o.id = s.order_id
AND o.order_time BETWEEN s.ship_time - INTERVAL '4' HOUR AND s.ship_time;

SELECT
     order_id,
     price,
     orders.currency,
     conversion_rate,
     order_time
FROM orders
LEFT JOIN currency_rates FOR SYSTEM_TIME AS OF orders.order_time
ON orders.currency = currency_rates.currency;

SELECT o.order_id, o.total, c.country, c.zip
FROM Orders AS o
  JOIN Customers FOR SYSTEM_TIME AS OF o.proc_time AS c
    ON o.customer_id = c.id;

SELECT o_amount, r_rate
FROM
  Orders,
  LATERAL TABLE (Rates(o_proctime))
WHERE
  r_currency = o_currency;

SELECT order_id, tag
FROM Orders CROSS JOIN UNNEST(tags) AS t (tag);

SELECT order_id, res
FROM Orders,
LATERAL TABLE(table_func(order_id)) t(res);

SELECT order_id, res
FROM Orders
LEFT OUTER JOIN LATERAL TABLE(table_func(order_id)) t(res)
  ON TRUE;

SELECT L.num AS L_Num, L.id AS L_Id, R.num AS R_Num, R.id AS R_Id,
  COALESCE(L.window_start, R.window_start) AS window_start,
  COALESCE(L.window_end, R.window_end) AS window_end
  FROM (
    SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
  ) L
  FULL JOIN (
    SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
  ) R
  ON L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end;

SELECT *
  FROM (
    SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
  ) L WHERE L.num IN (
    SELECT num FROM (
      SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
    ) R WHERE L.window_start = R.window_start AND L.window_end = R.window_end);

SELECT *
  FROM (
    SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
  ) L WHERE NOT EXISTS (
    SELECT * FROM (
      SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))
    ) R WHERE L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end);

WITH orders_with_total AS (
    SELECT order_id, price + tax AS total
    FROM Orders
)
SELECT order_id, SUM(total)
FROM orders_with_total
GROUP BY order_id;

WITH a AS (SELECT 1 AS x), b (y) AS (SELECT x FROM a) SELECT y FROM b;

(SELECT s FROM t1) UNION (SELECT s FROM t2);

(SELECT s FROM t1) UNION ALL (SELECT s FROM t2);

(SELECT s FROM t1) INTERSECT (SELECT s FROM t2);

(SELECT s FROM t1) INTERSECT ALL (SELECT s FROM t2);

(SELECT s FROM t1) EXCEPT (SELECT s FROM t2);

(SELECT s FROM t1) EXCEPT ALL (SELECT s FROM t2);

SELECT a FROM t1 UNION SELECT a FROM t2 INTERSECT SELECT a FROM t3;

SELECT a FROM t1 UNION (SELECT a FROM t2 UNION SELECT a FROM t3) ORDER BY a LIMIT 3;

SELECT user, amount
FROM Orders
WHERE product IN (
    SELECT product FROM NewProducts
);

SELECT *
FROM Orders
ORDER BY order_time, order_id;

SELECT *
FROM Orders
ORDER BY orderTime
LIMIT 3;

SELECT * FROM Orders ORDER BY price DESC NULLS LAST, id ASC NULLS FIRST OFFSET 10 ROWS FETCH NEXT 5 ROWS ONLY;

VALUES (1, 'a'), (2, 'b');

SELECT o.* , p.name FROM Orders AS o JOIN Products p USING (product_id);

SELECT /*+ BROADCAST(Dim) */ * FROM Fact JOIN Dim ON Fact.k = Dim.k;

SELECT * FROM kafka_table1 /*+ OPTIONS('scan.startup.mode'='earliest-offset') */ t1
JOIN kafka_table2 /*+ OPTIONS('scan.startup.mode'='earliest-offset') */ t2 ON t1.id = t2.id;

SELECT /*+ LOOKUP('table'='Customers', 'retry-predicate'='lookup_miss', 'retry-strategy'='fixed_delay', 'fixed-delay'='10s','max-attempts'='3') */ o.order_id, o.total, c.country, c.zip
FROM Orders AS o
JOIN Customers FOR SYSTEM_TIME AS OF o.proc_time AS c
ON o.customer_id = c.id;

SELECT user_id, LISTAGG(item, ';') AS items, FIRST_VALUE(item) AS first_item FROM t GROUP BY user_id;

SELECT COUNT(*) FILTER (WHERE amount > 10) AS big, LAG(amount, 1, 0) OVER (PARTITION BY u ORDER BY ts) FROM t GROUP BY u;

SELECT a, b FROM t1, t2, t3 WHERE t1.x = t2.x;

SELECT * FROM (t1 JOIN t2 ON t1.a = t2.a) JOIN (t3 CROSS JOIN t4) ON t1.b = t3.b;

SELECT * FROM t1 NATURAL JOIN t2;

SELECT CURRENT_WATERMARK(ts), CURRENT_ROW_TIMESTAMP(), PROCTIME(), NOW() FROM t;
