import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../src/formats/json/json-tree.js';
import { ResultDecoder, type ResultPageJson } from '../../src/gateway/result-page.js';
import { Decimal } from '../../src/types/decimal.js';
import { RowKind } from '../../src/types/row-kind.js';
import { formatValue } from '../../src/types/values/format-value.js';

// A page as Flink 2.2's gateway sends it for
// SELECT 1 AS a, CAST(2.5 AS DECIMAL(5,2)) AS d, TIMESTAMP '2024-01-01 10:00:00.123' AS ts, DATE '2024-01-02' AS dt,
//        ARRAY[1,2] AS arr, ROW(1, 'x') AS r, MAP['k', 1] AS m, CAST(9007199254740993 AS BIGINT) AS b, X'0102' AS bin
const PAGE = `{"resultType":"PAYLOAD","isQueryResult":true,"jobID":"2e4e","resultKind":"SUCCESS_WITH_CONTENT","results":{"columns":[
{"name":"a","logicalType":{"type":"INTEGER","nullable":false},"comment":null},
{"name":"d","logicalType":{"type":"DECIMAL","nullable":false,"precision":5,"scale":2},"comment":null},
{"name":"ts","logicalType":{"type":"TIMESTAMP_WITHOUT_TIME_ZONE","nullable":false,"precision":3},"comment":null},
{"name":"dt","logicalType":{"type":"DATE","nullable":false},"comment":null},
{"name":"arr","logicalType":{"type":"ARRAY","nullable":false,"elementType":{"type":"INTEGER","nullable":false}},"comment":null},
{"name":"r","logicalType":{"type":"ROW","nullable":false,"fields":[{"name":"EXPR$0","fieldType":{"type":"INTEGER","nullable":false}},{"name":"EXPR$1","fieldType":{"type":"CHAR","nullable":false,"length":1}}]},"comment":null},
{"name":"m","logicalType":{"type":"MAP","nullable":false,"keyType":{"type":"CHAR","nullable":false,"length":1},"valueType":{"type":"INTEGER","nullable":false}},"comment":null},
{"name":"b","logicalType":{"type":"BIGINT","nullable":true},"comment":null},
{"name":"bin","logicalType":{"type":"BINARY","nullable":false,"length":2},"comment":null}],
"rowFormat":"JSON","data":[{"kind":"INSERT","fields":[1,2.5,"2024-01-01T10:00:00.123","2024-01-02",[1,2],{"EXPR$0":1,"EXPR$1":"x"},{"k":1},9007199254740993,"AQI="]},
{"kind":"UPDATE_BEFORE","fields":[2,0.25,"2024-01-01T10:00:00","2024-01-02",[],{"EXPR$0":2,"EXPR$1":"y"},{},null,"AAA="]}]},"nextResultUri":"/v2/x"}`;

describe('ResultDecoder', () => {
  // As GatewayClient.fetchPage reads it: columns as plain JSON, rows exactly.
  const plain = JSON.parse(PAGE) as ResultPageJson;
  const exact = parseJsonExact(PAGE) as unknown as ResultPageJson;
  const page: ResultPageJson = { ...plain, results: { ...plain.results, data: exact.results!.data! } };
  const decoder = new ResultDecoder(page.results!.columns!);

  it("gives the gateway's columns Sluice types, so the local printers format them", () => {
    expect(decoder.schema.columnNames()).toEqual(['a', 'd', 'ts', 'dt', 'arr', 'r', 'm', 'b', 'bin']);
    expect(decoder.schema.columns.map((c) => c.type.kind)).toEqual(['INT', 'DECIMAL', 'TIMESTAMP', 'DATE', 'ARRAY', 'ROW', 'MAP', 'BIGINT', 'BINARY']);
  });

  it('reads values exactly (BIGINT beyond 2^53, DECIMAL) with their row kinds', () => {
    const [first, second] = decoder.rows(page);
    expect(first!.kind).toBe(RowKind.INSERT);
    expect(second!.kind).toBe(RowKind.UPDATE_BEFORE);
    expect(first!.fields[7]).toBe(9007199254740993n);
    expect(second!.fields[7]).toBeNull();
    expect(first!.fields[1]).toEqual(Decimal.parse('2.50'));
    const text = decoder.schema.columns.map((c, i) => formatValue(first!.fields[i], c.type, {}));
    expect(text).toEqual(['1', '2.50', '2024-01-01 10:00:00.123', '2024-01-02', '[1, 2]', '(1, x)', '{k=1}', '9007199254740993', 'x\'0102\'']);
  });
});
