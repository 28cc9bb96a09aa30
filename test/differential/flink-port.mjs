// Flink's own built-in function tests (apache/flink, flink-table-planner/src/test/java/org/apache/flink/table/planner/
// functions/*ITCase.java), ported by hand as DATA: each TestSetSpec's input row becomes a one-row VALUES whose fields
// are CASTs to the spec's declared types (so that literal typing, e.g. CHAR(n) for 'abc', cannot change the answer),
// and each SQL expression of the spec (testSqlResult / testResult's SQL string / testSqlRuntimeError /
// testSqlValidationError) becomes one statement over it. The expected answers are not the Java literals of the tests
// but what a real Flink 2.3 printed for these statements (goldens/flink-functions.json, recorded with
// scripts/flink-port.mjs). Table-API-only cases have no SQL string and are not ported.

const s = (v) => `CAST('${v.replace(/'/g, "''")}' AS STRING)`;
const n = (t) => `CAST(NULL AS ${t})`;
const c = (v, t) => `CAST(${v} AS ${t})`;

/** @type {{ source: string, fields: string[], exprs: string[] }[]} */
export const specs = [
  // ---- MathFunctionsITCase
  { source: 'MathFunctionsITCase PLUS', fields: [c('1514356320000', 'DECIMAL(19, 0)')], exprs: ['f0 + 6', 'f0 + f0'] },
  { source: 'MathFunctionsITCase MINUS', fields: [c('1514356320000', 'DECIMAL(19, 0)')], exprs: ['f0 - 6', 'f0 - f0'] },
  { source: 'MathFunctionsITCase DIVIDE', fields: [c('1514356320000', 'DECIMAL(19, 0)')], exprs: ['f0 / 6', 'f0 / f0'] },
  {
    source: 'MathFunctionsITCase TIMES',
    fields: [c('1514356320000', 'DECIMAL(19, 0)'), "INTERVAL '2' SECOND(3)", c('2', 'INT')],
    exprs: ['f0 * 6', 'f0 * f0', 'f1 * 3', "f2 * interval '3' second(3)"],
  },
  { source: 'MathFunctionsITCase MOD', fields: [c('1514356320000', 'DECIMAL(19, 0)'), c('44', 'BIGINT'), c('3', 'INT')], exprs: ['MOD(f0, f0)', 'MOD(f0, 6)', 'MOD(f1, f2)'] },
  { source: 'MathFunctionsITCase ROUND', fields: [c('12345.12345', 'DECIMAL(10, 5)')], exprs: ['ROUND(f0, 2)'] },
  { source: 'MathFunctionsITCase TRUNCATE', fields: [c('123.456', 'DECIMAL(6, 3)')], exprs: ['TRUNCATE(f0, 2)'] },
  { source: 'MathFunctionsITCase SHIFTLEFT', fields: [c('123456', 'BIGINT')], exprs: ['shiftleft (f0, 2)'] },
  { source: 'MathFunctionsITCase SHIFTRIGHT', fields: [c('123456', 'BIGINT')], exprs: ['shiftright (f0, 2)'] },

  // ---- StringFunctionsITCase
  {
    source: 'StringFunctionsITCase ELT',
    fields: [n('INT'), n('STRING'), n('BYTES'), c("X'010203'", 'BYTES')],
    exprs: ["ELT(f0, 'a', 'b')", 'ELT(1, f1)', "ELT(1, 'a', f1)", "ELT(0, 'a')", "ELT(4, 'a', 'b', 'c')", "ELT(1, 'scala', 'java')", "ELT(2, 'a', 'b')", 'ELT(2, f2, f3, f3)', 'ELT(3, f2, f3, f2)'],
  },
  { source: 'StringFunctionsITCase ELT Validation Error', fields: [s('1'), c("X'31'", 'BYTES')], exprs: ["ELT(f0, '3', '5')", 'ELT(1)'] },
  { source: 'StringFunctionsITCase REGEXP_EXTRACT Check return type', fields: [s('22'), s('ABC')], exprs: ["REGEXP_EXTRACT(f0,'[A-Z]+')", "REGEXP_EXTRACT(f1, '[A-Z]+')"] },
  {
    source: 'StringFunctionsITCase TRANSLATE',
    fields: [n('STRING'), s('www.apache.org'), s(''), s('翻译test，测试'), s('www.\uD83D\uDE00.org')],
    exprs: [
      "TRANSLATE(f0, 'abc', '123')",
      "TRANSLATE(f1, f0, '123')",
      "TRANSLATE(f1, 'abc', f0)",
      "TRANSLATE(f2, 'abc', '123')",
      "TRANSLATE(f1, f2, '123')",
      "TRANSLATE(f1, 'abc', f2)",
      "TRANSLATE(f1, 'abcde', '123')",
      "TRANSLATE(f1, 'abcde.', '123')",
      "TRANSLATE(f1, 'abc', '12345')",
      "TRANSLATE(f1, 'abcae', '12345')",
      "TRANSLATE(f1, '...', '123')",
      "TRANSLATE(f1, 'ABCDE', '12345')",
      "TRANSLATE(f3, '翻译测试test，', '测试翻译tset。')",
      "TRANSLATE(f3, '翻译测试test，', 'test翻译  ')",
      "TRANSLATE(f4, '.\uD83D\uDE00', '\uD83D\uDE00.')",
      "TRANSLATE(f4, '\uD83D\uDE00w', '笑α')",
      "TRANSLATE('www.apache.org', 'abc', '123')",
      "TRANSLATE(TRANSLATE('www.apache.org', 'abc', '123'), 'abc', '123')",
      "TRANSLATE(f1, 'abc', '123')",
      "TRANSLATE(f1, 'abc', 'ABC')",
      "TRANSLATE(f1, 'abcworg', '123 ')",
    ],
  },
  { source: 'StringFunctionsITCase TRANSLATE Validation Error', fields: [c('12345', 'INT')], exprs: ["TRANSLATE(f0, '3', '5')"] },

  // ---- RegexpFunctionsITCase
  {
    source: 'RegexpFunctionsITCase REGEXP_COUNT',
    fields: [n('STRING'), s('abcdeabde')],
    exprs: [
      'REGEXP_COUNT(f0, f1)',
      'REGEXP_COUNT(f1, f0)',
      "REGEXP_COUNT(f1, '(')",
      "REGEXP_COUNT('hello world! Hello everyone!', 'Hello')",
      "REGEXP_COUNT('abcabcabc', 'abcab')",
      "REGEXP_COUNT('abcd', 'z')",
      "REGEXP_COUNT('^abc', '\\^abc')",
      "REGEXP_COUNT('a.b.c.d', '\\.')",
      "REGEXP_COUNT('a*b*c*d', '\\*')",
      "REGEXP_COUNT('abc123xyz456', '\\d')",
      "REGEXP_COUNT('Helloworld! Hello everyone!', '\\bHello\\b')",
    ],
  },
  { source: 'RegexpFunctionsITCase REGEXP_COUNT Validation Error', fields: [c('1024', 'INT')], exprs: ["REGEXP_COUNT(f0, '1024')"] },
  {
    source: 'RegexpFunctionsITCase REGEXP_EXTRACT_ALL',
    fields: [n('STRING'), s('abcdeabde'), s('100-200, 300-400')],
    exprs: [
      'REGEXP_EXTRACT_ALL(f0, f1)',
      'REGEXP_EXTRACT_ALL(f1, f0)',
      'REGEXP_EXTRACT_ALL(f1, f1, NULL)',
      "REGEXP_EXTRACT_ALL(f1, '(')",
      "REGEXP_EXTRACT_ALL(f1, '(abcdeabde)', -1)",
      "REGEXP_EXTRACT_ALL(f1, 'abcdeabde')",
      "REGEXP_EXTRACT_ALL(f1, '(abcdeabde)', 2)",
      "REGEXP_EXTRACT_ALL(f2, '[a-z]', 0)",
      "REGEXP_EXTRACT_ALL(f1, '(abcdeabde)|([a-z]*)', 2)",
      "REGEXP_EXTRACT_ALL(f1, 'ab((c)|(.?))de', 2)",
      "REGEXP_EXTRACT_ALL(f1, '(ab)([a-z]+)(e)', 2)",
      "REGEXP_EXTRACT_ALL(f1, '', 0)",
      "REGEXP_EXTRACT_ALL(f2, '(\\d+)-(\\d+)', 0)",
      "REGEXP_EXTRACT_ALL(f2, '(\\d+)-(\\d+)', 1)",
      "REGEXP_EXTRACT_ALL(f2, '(\\d+)-(\\d+)', 2)",
      "REGEXP_EXTRACT_ALL(f2, '(\\d+).*', 1)",
    ],
  },
  { source: 'RegexpFunctionsITCase REGEXP_EXTRACT_ALL Validation Error', fields: [c('1024', 'INT')], exprs: ["REGEXP_EXTRACT_ALL(f0, '1024')"] },
  {
    source: 'RegexpFunctionsITCase REGEXP_INSTR',
    fields: [n('STRING'), s('abcdeabde'), s('100-200, 300-400')],
    exprs: [
      'REGEXP_INSTR(f0, f1)',
      'REGEXP_INSTR(f1, f0)',
      "REGEXP_INSTR(f1, '(')",
      "REGEXP_INSTR(f2, '[a-z]')",
      "REGEXP_INSTR('Helloworld! Hello everyone!', '\\bHello\\b')",
      "REGEXP_INSTR('Helloworld!  Hello everyone!', '\\bHello\\b')",
      "REGEXP_INSTR('hello world! Hello everyone!', 'Hello')",
      "REGEXP_INSTR('a.b.c.d', '\\.')",
    ],
  },

  // ---- LikeFunctionITCase
  {
    source: 'LikeFunctionITCase LIKE with escape',
    fields: [s('test'), s('test%'), s('te_st'), s('te"st'), s('test\\'), s('✅test✅')],
    exprs: [
      "f0 LIKE 'test\"end' ESCAPE ''",
      "f0 LIKE '' ESCAPE ''",
      "f0 LIKE 'test' ESCAPE '✅'",
      "f1 LIKE 'test✅%' ESCAPE '✅'",
      "f1 LIKE 'test!%' ESCAPE '!'",
      "f0 LIKE '✅test' ESCAPE '!'",
      "f0 LIKE '✅test' ESCAPE '\\'",
      "f5 LIKE '✅test✅' ESCAPE '\\'",
      "f5 LIKE '✅%✅' ESCAPE '\\'",
      "f5 LIKE '✅%' ESCAPE '\\'",
      "f5 LIKE '%st✅' ESCAPE '\\'",
      "f2 LIKE 'te_st' ESCAPE '!'",
      "f2 LIKE 'te__st' ESCAPE '_'",
      "f1 LIKE 'test_%' ESCAPE '_'",
      "f2 LIKE 'te%_st' ESCAPE '%'",
      "f1 LIKE 'test%%' ESCAPE '%'",
      "f2 LIKE 'te_st' ESCAPE '_'",
      "f1 LIKE 'test_' ESCAPE '_'",
      "f2 LIKE 'te%st' ESCAPE '%'",
      "f1 LIKE 'test%' ESCAPE '%'",
      "f0 LIKE 'test\\\"end' ESCAPE '\\'",
      "f0 LIKE '%e_t%' ESCAPE 'ab'",
      "f0 LIKE 'test\"end' ESCAPE '!'",
      "f3 LIKE 'te\"st' ESCAPE '!'",
      "f4 LIKE 'test\\' ESCAPE '!'",
      "'a1bc' LIKE CAST('a%\"+1+\"b%c' AS STRING) ESCAPE '!'",
      "'a1\"+1+\"bc' LIKE CAST('a%\"+1+\"b%c' AS STRING) ESCAPE '!'",
      "f0 LIKE 'test\\u000Aend' ESCAPE '!'",
      "'test\\u000Aend' LIKE 'test\\u000Aend' ESCAPE '!'",
    ],
  },
  {
    source: 'LikeFunctionITCase LIKE quotes',
    fields: [s('test'), s('t"est'), s('tes"t'), s('t"es"t')],
    exprs: [
      "f0 LIKE 'a%b\"c%d'",
      "f0 LIKE 't%es%t'",
      "f0 LIKE 'a\"b%c%d'",
      "f1 LIKE 't\"e%s%t'",
      "f0 LIKE 'a%b%c\"d'",
      "f2 LIKE 't%e%s\"t'",
      "f0 LIKE 'a\"%b\"%c'",
      "f3 LIKE 't\"%s\"%t'",
      "f0 LIKE 'te_t\"'",
      "f2 LIKE 'te_\"t'",
      "f0 LIKE '_\"_test_\"_'",
      "f3 LIKE '_\"__\"_'",
    ],
  },
  {
    source: 'LikeFunctionITCase LIKE plain',
    fields: [s('test'), s('abc%def'), s('test_123'), s("hello'world")],
    exprs: ["f0 LIKE 'test'", "'' LIKE ''", "'' LIKE '%'", "f0 LIKE ''", "f0 LIKE '%%'", "f0 LIKE 'te%'", "f0 LIKE '%st'", "f0 LIKE '%es%'", "f3 LIKE '%''%'", "f1 LIKE 'abc%def'", "f0 LIKE 'orange'"],
  },
  { source: 'LikeFunctionITCase LIKE backslash', fields: [s('test')], exprs: ["f0 LIKE 'test\\\"more'", "f0 LIKE 'test\\\\'"] },
  {
    source: 'LikeFunctionITCase LIKE quick path',
    fields: [s('test'), s('"test'), s('te"st'), s('test"'), s('test\\')],
    exprs: [
      "f0 LIKE 'test\"quote'",
      "f2 LIKE 'te\"st'",
      "f0 LIKE '\"test'",
      "f1 LIKE '\"test'",
      "f0 LIKE 'test\"'",
      "f3 LIKE 'test\"'",
      "f0 LIKE 'start\"test%'",
      "f2 LIKE 'te\"s%'",
      "f0 LIKE '%test\"end'",
      "f2 LIKE '%te\"st'",
      "f0 LIKE '%mid\"dle%'",
      "f2 LIKE '%te\"st%'",
      "f0 LIKE 'test\\'",
      "f4 LIKE 'test\\'",
    ],
  },
];

