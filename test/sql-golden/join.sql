-- Regular joins over VALUES.

SELECT o.id, c.name FROM (VALUES (1, 10), (2, 20), (3, 30)) AS o(id, cid) JOIN (VALUES (10, 'ann'), (20, 'bob')) AS c(cid, name) ON o.cid = c.cid;
-- expect:
[1, ann]
[2, bob]

SELECT o.id, c.name FROM (VALUES (1, 10), (2, 20), (3, 30)) AS o(id, cid) LEFT JOIN (VALUES (10, 'ann'), (20, 'bob')) AS c(cid, name) ON o.cid = c.cid;
-- expect:
[1, ann]
[2, bob]
[3, NULL]

SELECT o.id, c.name FROM (VALUES (1, 10)) AS o(id, cid) RIGHT JOIN (VALUES (10, 'ann'), (20, 'bob')) AS c(cid, name) ON o.cid = c.cid;
-- expect:
[1, ann]
[NULL, bob]

SELECT o.id, c.name FROM (VALUES (1, 10), (3, 30)) AS o(id, cid) FULL JOIN (VALUES (10, 'ann'), (20, 'bob')) AS c(cid, name) ON o.cid = c.cid;
-- expect:
[1, ann]
[3, NULL]
[NULL, bob]

SELECT o.id, c.name FROM (VALUES (1, 10), (2, 20)) AS o(id, cid) JOIN (VALUES (10, 'ann'), (20, 'bob')) AS c(cid, name) ON o.cid = c.cid AND o.id > 1;
-- expect:
[2, bob]

SELECT id, name FROM (VALUES (1, 10)) AS o(id, cid) JOIN (VALUES (10, 'ann')) AS c(cid, name) USING (cid);
-- expect:
[1, ann]

SELECT a, b FROM (VALUES (1), (2)) AS x(a), (VALUES ('p')) AS y(b);
-- expect:
[1, p]
[2, p]

SELECT cid FROM (VALUES (1, 10)) AS o(id, cid) JOIN (VALUES (10, 'ann')) AS c(cid, name) ON o.cid = c.cid;
-- error: Column 'cid' is ambiguous

SELECT c.name, COUNT(*) AS n FROM (VALUES (1, 10), (2, 10), (3, 20)) AS o(id, cid) JOIN (VALUES (10, 'ann'), (20, 'bob')) AS c(cid, name) ON o.cid = c.cid GROUP BY c.name;
-- expect:
[ann, 2]
[bob, 1]

-- mode: streaming
SELECT o.id, c.name FROM (VALUES (1, 10)) AS o(id, cid) LEFT JOIN (SELECT cid, MAX(name) AS name FROM (VALUES (10, 'ann'), (10, 'bob')) AS t(cid, name) GROUP BY cid) AS c ON o.cid = c.cid;
-- expect:
[1, bob]

-- mode: both
SELECT o.id, c.name FROM (VALUES (1, 10), (2, 20)) AS o(id, cid) JOIN (VALUES (CAST(10 AS BIGINT), 'ann'), (CAST(20 AS BIGINT), 'bob')) AS c(cid, name) ON o.cid = c.cid;
-- expect:
[1, ann]
[2, bob]

SELECT o.id, c.name FROM (VALUES (1, 11), (2, 21)) AS o(id, cid) JOIN (VALUES (10, 'ann'), (20, 'bob')) AS c(cid, name) ON o.cid - 1 = c.cid AND o.id < c.cid;
-- expect:
[1, ann]
[2, bob]
