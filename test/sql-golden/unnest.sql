-- CROSS JOIN UNNEST of arrays, arrays of rows and maps.

SELECT id, x FROM (VALUES (1, ARRAY[10, 20]), (2, ARRAY[30])) AS t(id, arr) CROSS JOIN UNNEST(arr) AS u(x);
-- expect:
[1, 10]
[1, 20]
[2, 30]

SELECT id, x, n FROM (VALUES (1, ARRAY['a', 'b'])) AS t(id, arr) CROSS JOIN UNNEST(arr) WITH ORDINALITY AS u(x, n);
-- expect:
[1, a, 1]
[1, b, 2]

SELECT id, k, v FROM (VALUES (1, MAP['x', 1, 'y', 2])) AS t(id, m), UNNEST(m) AS u(k, v);
-- expect:
[1, x, 1]
[1, y, 2]

SELECT id, x FROM (VALUES (1, ARRAY[10]), (2, CAST(NULL AS ARRAY<INT>))) AS t(id, arr) LEFT JOIN UNNEST(arr) AS u(x) ON TRUE;
-- expect:
[1, 10]
[2, NULL]