// ---- CoalesceFunctionITCase, allTypesBasic: f0 NULL, f1 and f2 two values of the type.
const coalesceBasic = [
  ['BOOLEAN', 'TRUE', 'FALSE'],
  ['TINYINT', '5', '10'],
  ['SMALLINT', '100', '200'],
  ['INT', '1', '2'],
  ['BIGINT', '100', '200'],
  ['FLOAT', '1.5', '2.5'],
  ['DOUBLE', '1.5', '2.5'],
  ['DECIMAL(5, 2)', '123.45', '234.56'],
  ['CHAR(5)', "'hello'", "'world'"],
  ['VARCHAR(10)', "'hello'", "'world'"],
  ['STRING', "'hello'", "'world'"],
  ['BINARY(2)', "X'0001'", "X'0203'"],
  ['VARBINARY(5)', "X'000102'", "X'0304'"],
  ['BYTES', "X'000102'", "X'030405'"],
  ['DATE', "DATE '2026-01-01'", "DATE '2026-12-31'"],
  ['TIME', "TIME '12:34:56'", "TIME '23:59:59'"],
  ['TIMESTAMP', "TIMESTAMP '2026-01-01 12:00:00'", "TIMESTAMP '2026-12-31 23:59:59'"],
  ['TIMESTAMP_LTZ', "TO_TIMESTAMP_LTZ(1767268800000, 3)", "TO_TIMESTAMP_LTZ(1798761599000, 3)"],
  ['INTERVAL MONTH', "INTERVAL '18' MONTH", "INTERVAL '27' MONTH"],
  ['INTERVAL SECOND(3)', "INTERVAL '12.345' SECOND(3)", "INTERVAL '67.89' SECOND(3)"],
  ['ARRAY<INT>', 'ARRAY[1, 2, 3]', 'ARRAY[4, 5, 6]'],
  ['MAP<STRING, INT>', "MAP['a', 1, 'b', 2]", "MAP['c', 3, 'd', 4]"],
  ['ROW<a INT, b STRING>', "ROW(1, 'hello')", "ROW(2, 'world')"],
];
for (const [t, v1, v2] of coalesceBasic) {
  specs.push({ source: `CoalesceFunctionITCase ${t}`, fields: [n(t), c(v1, t), c(v2, t)], exprs: ['COALESCE(f0, f1)', 'COALESCE(f1, f2)', 'COALESCE(f0, f0, f2)'] });
}
specs.push(
  { source: 'CoalesceFunctionITCase INT and BIGINT', fields: [n('INT'), c('1', 'INT'), c('2', 'BIGINT')], exprs: ['COALESCE(f0, f1, f2)'] },
  { source: 'CoalesceFunctionITCase TINYINT and INT', fields: [n('TINYINT'), c('7', 'TINYINT'), c('42', 'INT')], exprs: ['COALESCE(f0, f1, f2)'] },
  { source: 'CoalesceFunctionITCase TIMESTAMP(0) and TIMESTAMP(3)', fields: [n('TIMESTAMP(0)'), c("TIMESTAMP '2026-01-01 00:00:00'", 'TIMESTAMP(0)'), c("TIMESTAMP '2026-01-01 00:00:00.123'", 'TIMESTAMP(3)')], exprs: ['COALESCE(f0, f1, f2)'] },
  { source: 'CoalesceFunctionITCase DECIMAL(5,2) and DECIMAL(10,2)', fields: [n('DECIMAL(5, 2)'), c('1.23', 'DECIMAL(5, 2)'), c('9876543.21', 'DECIMAL(10, 2)')], exprs: ['COALESCE(f0, f1, f2)'] },
  { source: 'CoalesceFunctionITCase DECIMAL(5,2) and DECIMAL(10,4)', fields: [n('DECIMAL(5, 2)'), c('1.23', 'DECIMAL(5, 2)'), c('4.5678', 'DECIMAL(10, 4)')], exprs: ['COALESCE(f0, f1, f2)'] },
  { source: 'CoalesceFunctionITCase INTERVAL MONTH precision', fields: [n('INTERVAL MONTH'), c("INTERVAL '2' MONTH", 'INTERVAL MONTH'), c("INTERVAL '5' MONTH", 'INTERVAL MONTH')], exprs: ['COALESCE(f0, f1, f2)'] },
  { source: 'CoalesceFunctionITCase INTERVAL SECOND same precision', fields: [n('INTERVAL SECOND(3)'), c("INTERVAL '10' SECOND(3)", 'INTERVAL SECOND(3)'), c("INTERVAL '15' SECOND(3)", 'INTERVAL SECOND(3)')], exprs: ['COALESCE(f0, f1, f2)'] },
);

