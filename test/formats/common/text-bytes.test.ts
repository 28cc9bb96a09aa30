import { describe, expect, it } from 'vitest';
import { Configuration } from '../../../src/config/configuration.js';
import type { DeserializationSchema } from '../../../src/factories/format.js';
import { CanalJsonFormatFactory } from '../../../src/formats/canal-json/canal-json-format-factory.js';
import { InvalidUtf8Error, checkUtf8, stripUtf8Bom } from '../../../src/formats/common/text-bytes.js';
import { CsvFormatFactory } from '../../../src/formats/csv/csv-format-factory.js';
import { CsvRowDecoder } from '../../../src/formats/csv/csv-row-decoder.js';
import { DEFAULT_CSV } from '../../../src/formats/csv/csv-options.js';
import { DebeziumJsonFormatFactory } from '../../../src/formats/debezium-json/debezium-json-format-factory.js';
import { FormatError } from '../../../src/formats/format-error.js';
import { JsonFormatFactory } from '../../../src/formats/json/json-format-factory.js';
import { RawFormatFactory } from '../../../src/formats/raw/raw-format-factory.js';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import type { RowType } from '../../../src/types/logical-type.js';
import type { Row } from '../../../src/types/row.js';

type Factory = JsonFormatFactory | CsvFormatFactory | RawFormatFactory | DebeziumJsonFormatFactory | CanalJsonFormatFactory;

function decoder(factory: Factory, options: Record<string, string>, type: RowType): DeserializationSchema {
  return factory.createDecodingFormat({} as never, new Configuration(options)).createRuntimeDecoder(type);
}

const TYPE = DataTypes.ROW(FIELD('id', DataTypes.INT()), FIELD('s', DataTypes.STRING()));
const BOM = [0xef, 0xbb, 0xbf];
const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

/** Each text format's record for (1, 'a') and for (2, <text with `bad` bytes inside>). */
const FORMATS: readonly { name: string; factory: () => Factory; good: string; bad: (inner: number[]) => Uint8Array }[] = [
  { name: 'json', factory: () => new JsonFormatFactory(), good: '{"id":1,"s":"a"}', bad: (b) => bytes('{"id":2,"s":"x', b, '"}') },
  { name: 'csv', factory: () => new CsvFormatFactory(), good: '1,a', bad: (b) => bytes('2,x', b) },
  {
    name: 'debezium-json',
    factory: () => new DebeziumJsonFormatFactory(),
    good: '{"before":null,"after":{"id":1,"s":"a"},"op":"c"}',
    bad: (b) => bytes('{"before":null,"after":{"id":2,"s":"x', b, '"},"op":"c"}'),
  },
  {
    name: 'canal-json',
    factory: () => new CanalJsonFormatFactory(),
    good: '{"data":[{"id":1,"s":"a"}],"type":"INSERT"}',
    bad: (b) => bytes('{"data":[{"id":2,"s":"x', b, '"}],"type":"INSERT"}'),
  },
];

describe('text bytes as Flink reads them', () => {
  it.each(FORMATS)('$name: skips a UTF-8 byte order mark before a record', ({ factory, good }) => {
    const out: Row[] = [];
    decoder(factory(), {}, TYPE).deserialize(bytes(BOM, good), out);
    expect(out.map((r) => r.fields)).toEqual([[1, 'a']]);
  });

  it.each(FORMATS)('$name: fails a record with invalid UTF-8, naming the byte, instead of reading U+FFFD', ({ name, factory, bad }) => {
    const record = bad([0xff, 0xfe]);
    const err = (() => {
      try {
        decoder(factory(), {}, TYPE).deserialize(record, [], () => 'file f.txt, line 7, byte offset 120');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(FormatError);
    const at = Buffer.from(record).indexOf(0xff);
    expect((err as Error).message).toContain(`(file f.txt, line 7, byte offset 120): Invalid UTF-8 byte 0xFF at byte ${at} of the record.`);
    expect((err as Error).message).toContain(`Set '${name}.ignore-parse-errors' = 'true'`);
  });

  it.each(FORMATS)('$name: skips a record with invalid UTF-8 under ignore-parse-errors', ({ name, factory, good, bad }) => {
    const dec = decoder(factory(), { 'ignore-parse-errors': 'true' }, TYPE);
    const out: Row[] = [];
    dec.deserialize(bad([0xc3, 0x28]), out);
    dec.deserialize(bytes(good), out);
    expect(out.map((r) => r.fields)).toEqual([[1, 'a']]);
    expect((dec as unknown as { skippedRecords: number }).skippedRecords).toBe(1);
    expect(name).toBeTruthy();
  });

  it('raw keeps its bytes: a byte order mark is data', () => {
    const out: Row[] = [];
    decoder(new RawFormatFactory(), {}, DataTypes.ROW(FIELD('b', DataTypes.BYTES()))).deserialize(bytes(BOM, 'x'), out);
    expect(Buffer.from(out[0]!.fields[0] as Uint8Array)).toEqual(Buffer.from([...BOM, 0x78]));
  });

  it('accepts every well-formed UTF-8 sequence and finds the first bad one', () => {
    expect(() => checkUtf8(bytes('a é € 𝄞'))).not.toThrow();
    const cases: [number[], number][] = [
      [[0x61, 0x80], 1], // lone continuation byte
      [[0xc0, 0xaf], 0], // overlong
      [[0xed, 0xa0, 0x80], 0], // surrogate
      [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
      [[0x61, 0x62, 0xe2, 0x82], 2], // truncated
    ];
    for (const [b, at] of cases) {
      let err: unknown;
      try {
        checkUtf8(Uint8Array.from(b));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InvalidUtf8Error);
      expect((err as InvalidUtf8Error).index).toBe(at);
    }
    expect(stripUtf8Bom(bytes(BOM))).toHaveLength(0);
    expect(stripUtf8Bom(bytes('ab'))).toHaveLength(2);
  });
});

describe('csv special floating-point values', () => {
  const type = DataTypes.ROW(FIELD('d', DataTypes.DOUBLE()), FIELD('f', DataTypes.FLOAT()));
  it.each([true, false])('reads NaN, Infinity and -Infinity as Java does (fast path %s)', (fastPath) => {
    const dec = new CsvRowDecoder(type, DEFAULT_CSV, { fastPath });
    const out: Row[] = [];
    for (const line of ['NaN,NaN', 'Infinity,-Infinity', '-Infinity,+Infinity', ' NaN ,1.5']) dec.deserialize(bytes(line), out);
    expect(out.map((r) => r.fields)).toEqual([
      [NaN, NaN],
      [Infinity, -Infinity],
      [-Infinity, Infinity],
      [NaN, 1.5],
    ]);
  });
});
