-- mode: batch
SELECT a, b FROM (VALUES (3, 'c'), (1, 'a'), (2, 'b')) AS t(a, b) ORDER BY a DESC;
-- expect-ordered:
[3, c]
[2, b]
[1, a]

SELECT a FROM (VALUES (3), (1), (2), (5)) AS t(a) ORDER BY a LIMIT 2 OFFSET 1;
-- expect-ordered:
[2]
[3]

SELECT a FROM (VALUES (3), (CAST(NULL AS INT)), (2)) AS t(a) ORDER BY 1;
-- expect-ordered:
[NULL]
[2]
[3]

SELECT a FROM (VALUES (1, 'b'), (2, 'a'), (3, 'c')) AS t(a, b) ORDER BY b DESC;
-- expect-ordered:
[3]
[1]
[2]

-- mode: streaming
SELECT a FROM (VALUES (3), (1)) AS t(a) ORDER BY a;
-- error: Sort on a non-time-attribute field is not supported.