// ---- TimeFunctionsITCase (TIMESTAMP() is TIMESTAMP(6); TIMESTAMP_LTZ(3) of epoch millisecond 100000012)
{
  const ts6 = (v) => c(`TIMESTAMP '${v}'`, 'TIMESTAMP(6)');
  const fields = [ts6('2000-01-31 11:22:33.123456789'), ts6('2020-02-29 01:56:59.987654321'), n('TIMESTAMP(6)'), c("DATE '1990-10-14'", 'DATE'), 'TO_TIMESTAMP_LTZ(100000012, 3)', c('TRUE', 'BOOLEAN')];
  const exprs = [];
  for (const u of ['NANOSECOND', 'MICROSECOND', 'MILLISECOND', 'SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR', 'DECADE', 'CENTURY', 'MILLENNIUM']) {
    for (const f of ['f0', 'f1', 'f2']) exprs.push(`EXTRACT(${u} FROM ${f})`);
    if (u === 'NANOSECOND' || u === 'DAY') exprs.push('EXTRACT(' + u + ' FROM f3)');
    if (u === 'NANOSECOND' || u === 'MILLISECOND') exprs.push('EXTRACT(' + u + ' FROM f4)');
  }
  for (const u of ['DOW', 'ISODOW', 'DOY', 'ISOYEAR', 'EPOCH']) for (const f of ['f0', 'f1', 'f2']) exprs.push(`EXTRACT(${u} FROM ${f})`);
  specs.push({ source: 'TimeFunctionsITCase EXTRACT', fields, exprs });
}
specs.push(
  { source: 'TimeFunctionsITCase TEMPORAL_OVERLAPS TIME/HOUR', fields: [c("TIME '02:55:00'", 'TIME'), "INTERVAL '1' HOUR", c("TIME '03:30:00'", 'TIME'), "INTERVAL '2' HOUR"], exprs: ['(f0, f1) OVERLAPS (f2, f3)'] },
  {
    source: 'TimeFunctionsITCase TEMPORAL_OVERLAPS TIME',
    fields: ["TIME '09:00:00'", "TIME '09:30:00'", "TIME '09:29:00'", "TIME '09:31:00'", "TIME '10:00:00'", "TIME '10:15:00'", "INTERVAL '3' HOUR"].map((v) => (v.startsWith('TIME') ? c(v, 'TIME') : v)),
    exprs: ['(f0, f1) OVERLAPS (f2, f3)', '(f0, f4) OVERLAPS (f5, f6)'],
  },
  { source: 'TimeFunctionsITCase TEMPORAL_OVERLAPS DATE', fields: [c("DATE '2011-03-10'", 'DATE'), "INTERVAL '10' DAY", c("DATE '2011-03-19'", 'DATE'), "INTERVAL '10' DAY"], exprs: ['(f0, f1) OVERLAPS (f2, f3)'] },
  {
    source: 'TimeFunctionsITCase TEMPORAL_OVERLAPS TIMESTAMP',
    fields: [c("TIMESTAMP '2011-03-10 05:02:02'", 'TIMESTAMP(6)'), "INTERVAL '0' SECOND", c("TIMESTAMP '2011-03-10 05:02:02'", 'TIMESTAMP(6)'), c("TIMESTAMP '2011-03-10 05:02:01'", 'TIMESTAMP(6)'), c("TIMESTAMP '2011-03-10 05:02:02.001'", 'TIMESTAMP(6)'), c("TIMESTAMP '2011-03-10 05:02:02.002'", 'TIMESTAMP(6)')],
    exprs: ['(f0, f1) OVERLAPS (f2, f3)', '(f4, f1) OVERLAPS (f5, f5)'],
  },
);
for (const fn of ['CEIL', 'FLOOR']) {
  const exprs = [];
  for (const u of ['MILLISECOND', 'SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR', 'DECADE', 'CENTURY', 'MILLENNIUM']) {
    for (const f of ['f0', 'f1', 'f2']) if (f !== 'f0' || ['MILLISECOND', 'SECOND', 'MINUTE', 'HOUR'].includes(u)) exprs.push(`${fn}(${f} TO ${u})`);
  }
  specs.push({ source: `TimeFunctionsITCase ${fn}`, fields: [c("TIME '11:22:33'", 'TIME'), c("DATE '1990-10-14'", 'DATE'), c("TIMESTAMP '2020-02-29 01:56:59.987654321'", 'TIMESTAMP(6)')], exprs });
}
specs.push({
  source: 'TimeFunctionsITCase DATE_SUB',
  fields: [c("DATE '2019-01-01'", 'DATE'), c("DATE '2016-02-24'", 'DATE'), n('DATE')],
  exprs: ['DATE_SUB(f0, interval 1 day)', 'DATE_SUB(f1, interval 2 days)', 'DATE_SUB(f1, interval 3 month)', 'DATE_SUB(f1, interval 2 years)', 'DATE_SUB(f2, interval 1 day)', 'DATE_SUB(f0, cast(null as interval day))'],
});

// ---- GreatestLeastFunctionsITCase
specs.push(
  {
    source: 'GreatestLeastFunctionsITCase GREATEST',
    fields: [n('INT'), c('1', 'INT'), c('2', 'INT'), c('3.14', 'DECIMAL(3, 2)'), s('hello'), s('world'), c("TIMESTAMP '1970-01-01 00:00:03.001'", 'TIMESTAMP(3)'), c("TIMESTAMP '1970-01-01 00:00:02.001'", 'TIMESTAMP(3)')],
    exprs: ['GREATEST(f1, f4)', 'CAST(GREATEST(f1, f3, f2) AS DECIMAL(3, 2))', 'GREATEST(f0, f1, f2)', 'GREATEST(f4, f5)', 'GREATEST(f6, f7)', 'GREATEST(f5, f6)'],
  },
  {
    source: 'GreatestLeastFunctionsITCase LEAST',
    fields: [n('INT'), c('1', 'INT'), c('2', 'INT'), c('3.14', 'DECIMAL(3, 2)'), s('hello'), s('world')],
    exprs: ['LEAST(f1, f4)', 'CAST(LEAST(f1, f3, f2) AS DECIMAL(3, 2))', 'LEAST(f0, f1)', 'LEAST(f4, f5)'],
  },
);

// ---- CaseFunctionsITCase: a CASE of 250 WHENs (deeply nested generated code in Flink)
{
  const longCase = `case ${Array.from({ length: 250 }, (_, i) => `when f0 = ${i} then ${i}`).join(' ')}else 9999 end`;
  specs.push({ source: 'CaseFunctionsITCase CASE WHEN', fields: [c('110', 'INT')], exprs: [longCase] }, { source: 'CaseFunctionsITCase CASE WHEN ELSE', fields: [c('450', 'INT')], exprs: [longCase] });
}

