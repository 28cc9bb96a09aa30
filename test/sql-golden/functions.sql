-- Built-in functions from planner/functions, through the binder's registry fallback.

SELECT SUBSTRING('hello' FROM 2 FOR 3), TRIM('  x  '), POSITION('l' IN 'hello'), CHAR_LENGTH('abc'), LOWER('AbC');
-- expect:
[ell, x, 3, 3, abc]

SELECT EXTRACT(YEAR FROM TIMESTAMP '2024-03-05 10:00:00'), DATE_FORMAT(TIMESTAMP '2024-03-05 10:00:00', 'yyyy/MM/dd');
-- expect:
[2024, 2024/03/05]

SELECT REPLACE(s, 'a', 'o'), CONCAT_WS('-', s, 'z') FROM (VALUES ('banana')) AS t(s);
-- expect:
[bonono, banana-z]

SELECT s FROM (VALUES ('apple'), ('Banana')) AS t(s) WHERE s ILIKE 'b%';
-- expect:
[Banana]

SELECT TIMESTAMPADD(HOUR, 2, TIMESTAMP '2024-01-01 10:00:00');
-- expect:
[2024-01-01 12:00:00]

SELECT NO_SUCH_FN(1);
-- error: No match found for function signature NO_SUCH_FN(<INTEGER>)

SELECT k, STDDEV_POP(v) FROM (VALUES ('a', 1.0), ('a', 3.0)) AS t(k, v) GROUP BY k;
-- expect:
[a, 1.0]