// ---- JsonFunctionsITCase. The resource documents (src/test/resources/json/*.json) are inlined without their
// whitespace, so that each statement stays on one line.
const jsonExists = '{"type":"post","author":{"name":"Jon Doe","address":{"country":"Germany","city":"Munich"}},"metadata":{"tags":["flink","streaming","json"],"references":[{"name":"GitHub","url":"https://www.github.com/apache/flink"}]}}';
const jsonValue = '{"type":"account","age":42,"activated":true,"address":{"city":"Munich"},"roles":["user","viewer"],"balance":13.37,"longBalance":123456789.987654321,"bigCount":9999999999,"nullField":null,"contains blank":"right"}';
specs.push(
  {
    source: 'JsonFunctionsITCase JSON_EXISTS',
    fields: [s(jsonExists)],
    exprs: [
      "JSON_EXISTS(CAST(NULL AS STRING), 'lax $')",
      "JSON_EXISTS(f0, 'lax $')",
      "JSON_EXISTS(f0, 'lax $.type')",
      "JSON_EXISTS(f0, 'lax $.author.address.city')",
      "JSON_EXISTS(f0, 'lax $.metadata.tags[0]')",
      "JSON_EXISTS(f0, 'lax $.metadata.tags[3]')",
      "JSON_EXISTS(f0, 'lax $.metadata.references[0].url')",
      "JSON_EXISTS(f0, 'lax $.metadata.references[0].invalid')",
      "JSON_EXISTS(f0, 'strict $.invalid' TRUE ON ERROR)",
      "JSON_EXISTS(f0, 'strict $.invalid' FALSE ON ERROR)",
      "JSON_EXISTS(f0, 'strict $.invalid' UNKNOWN ON ERROR)",
      "JSON_EXISTS(f0, 'strict $.invalid' ERROR ON ERROR)",
      "JSON_EXISTS(f0, '$.items[*]')",
      "JSON_EXISTS(f0, '$.metadata.tags[*]')",
    ],
  },
  {
    source: 'JsonFunctionsITCase JSON_VALUE',
    fields: [s(jsonValue), c(`X'${Buffer.from(jsonValue, 'utf8').toString('hex')}'`, 'BYTES'), `ROW(${s(jsonValue)})`],
    exprs: [
      "JSON_VALUE(CAST(NULL AS STRING), 'lax $')",
      "JSON_VALUE(f0, '$.longBalance')",
      "JSON_VALUE(f0, '$.balance')",
      "JSON_VALUE(f0, '$.type')",
      "JSON_VALUE(f0, '$.activated' RETURNING BOOLEAN)",
      "JSON_VALUE(f0, '$.age' RETURNING INT)",
      "JSON_VALUE(f0, '$.balance' RETURNING DOUBLE)",
      "JSON_VALUE(f0, '$.longBalance' RETURNING DOUBLE)",
      "JSON_VALUE(f0, '$.age' RETURNING TINYINT)",
      "JSON_VALUE(f0, '$.age' RETURNING SMALLINT)",
      "JSON_VALUE(f0, '$.age' RETURNING BIGINT)",
      "JSON_VALUE(f0, '$.bigCount' RETURNING BIGINT)",
      "JSON_VALUE(f0, '$.balance' RETURNING FLOAT)",
      "JSON_VALUE(f0, '$.balance' RETURNING DECIMAL(10, 2))",
      "JSON_VALUE(f0, 'lax $.invalid' NULL ON EMPTY ERROR ON ERROR)",
      "JSON_VALUE(f0, 'lax $.invalid' RETURNING INTEGER DEFAULT 42 ON EMPTY ERROR ON ERROR)",
      "JSON_VALUE(f0, 'strict $.invalid' ERROR ON EMPTY NULL ON ERROR)",
      "JSON_VALUE(f0, 'strict $.invalid' RETURNING INTEGER NULL ON EMPTY DEFAULT 42 ON ERROR)",
      "JSON_VALUE(f0, '$.nullField' RETURNING INTEGER)",
      "JSON_VALUE(f0, '$.type' RETURNING INTEGER DEFAULT 42 ON ERROR)",
      "JSON_VALUE(f0, '$.type' RETURNING INTEGER ERROR ON ERROR)",
      "JSON_VALUE(f0, '$.bigCount' RETURNING INTEGER)",
      "JSON_VALUE(f0, '$.balance' RETURNING INTEGER)",
      "JSON_VALUE(f0, '$.longBalance' RETURNING DECIMAL(5, 2))",
      "JSON_VALUE(f0, '$.longBalance' RETURNING DECIMAL(5, 2) DEFAULT '0.00' ON ERROR)",
      "CAST(JSON_VALUE(f0, '$.balance' RETURNING DOUBLE) AS BIGINT)",
      "CAST(JSON_VALUE(f0, '$.age' RETURNING INTEGER) AS DOUBLE)",
      "CAST(JSON_VALUE(f0, '$.age' RETURNING INTEGER) AS BIGINT)",
      "CAST(JSON_VALUE(f0, '$.balance' RETURNING DOUBLE) AS INTEGER)",
      "CAST(JSON_VALUE(f0, '$.longBalance' RETURNING DOUBLE) AS BIGINT)",
      "JSON_VALUE('{\"a\": 99999, \"b\": 99999}', '$.a' RETURNING INT) = JSON_VALUE('{\"a\": 99999, \"b\": 99999}', '$.b' RETURNING INT)",
      "JSON_VALUE('{\"a\": 13.37, \"b\": 13.37}', '$.a' RETURNING DOUBLE) = JSON_VALUE('{\"a\": 13.37, \"b\": 13.37}', '$.b' RETURNING DOUBLE)",
      "JSON_VALUE('{\"a\": 200, \"b\": 200}', '$.a' RETURNING SMALLINT) = JSON_VALUE('{\"a\": 200, \"b\": 200}', '$.b' RETURNING SMALLINT)",
      "JSON_VALUE('{\"a\": 9999999999, \"b\": 9999999999}', '$.a' RETURNING BIGINT) = JSON_VALUE('{\"a\": 9999999999, \"b\": 9999999999}', '$.b' RETURNING BIGINT)",
      "JSON_VALUE('{\"a\": 13.37, \"b\": 13.37}', '$.a' RETURNING FLOAT) = JSON_VALUE('{\"a\": 13.37, \"b\": 13.37}', '$.b' RETURNING FLOAT)",
      "JSON_VALUE(f0, 'strict $.[''contains blank'']' NULL ON EMPTY DEFAULT 'wrong' ON ERROR)",
      "JSON_VALUE(f0, '$.type'), JSON_VALUE(f0, '$.age')",
      "JSON_VALUE(f1, '$.type'), JSON_VALUE(f2, '$.type'), JSON_VALUE(CAST(NULL AS INT), '$.type'), JSON_VALUE(CAST(NULL AS DATE), '$.type')",
    ],
  },
  { source: 'JsonFunctionsITCase IS_JSON INT', fields: [c('1', 'INT')], exprs: ['f0 IS JSON'] },
  {
    source: 'JsonFunctionsITCase IS_JSON NULL',
    fields: [n('STRING')],
    exprs: ['f0 IS JSON', 'f0 IS NOT JSON', 'f0 IS JSON VALUE', 'f0 IS NOT JSON VALUE', 'f0 IS JSON SCALAR', 'f0 IS NOT JSON SCALAR', 'f0 IS JSON ARRAY', 'f0 IS NOT JSON ARRAY', 'f0 IS JSON OBJECT', 'f0 IS NOT JSON OBJECT'],
  },
  { source: 'JsonFunctionsITCase IS_JSON a', fields: [s('a')], exprs: ['f0 IS JSON', 'f0 IS NOT JSON'] },
  { source: 'JsonFunctionsITCase IS_JSON "a"', fields: [s('"a"')], exprs: ['f0 IS JSON', 'f0 IS JSON VALUE', 'f0 IS JSON SCALAR', 'f0 IS JSON ARRAY', 'f0 IS JSON OBJECT'] },
  { source: 'JsonFunctionsITCase IS_JSON {}', fields: [s('{}')], exprs: ['f0 IS JSON', 'f0 IS JSON VALUE', 'f0 IS JSON SCALAR', 'f0 IS JSON ARRAY', 'f0 IS JSON OBJECT'] },
  { source: 'JsonFunctionsITCase JSON_QUERY NULL', fields: [n('STRING')], exprs: ["JSON_QUERY(f0, '$')"] },
  {
    source: 'JsonFunctionsITCase JSON_QUERY RETURNING',
    fields: [s('{ "a": "[1,2]", "b": [1,2]}'), s('{"a":[{"c":null},{"c":"c2"}]}')],
    exprs: [
      "JSON_QUERY(f0, '$.b')",
      "JSON_QUERY(f0, '$.b' RETURNING ARRAY<STRING>)",
      "JSON_QUERY(f0, '$.b' WITH CONDITIONAL WRAPPER)",
      "JSON_QUERY(f1, 'lax $.a[*].c' RETURNING ARRAY<STRING> ERROR ON ERROR ERROR ON EMPTY)",
      "JSON_QUERY(f0, '$.b' RETURNING ARRAY<STRING> WITH CONDITIONAL WRAPPER)",
      "JSON_QUERY(f0, '$.b' RETURNING ARRAY<INTEGER> WITH CONDITIONAL WRAPPER)",
      "JSON_QUERY(f0, '$.n1' RETURNING INTEGER)",
      "JSON_QUERY(f0, '$.a')",
      "JSON_QUERY(f0, '$.a' RETURNING ARRAY<STRING>)",
      "JSON_QUERY(f0, '$.a' WITH CONDITIONAL WRAPPER)",
      "JSON_QUERY(f0, '$.a' RETURNING ARRAY<STRING> WITH CONDITIONAL WRAPPER)",
      "JSON_QUERY(f0, '$.a' RETURNING ARRAY<STRING> WITHOUT WRAPPER ERROR ON ERROR)",
      "JSON_QUERY(f0, '$.a' RETURNING ARRAY<STRING> WITHOUT WRAPPER EMPTY OBJECT ON ERROR)",
      "JSON_QUERY(f0, '$.a' RETURNING ARRAY<STRING> WITHOUT WRAPPER EMPTY OBJECT ON EMPTY)",
      "JSON_QUERY(f0, '$.a' RETURNING ARRAY<STRING> WITHOUT WRAPPER EMPTY ARRAY ON ERROR)",
    ],
  },
);

specs.push(
  {
    source: 'JsonFunctionsITCase JSON_QUERY RETURNING ARRAY<STRING> stringifies',
    fields: [s('{"items": [{"itemId":1234, "count":10}, null, {"itemId":4567, "count":11}]}'), s('{"items": [[1234, 2345], null, ["itemId", "count"]]}'), s('{"arr": ["abc", null, "def"]}')],
    exprs: ["JSON_QUERY(f0, '$.items' RETURNING ARRAY<STRING>)", "JSON_QUERY(f1, '$.items' RETURNING ARRAY<STRING>)", "JSON_QUERY(f2, '$.arr' RETURNING ARRAY<STRING>)"],
  },
  {
    source: 'JsonFunctionsITCase JSON_QUERY wrapping, empty and error behaviour',
    fields: [s('{"n1":1,"s1":"Test","o1":{},"a1":[]}')],
    exprs: [
      "JSON_QUERY(f0, '$.a1' WITHOUT WRAPPER)",
      "JSON_QUERY(f0, '$.a1' WITH CONDITIONAL WRAPPER)",
      "JSON_QUERY(f0, '$.o1' WITH CONDITIONAL WRAPPER)",
      "JSON_QUERY(f0, '$.a1' WITH UNCONDITIONAL WRAPPER)",
      "JSON_QUERY(f0, '$.n1' WITH CONDITIONAL WRAPPER)",
      "JSON_QUERY(f0, '$.s1' WITH CONDITIONAL WRAPPER)",
      "JSON_QUERY(f0, 'lax $.err1' NULL ON EMPTY)",
      "JSON_QUERY(f0, 'lax $.err2' EMPTY ARRAY ON EMPTY)",
      "JSON_QUERY(f0, 'lax $.err3' EMPTY OBJECT ON EMPTY)",
      "JSON_QUERY(f0, 'lax $.err4' ERROR ON EMPTY)",
      "JSON_QUERY(f0, 'strict $.err6' NULL ON ERROR)",
      "JSON_QUERY(f0, 'strict $.err7' EMPTY ARRAY ON ERROR)",
      "JSON_QUERY(f0, 'strict $.err8' EMPTY OBJECT ON ERROR)",
      "JSON_QUERY(f0, 'strict $.err9' ERROR ON ERROR)",
    ],
  },
  {
    source: 'JsonFunctionsITCase JSON_QUERY typed RETURNING ARRAY<T>',
    fields: [s('{"ints": [1, 2, 3], "doubles": [1.5, 2.5], "bools": [true, false], "withNull": [1, null, 3], "bigints": [1, 9999999999]}')],
    exprs: [
      "JSON_QUERY(f0, '$.ints' RETURNING ARRAY<INT>)",
      "JSON_QUERY(f0, '$.bigints' RETURNING ARRAY<BIGINT>)",
      "JSON_QUERY(f0, '$.doubles' RETURNING ARRAY<DOUBLE>)",
      "JSON_QUERY(f0, '$.bools' RETURNING ARRAY<BOOLEAN>)",
      "JSON_QUERY(f0, '$.ints' RETURNING ARRAY<INT NOT NULL>)",
      "JSON_QUERY(f0, '$.ints' RETURNING ARRAY<TIMESTAMP>)",
    ],
  },
  {
    source: 'JsonFunctionsITCase JSON_QUERY type mismatch with ON ERROR',
    fields: [s('{"strings": ["a", "b"]}'), s('{"empty": []}')],
    exprs: [
      "JSON_QUERY(f0, '$.strings' RETURNING ARRAY<INT> NULL ON ERROR)",
      "JSON_QUERY(f0, '$.strings' RETURNING ARRAY<INT> EMPTY ARRAY ON ERROR)",
      "JSON_QUERY(f0, '$.strings' RETURNING ARRAY<INT> ERROR ON ERROR)",
      "JSON_QUERY(f1, '$.empty' RETURNING ARRAY<INT>)",
      "JSON_QUERY(f0, 'lax $.missing' RETURNING ARRAY<INT> NULL ON EMPTY)",
      "JSON_QUERY(f0, 'lax $.missing' RETURNING ARRAY<INT> EMPTY ARRAY ON EMPTY)",
    ],
  },
  { source: 'JsonFunctionsITCase JSON_QUERY ARRAY<BIGINT> bounds', fields: [s('{"big": [9223372036854775807, -9223372036854775808]}')], exprs: ["JSON_QUERY(f0, '$.big' RETURNING ARRAY<BIGINT>)"] },
  { source: 'JsonFunctionsITCase JSON_VALUE quoted numbers', fields: [s('{"v":"42"}'), s('{"neg":-100}')], exprs: ["JSON_VALUE(f0, '$.v' RETURNING INTEGER NULL ON ERROR)", "JSON_VALUE(f1, '$.neg' RETURNING TINYINT)"] },
  { source: 'JsonFunctionsITCase JSON_QUERY nested arrays', fields: [s('{"a":[[1,2],[3,4]]}')], exprs: ["JSON_QUERY(f0, '$.a' RETURNING ARRAY<INT> NULL ON ERROR)"] },
);

specs.push(
  { source: 'JsonFunctionsITCase JSON_STRING NULL', fields: [c('0', 'INT')], exprs: ['JSON_STRING(CAST(NULL AS STRING))'] },
  {
    // f10 (a MULTISET<STRING>) has no SQL literal and is left out; the other fields keep their numbers.
    source: 'JsonFunctionsITCase JSON_STRING types',
    fields: [
      s('V'),
      'TRUE',
      c('1', 'INT'),
      c('1.23', 'DOUBLE'),
      c('1.23', 'DECIMAL(3, 2)'),
      c("TIMESTAMP '1990-06-02 13:37:42.001'", 'TIMESTAMP(3)'),
      'TO_TIMESTAMP_LTZ(644333862001, 3)',
      c("ARRAY['A1', 'A2', 'A3']", 'ARRAY<STRING>'),
      c("ROW('R1', TO_TIMESTAMP_LTZ(644333862001, 3))", 'ROW<f0 STRING, f1 TIMESTAMP_LTZ(3)>'),
      c("MAP['M1', 'V1', 'M2', 'V2']", 'MAP<STRING, STRING>'),
      c('NULL', 'INT'),
      c("X'54657374'", 'BINARY(4)'),
      c("X'54657374'", 'VARBINARY(4)'),
      c('ROW(ARRAY[ROW(1, 2)])', 'ROW<f0 ARRAY<ROW<f0 INT, f1 INT>>>'),
      s('{"key":"value"}'),
    ],
    exprs: ['JSON_STRING(f0)', 'JSON_STRING(f1)', 'JSON_STRING(f2)', 'JSON_STRING(f3)', 'JSON_STRING(f4)', 'JSON_STRING(f5)', 'JSON_STRING(f6)', 'JSON_STRING(f7)', 'JSON_STRING(f8)', 'JSON_STRING(f9)', 'JSON_STRING(f11)', 'JSON_STRING(f12)', 'JSON_STRING(f13)', "JSON_STRING(PARSE_JSON('{\"key\":\"value\"}'))"],
  },
  {
    source: 'JsonFunctionsITCase PARSE_JSON',
    fields: [s('{"a":1,"b":[2,3]}'), s('1e400')],
    exprs: ['JSON_STRING(PARSE_JSON(f0))', 'JSON_STRING(PARSE_JSON(CAST(NULL AS STRING)))', 'PARSE_JSON(f1)'],
  },
  { source: 'JsonFunctionsITCase TRY_PARSE_JSON', fields: [s('{"a":1}'), s('1e400')], exprs: ['JSON_STRING(TRY_PARSE_JSON(f0))', 'JSON_STRING(TRY_PARSE_JSON(f1))'] },
  { source: 'JsonFunctionsITCase PARSE_JSON constant folding', fields: [s('{"a": 1}')], exprs: ['PARSE_JSON(f0)', 'JSON_STRING(PARSE_JSON(f0))', 'PARSE_JSON(f0), JSON_STRING(PARSE_JSON(f0))'] },
  {
    source: 'JsonFunctionsITCase JSON_OBJECT with JSON()',
    fields: [s('{"key":"value"}'), s('{"key": {"value": 42}}')],
    exprs: [
      "JSON_OBJECT(KEY 'K' VALUE JSON('{}'))",
      "JSON_OBJECT(KEY 'K' VALUE JSON(f0))",
      "JSON_OBJECT(KEY 'K' VALUE JSON(f1))",
      "JSON_OBJECT(KEY 'K' VALUE JSON('[1,2,3]'))",
      "JSON_OBJECT(KEY 'K' VALUE JSON(''))",
      "JSON_OBJECT(KEY 'K' VALUE JSON('    '))",
      "JSON_OBJECT(KEY 'K' VALUE JSON(CAST(NULL AS STRING)) NULL ON NULL)",
      "JSON_OBJECT(KEY 'K' VALUE JSON(CAST(NULL AS STRING)) ABSENT ON NULL)",
      "JSON_OBJECT(     KEY 'key'     VALUE JSON_OBJECT(         KEY 'nested_key'         VALUE JSON(f1)) NULL ON NULL)",
      "JSON_OBJECT(     KEY 'key'     VALUE JSON_OBJECT(         KEY 'nested_key'         VALUE JSON(CAST(NULL AS STRING))) NULL ON NULL)",
      'JSON()',
      "JSON_OBJECT(KEY 'K' VALUE JSON('{'))",
      "JSON_OBJECT(KEY 'key1' VALUE 'val', KEY 'key2' VALUE JSON(f1))",
      "JSON_OBJECT(KEY 'key1' VALUE JSON(f0), KEY 'key2' VALUE JSON(f1))",
      "JSON_OBJECT(KEY 'outerKey' VALUE 'outerValue', KEY 'nestedObject' VALUE JSON_OBJECT(KEY 'innerKey' VALUE JSON(f0)))",
    ],
  },
);

specs.push(
  {
    source: 'JsonFunctionsITCase JSON_OBJECT / JSON_ARRAY with JSON()',
    fields: [s('{"key":"value"}'), s('{"key": {"value": 42}}')],
    exprs: [
      "JSON_OBJECT(KEY 'p1' VALUE JSON(f0), KEY 'p2' VALUE JSON(f1), KEY 'p3' VALUE JSON('[1, 2, 3]'))",
      "JSON_OBJECT(KEY JSON('{}') VALUE 'value' ABSENT ON NULL)",
      "JSON_ARRAY(JSON('{}'))",
      'JSON_ARRAY(JSON(f0))',
      'JSON_ARRAY(JSON(f1))',
      "JSON_ARRAY(JSON('[1,2,3]'))",
      "JSON_ARRAY(JSON(f0), JSON('[1,2,3]'))",
      "JSON_ARRAY(JSON(''))",
      "JSON_ARRAY(JSON('') NULL ON NULL)",
      "JSON_ARRAY(JSON(''), JSON(f0) NULL ON NULL)",
      "JSON_ARRAY(JSON('    ') NULL ON NULL)",
      'JSON_ARRAY(JSON(CAST(NULL AS STRING)) NULL ON NULL)',
      'JSON_ARRAY(JSON(CAST(NULL AS STRING)) ABSENT ON NULL)',
      'JSON_ARRAY(JSON_ARRAY(JSON(f1)))',
      'JSON_ARRAY(JSON_ARRAY(JSON(CAST(NULL AS STRING)) NULL ON NULL) NULL ON NULL)',
      "JSON_ARRAY(JSON('{'))",
      'JSON(f0)',
    ],
  },
  {
    source: 'JsonFunctionsITCase JSON_OBJECT basic',
    fields: [c('0', 'INT')],
    exprs: ['JSON_OBJECT()', "JSON_OBJECT(KEY 'K' VALUE CAST(NULL AS STRING) NULL ON NULL)", "JSON_OBJECT(KEY 'K' VALUE CAST(NULL AS STRING) ABSENT ON NULL)"],
  },
);

// ---- CastFunctionITCase, allTypesBasic (its first targets): each fromCase(TYPE, value, ...) and failValidation /
// failRuntime(TYPE, value) is CAST(f0 AS target) over f0 = the value as TYPE. Flink's test runs in Asia/Shanghai;
// these statements run in UTC like every golden, so TIMESTAMP_LTZ texts are UTC ones (Flink's answer decides).
// Its constants: DEFAULT_BINARY {0,1}, DEFAULT_VARBINARY {0,1,2}, DEFAULT_BYTES {0..4}, DEFAULT_TIMESTAMP
// 2021-09-24T12:34:56.1234567, DEFAULT_TIMESTAMP_LTZ 2021-09-24T22:34:56.1234567 in Asia/Shanghai (14:34:56 UTC).
{
  const D = {
    BIN: "X'0001'",
    VARBIN: "X'000102'",
    BYTES: "X'0001020304'",
    DATE: "DATE '2021-09-24'",
    TIME: "TIME '12:34:56.123'",
    TS: "TIMESTAMP '2021-09-24 12:34:56.1234567'",
    LTZ: "TIMESTAMP '2021-09-24 14:34:56.1234567'",
    IYEAR: "INTERVAL '10-4' YEAR TO MONTH",
    IDAY: "INTERVAL '12' HOUR",
    ARRAY: 'ARRAY[0, 1, 2]',
  };
  const q = (v) => `'${v}'`;
  const numbers = [
    ['TINYINT', '5'], ['TINYINT', '-5'], ['SMALLINT', '12345'], ['SMALLINT', '-12345'], ['INT', '1234567'], ['INT', '-1234567'],
    ['BIGINT', '12345678901'], ['BIGINT', '-12345678901'], ['FLOAT', '123.456'], ['FLOAT', '-123.456'], ['DOUBLE', '123.456789'], ['DOUBLE', '-123.456789'],
  ];
  const notCastable = [['DECIMAL(5, 3)', '12.345'], ['TINYINT', '-5'], ['SMALLINT', '12345'], ['INT', '1234567'], ['BIGINT', '12345678901'], ['FLOAT', '123.456'], ['DOUBLE', '123.456789'], ['DATE', D.DATE], ['TIME', D.TIME], ['TIMESTAMP', D.TS], ['TIMESTAMP_LTZ', D.LTZ], ['INTERVAL YEAR TO MONTH', D.IYEAR], ['INTERVAL DAY TO SECOND', D.IDAY], ['ARRAY<INT>', D.ARRAY]];
  const casts = {
    'CHAR(3)': [['CHAR(5)', 'NULL'], ['CHAR(3)', q('foo')], ['VARCHAR(3)', q('foo')], ['VARCHAR(5)', q('foo')], ['STRING', q('abcdef')], ['DATE', D.DATE]],
    'CHAR(5)': [['CHAR(5)', 'NULL'], ['CHAR(3)', q('foo')]],
    'VARCHAR(3)': [['VARCHAR(5)', 'NULL'], ['CHAR(3)', q('foo')], ['CHAR(4)', q('foo')], ['VARCHAR(3)', q('foo')], ['VARCHAR(5)', q('foo')], ['STRING', q('abcdef')]],
    STRING: [
      ['STRING', 'NULL'], ['CHAR(3)', q('foo')], ['CHAR(5)', q('foo')], ['VARCHAR(5)', q('Flink')], ['VARCHAR(10)', q('Flink')], ['STRING', q('Apache Flink')],
      ['BOOLEAN', 'TRUE'], ['BINARY(2)', D.BIN], ['BINARY(3)', D.BIN], ['VARBINARY(3)', D.VARBIN], ['VARBINARY(5)', D.VARBIN], ['BYTES', D.BYTES],
      ['DECIMAL(4, 3)', '9.87'], ['DECIMAL(10, 5)', '1'], ...numbers, ['DATE', D.DATE], ['TIME(5)', D.TIME], ['TIMESTAMP', D.TS], ['TIMESTAMP(9)', D.TS], ['TIMESTAMP(4)', D.TS],
      ['TIMESTAMP(3)', "TIMESTAMP '2021-09-24 12:34:56.1'"], ['TIMESTAMP(4)', 'NULL'], ['TIMESTAMP_LTZ(5)', D.LTZ], ['TIMESTAMP_LTZ(9)', D.LTZ], ['TIMESTAMP_LTZ(3)', "TIMESTAMP '2021-09-24 14:34:56.1'"],
      ['INTERVAL YEAR', "INTERVAL '7' YEAR"], ['INTERVAL MONTH', "INTERVAL '5' MONTH"], ['INTERVAL MONTH', "INTERVAL '10-3' YEAR TO MONTH"], ['INTERVAL MONTH', "INTERVAL '1027-10' YEAR(4) TO MONTH"],
      ['INTERVAL DAY', "INTERVAL '0.010' SECOND(3)"], ['INTERVAL DAY', "INTERVAL '1 10:17:36.789' DAY TO SECOND(3)"], ['INTERVAL DAY', "INTERVAL '36' HOUR"], ['ARRAY<INT>', D.ARRAY],
    ],
    BOOLEAN: [
      ['BOOLEAN', 'NULL'], ['CHAR(3)', q('foo')], ['CHAR(4)', q('true')], ['VARCHAR(5)', q('FalsE')], ['STRING', q('Apache Flink')], ['STRING', q('TRUE')], ['STRING', q('')],
      ['BOOLEAN', 'TRUE'], ['BOOLEAN', 'FALSE'], ['BINARY(2)', D.BIN], ['VARBINARY(5)', D.VARBIN], ['BYTES', D.BYTES],
      ['TINYINT', '5'], ['TINYINT', '-5'], ['TINYINT', '0'], ['SMALLINT', '12345'], ['SMALLINT', '-12345'], ['SMALLINT', '0'], ['INT', '1234567'], ['INT', '-1234567'], ['INT', '0'],
      ['BIGINT', '12345678901'], ['BIGINT', '-12345678901'], ['BIGINT', '0'],
      ['DATE', D.DATE], ['TIME', D.TIME], ['TIMESTAMP', D.TS], ['TIMESTAMP_LTZ', D.LTZ], ['INTERVAL YEAR TO MONTH', D.IYEAR], ['INTERVAL DAY TO SECOND', D.IDAY], ['ARRAY<INT>', D.ARRAY],
    ],
    'BINARY(2)': [
      ['BINARY(5)', 'NULL'], ['CHAR(4)', q('666F')], ['VARCHAR(8)', q('666f')], ['STRING', q('AAbbcCdD')], ['VARCHAR(4)', q('FC')], ['STRING', q('df')], ['BOOLEAN', 'TRUE'],
      ['BINARY(2)', D.BIN], ['VARBINARY(3)', D.VARBIN], ['BYTES', D.BYTES], ['BINARY(1)', "X'6F'"], ['VARBINARY(1)', "X'6F'"], ['BYTES', "X'0B'"], ...notCastable,
    ],
    'VARBINARY(4)': [
      ['VARBINARY(5)', 'NULL'], ['CHAR(4)', q('666F')], ['VARCHAR(8)', q('666f')], ['STRING', q('AAbbCcDdEe')], ['BOOLEAN', 'TRUE'],
      ['BINARY(2)', D.BIN], ['VARBINARY(3)', D.VARBIN], ['VARBINARY(10)', D.VARBIN], ['BYTES', D.BYTES], ...notCastable,
    ],
    BYTES: [['BYTES', 'NULL'], ['CHAR(4)', q('666f')], ['VARCHAR(8)', q('666F')], ['STRING', q('aaBBCcDdEe')], ['BOOLEAN', 'TRUE'], ['BINARY(2)', D.BIN], ['VARBINARY(3)', D.VARBIN], ['BYTES', D.BYTES], ...notCastable],
  };
  for (const [target, cases] of Object.entries(casts)) {
    for (const [from, v] of cases) specs.push({ source: `CastFunctionITCase allTypesBasic CAST(${from} AS ${target})`, fields: [c(v, from)], exprs: [`CAST(f0 AS ${target})`] });
  }
}

// ---- IfThenElseFunctionITCase
specs.push({
  source: 'IfThenElseFunctionITCase IF',
  fields: [c('2', 'INT')],
  exprs: ["CASE WHEN f0 > 0 THEN 'GREATER' ELSE 'SMALLER' END", "CASE WHEN f0 > 0 THEN 'GREATER' ELSE CASE WHEN f0 = 0 THEN 'EQUAL' ELSE 'SMALLER' END END"],
});

// ---- CastFunctionITCase, allTypesBasic, the numeric targets
{
  const q = (v) => `'${v}'`;
  const notCastable = [
    ['BINARY(2)', "X'0001'"], ['VARBINARY(5)', "X'000102'"], ['BYTES', "X'0001020304'"], ['DATE', "DATE '2021-09-24'"], ['TIME', "TIME '12:34:56.123'"],
    ['TIMESTAMP', "TIMESTAMP '2021-09-24 12:34:56.1234567'"], ['TIMESTAMP_LTZ', "TIMESTAMP '2021-09-24 14:34:56.1234567'"], ['INTERVAL YEAR TO MONTH', "INTERVAL '10-4' YEAR TO MONTH"],
    ['INTERVAL DAY TO SECOND', "INTERVAL '12' HOUR"], ['ARRAY<INT>', 'ARRAY[0, 1, 2]'],
  ];
  const strings = (...vs) => [['CHAR(3)', q('foo')], ['VARCHAR(5)', q('Flink')], ['STRING', q('Apache')], ...vs.map((v) => ['STRING', q(v)]), ['BOOLEAN', 'TRUE'], ['BOOLEAN', 'FALSE']];
  const casts = {
    'DECIMAL(5, 3)': [['DECIMAL(10, 2)', 'NULL'], ...strings('1.234', '1.2'), ['DECIMAL(4, 3)', '9.87'], ['TINYINT', '-1'], ['SMALLINT', '3'], ['INT', '42'], ['BIGINT', '8'], ['FLOAT', '-12.345'], ['DOUBLE', '12.678'], ...notCastable],
    TINYINT: [
      ['TINYINT', 'NULL'], ...strings('1.234', '123', '-130'), ['DECIMAL(4, 3)', '9.87'], ['DECIMAL(10, 3)', '9123.87'], ['TINYINT', '5'], ['TINYINT', '-5'], ['SMALLINT', '32'], ['SMALLINT', '12345'], ['SMALLINT', '-12345'],
      ['INT', '-12'], ['INT', '1234567'], ['INT', '-1234567'], ['BIGINT', '12345678901'], ['BIGINT', '-12345678901'], ['FLOAT', '123.456'], ['FLOAT', '-123.456'], ['DOUBLE', '123.456789'], ['DOUBLE', '-123.456789'], ...notCastable,
    ],
    SMALLINT: [
      ['SMALLINT', 'NULL'], ...strings('1.234', '123', '-32769'), ['DECIMAL(4, 3)', '9.87'], ['DECIMAL(10, 3)', '91235.87'], ['TINYINT', '5'], ['TINYINT', '-5'], ['SMALLINT', '12345'], ['SMALLINT', '-12345'], ['SMALLINT', '32780'],
      ['INT', '1234567'], ['INT', '-1234567'], ['INT', '-12'], ['BIGINT', '123'], ['BIGINT', '12345678901'], ['BIGINT', '-12345678901'], ['FLOAT', '123.456'], ['FLOAT', '-123.456'], ['FLOAT', '123456.78'],
      ['DOUBLE', '123.456789'], ['DOUBLE', '-123.456789'], ['DOUBLE', '123456.7890'], ...notCastable,
    ],
    INT: [
      ['INT', 'NULL'], ...strings('1.234', '123', '-3276913443134'), ['DECIMAL(4, 3)', '9.87'], ['DECIMAL(20, 3)', '3276913443134.87'], ['TINYINT', '5'], ['TINYINT', '-5'], ['SMALLINT', '12345'], ['SMALLINT', '-12345'],
      ['INT', '1234567'], ['INT', '-1234567'], ['BIGINT', '123'], ['BIGINT', '12345678901'], ['BIGINT', '-12345678901'], ['FLOAT', '123.456'], ['FLOAT', '-123.456'], ['FLOAT', '9234567891.12'],
      ['DOUBLE', '123.456789'], ['DOUBLE', '-123.456789'], ['DOUBLE', '9234567891.12345'], ...notCastable,
    ],
  };
  for (const [target, cases] of Object.entries(casts)) {
    for (const [from, v] of cases) specs.push({ source: `CastFunctionITCase allTypesBasic CAST(${from} AS ${target})`, fields: [c(v, from)], exprs: [`CAST(f0 AS ${target})`] });
  }
}

// ---- CastFunctionITCase, allTypesBasic: BIGINT, FLOAT, DOUBLE, DATE and TIME targets
{
  const q = (v) => `'${v}'`;
  const bin = [['BINARY(2)', "X'0001'"], ['VARBINARY(5)', "X'000102'"], ['BYTES', "X'0001020304'"]];
  const tail = [['INTERVAL YEAR TO MONTH', "INTERVAL '10-4' YEAR TO MONTH"], ['INTERVAL DAY TO SECOND', "INTERVAL '12' HOUR"], ['ARRAY<INT>', 'ARRAY[0, 1, 2]']];
  const temporal = [['DATE', "DATE '2021-09-24'"], ['TIME', "TIME '12:34:56.123'"], ['TIMESTAMP', "TIMESTAMP '2021-09-24 12:34:56.1234567'"], ['TIMESTAMP_LTZ', "TIMESTAMP '2021-09-24 14:34:56.1234567'"]];
  const ints = [['TINYINT', '5'], ['TINYINT', '-5'], ['SMALLINT', '12345'], ['SMALLINT', '-12345'], ['INT', '1234567'], ['INT', '-1234567'], ['BIGINT', '12345678901'], ['BIGINT', '-12345678901']];
  const numStrings = [['CHAR(3)', q('foo')], ['VARCHAR(5)', q('Flink')], ['STRING', q('Apache')], ['STRING', q('1.234')], ['STRING', q('123')], ['STRING', q('-3276913443134')], ['BOOLEAN', 'TRUE'], ['BOOLEAN', 'FALSE']];
  const noNumbers = [['DECIMAL(5, 3)', '12.345'], ['TINYINT', '5'], ['SMALLINT', '12345'], ['INT', '1234567'], ['BIGINT', '12345678901'], ['FLOAT', '123.456'], ['DOUBLE', '123.456789']];
  const casts = {
    BIGINT: [['BIGINT', 'NULL'], ...numStrings, ...bin, ['DECIMAL(4, 3)', '9.87'], ['DECIMAL(20, 3)', '3276913443134.87'], ...ints, ['FLOAT', '123.456'], ['FLOAT', '-123.456'], ['FLOAT', '9234567891.12'], ['DOUBLE', '123.456789'], ['DOUBLE', '-123.456789'], ['DOUBLE', '9234567891.12345'], ...temporal, ...tail],
    FLOAT: [['FLOAT', 'NULL'], ...numStrings, ...bin, ['DECIMAL(4, 3)', '9.87'], ['DECIMAL(20, 3)', '3276913443134.87'], ...ints, ['FLOAT', '123.456'], ['FLOAT', '-123.456'], ['FLOAT', '9234567891.12'], ['DOUBLE', '123.456789'], ['DOUBLE', '-123.456789'], ['DOUBLE', '1239234567891.1234567891234'], ...temporal, ...tail],
    DOUBLE: [['DOUBLE', 'NULL'], ...numStrings, ...bin, ['DECIMAL(4, 3)', '9.87'], ['DECIMAL(20, 3)', '3276913443134.87'], ['DECIMAL(30, 20)', '123456789.123456789123456789'], ...ints, ['FLOAT', '123.456'], ['FLOAT', '-123.456'], ['FLOAT', '9234567891.12'], ['DOUBLE', '123.456789'], ['DOUBLE', '-123.456789'], ['DOUBLE', '1239234567891.1234567891234'], ...temporal, ...tail],
    DATE: [['DATE', 'NULL'], ['CHAR(3)', q('foo')], ['VARCHAR(5)', q('Flink')], ['STRING', q('123')], ['STRING', q('2021-09-27')], ['STRING', q('2021-09-27 12:34:56.123456789')], ['STRING', q('2021/09/27')], ['BOOLEAN', 'TRUE'], ...noNumbers, ['DATE', "DATE '2021-09-24'"], ['TIME', "TIME '12:34:56.123'"], ['TIMESTAMP', "TIMESTAMP '2021-09-24 12:34:56.1234567'"], ['TIMESTAMP(4)', "TIMESTAMP '2021-09-24 12:34:56.1234567'"], ['TIMESTAMP_LTZ', "TIMESTAMP '2021-09-24 12:34:56.1234567'"], ...tail],
    TIME: [['TIME', 'NULL'], ['CHAR(3)', q('foo')], ['VARCHAR(5)', q('Flink')], ['STRING', q('Flink')], ['STRING', q('123')], ['STRING', q('123:45')], ['STRING', q('2021-09-27')], ['STRING', q('2021-09-27 12:34:56')], ['STRING', q('12:34:56.123456789')], ['STRING', q('2021-09-27 12:34:56.123456789')], ['BOOLEAN', 'TRUE'], ...noNumbers, ['DATE', "DATE '2021-09-24'"], ['TIME(5)', "TIME '12:34:56.123'"], ['TIMESTAMP', "TIMESTAMP '2021-09-24 12:34:56.1234567'"], ['TIMESTAMP(4)', "TIMESTAMP '2021-09-24 12:34:56.1234567'"], ['TIMESTAMP_LTZ(4)', "TIMESTAMP '2021-09-24 12:34:56.1234567'"], ['TIMESTAMP_LTZ(4)', "TIMESTAMP '2021-09-24 14:34:56.1234567'"], ...tail],
  };
  for (const [target, cases] of Object.entries(casts)) {
    for (const [from, v] of cases) specs.push({ source: `CastFunctionITCase allTypesBasic CAST(${from} AS ${target})`, fields: [c(v, from)], exprs: [`CAST(f0 AS ${target})`] });
  }
}

/** One statement per ported expression: `{ sql, source }`. */
export function statements() {
  const out = [];
  for (const spec of specs) {
    const names = spec.fields.map((_, i) => `f${i}`).join(', ');
    for (const e of spec.exprs) out.push({ sql: `SELECT ${e} FROM (VALUES (${spec.fields.join(', ')})) AS T(${names})`, source: spec.source });
  }
  return out;
}

const MS = 'documented difference: Sluice keeps milliseconds, Flink the nanoseconds of a TIME / TIMESTAMP / TIMESTAMP_LTZ with precision > 3 (docs/differences-from-flink.md)';
/**
 * Why a ported statement still diverges from Flink 2.3 (for the golden's `known`), by what the statement is; undefined
 * when no class fits (scripts/flink-port.mjs then records it UNEXPLAINED, to be looked at).
 */
export function knownReason(sql) {
  const rules = [
    [/EXTRACT\((NANOSECOND|MICROSECOND) FROM f[01]\)|CEIL\(f2 TO MILLISECOND\)|AS TIMESTAMP(_LTZ)?(\(9\)|\(5\)|\(4\))?\)\)\) AS T\(f0\)$/, MS],
    [/RETURNING (TINYINT|SMALLINT|BIGINT|FLOAT|DECIMAL)/, "Flink 2.3 defect: JSON_VALUE RETURNING TINYINT / SMALLINT / BIGINT / FLOAT / DECIMAL is a CodeGenException \"Unsupported type ... for RETURNING\" (the ITCase is from a later Flink that supports it); Sluice answers"],
    [/^SELECT CAST\(JSON_VALUE\(f0, '\$\.(balance|longBalance)' RETURNING DOUBLE\) AS (BIGINT|INTEGER)\)/, 'Flink 2.3 defect: the constant-folded CAST of a JSON_VALUE RETURNING DOUBLE does not compile (Cannot cast "java.lang.Double" to "long"); Sluice answers'],
    [/JSON_VALUE\(f0, '\$\.(type|bigCount|balance|v)' RETURNING INTEGER( DEFAULT 42| NULL)? ON ERROR\)|JSON_VALUE\(f0, '\$\.(bigCount|balance)' RETURNING INTEGER\)/, 'Flink 2.3 defect: JSON_VALUE RETURNING INTEGER of a string, a long or a decimal fails at run time with a ClassCastException instead of applying ON ERROR / truncating; Sluice answers'],
    [/RETURNING (INT|DOUBLE)\) = JSON_VALUE/, 'Flink 2.3 defect: two JSON_VALUE RETURNING INT / DOUBLE results are compared as boxed objects by reference, so 99999 = 99999 is false (fixed in a later Flink, whose ITCase expects true)'],
    [/^SELECT PARSE_JSON\(f0\), JSON_STRING\(PARSE_JSON\(f0\)\)/, 'Flink 2.3 defect: projecting PARSE_JSON(f0) next to JSON_STRING(PARSE_JSON(f0)) fails at run time with a ClassCastException (BinaryVariant cast to BinaryStringData; each alone works); Sluice answers'],
    [/^SELECT CAST\(f0 AS FLOAT\) FROM \(VALUES \(CAST\('?(-3276913443134|3276913443134\.87|-?12345678901|9234567891\.12|-?123\.456789)'? AS (STRING|DECIMAL\(20, 3\)|BIGINT|FLOAT|DOUBLE)\)\)\)/, "documented difference: the reference runner's JDK 17 Float.toString prints more digits than the shortest (1.23456799E10 for 1.2345679E10, as JDK 19+ and Sluice print it); the float is the same (test/differential/README.md, the JDK 17 runner's double text)"],
    [/CAST\((1239234567891\.1234567891234|123456789\.123456789123456789) AS (DOUBLE|DECIMAL\(30, 20\))\)/, 'Documented difference (docs/differences-from-flink.md): Flink 2.3 refuses an exact numeric literal of more than 19 digits as "Numeric literal ... out of range" (Calcite); Sluice accepts it exactly'],
  ];
  return rules.find(([re]) => re.test(sql))?.[1];
}
