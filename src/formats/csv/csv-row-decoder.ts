import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import type { RowType } from '../../types/logical-type.js';
import type { MessageOrigin } from '../../factories/format.js';
import type { AsciiLineDecoder } from '../../connectors/filesystem/ascii-lines.js';
import { FieldValueError, decodeError, withField } from '../format-error.js';
import { asciiDecode, utf8Decode } from '../../util/utf8.js';
import type { CsvSettings } from './csv-options.js';
import { createCsvFastDecoder } from './csv-fast-decoder.js';
import type { CsvFastDecoder } from './csv-fast-decoder.js';
import { CsvRecordParser } from './csv-record-parser.js';
import { createCsvFieldReader } from './csv-values.js';
import type { CsvFieldReader } from './csv-values.js';
import { checkUtf8, stripUtf8Bom } from '../common/text-bytes.js';

/**
 * `'format' = 'csv'` decoder: one CSV record per message (a trailing line break is ignored) into one +I
 * row. Comment lines (with `allow-comments`) and empty messages yield nothing. A record with the wrong
 * number of fields or a field that does not parse fails. With `ignore-parse-errors`, as Flink's
 * CsvToRowDataConverters: a field that does not parse reads as NULL and the row is kept, a record with too
 * few fields reads the missing ones as NULL; a record that cannot be split (an unterminated quote) or has
 * too many fields (Jackson's "Too many entries") is skipped and counted in `skippedRecords`.
 */
export class CsvRowDecoder implements AsciiLineDecoder {
  skippedRecords = 0;
  private readonly parser: CsvRecordParser;
  private readonly readers: CsvFieldReader[];
  private readonly names: string[];
  private readonly fast: CsvFastDecoder | undefined;
  /** Per produced field, the record field it holds (see the `projection` option). */
  private readonly projection: readonly number[];
  /**
   * The produced fields in record order: the general path converts them in this order, so with a projection
   * in any order the first bad field a record has is the one its error names, as without a projection.
   */
  private readonly conversionOrder: readonly number[];

  /**
   * `options.fastPath` false always takes the general path (for tests comparing both); by default records
   * in the common shape are read by a decoder generated for `rowType` (see createCsvFastDecoder).
   * `options.projection` lists the record fields the rows hold, in that order (DecodingFormat's
   * createProjectedDecoder); absent = all of them. A field not listed is stepped over and never converted.
   * `options.views`: string fields may be views into the chunk's text (see createCsvFastDecoder).
   */
  constructor(
    rowType: RowType,
    private readonly settings: CsvSettings,
    options: { readonly fastPath?: boolean; readonly projection?: readonly number[]; readonly views?: boolean } = {},
  ) {
    this.parser = new CsvRecordParser(settings);
    this.readers = rowType.fields.map((f) => createCsvFieldReader(f.type, settings));
    this.names = rowType.fields.map((f) => f.name);
    const projection = options.projection ?? rowType.fields.map((_, i) => i);
    for (const i of projection) {
      if (!Number.isInteger(i) || i < 0 || i >= rowType.fields.length) {
        throw new RangeError(`CSV projection index ${i} is outside the ${rowType.fields.length} fields of the row type`);
      }
    }
    this.projection = projection;
    this.conversionOrder = projection.map((_, j) => j).sort((a, b) => projection[a]! - projection[b]! || a - b);
    this.fast = options.fastPath === false ? undefined : createCsvFastDecoder(rowType, settings, this.readers, projection, options.views === true);
  }

  deserialize(bytes: Uint8Array, out: Row[], origin?: MessageOrigin): void {
    if (bytes.length === 0) return;
    // As Jackson in Flink: a byte order mark is skipped, bytes that are not UTF-8 are a bad record.
    const message = stripUtf8Bom(bytes);
    try {
      checkUtf8(message);
    } catch (e) {
      if (this.settings.ignoreParseErrors) {
        this.skippedRecords++;
        return;
      }
      throw decodeError('csv', 'CSV line', utf8Decode(message), e, origin);
    }
    this.deserializeText(utf8Decode(message), out, origin);
  }

  deserializeText(text: string, out: Row[], origin?: MessageOrigin): void {
    if (text.length === 0) return;
    let line = text;
    if (line.charCodeAt(line.length - 1) === 10) line = line.slice(0, line.charCodeAt(line.length - 2) === 13 ? -2 : -1);
    if (this.settings.allowComments && line.charCodeAt(0) === 35) return;
    const fields = this.fast?.(line, 0, line.length, undefined);
    if (fields !== undefined) out.push(new Row(RowKind.INSERT, fields));
    else this.deserializeGeneral(line, out, origin);
  }

  /** The general path of one record (no line break): every error, lenient NULL and skipped record comes from here. */
  private deserializeGeneral(line: string, out: Row[], origin: MessageOrigin | undefined): void {
    try {
      out.push(new Row(RowKind.INSERT, this.readLine(line)));
    } catch (e) {
      if (this.settings.ignoreParseErrors) {
        this.skippedRecords++;
        return;
      }
      throw decodeError('csv', 'CSV line', line, e, origin);
    }
  }

  /**
   * `deserializeText` of the line `text[start, end)` of an ASCII chunk, `bytes` being the chunk's bytes (the file
   * source's AsciiLineDecoder): the common record is read in place, without a string per line; any other record
   * takes the general path with the line copied out, as `deserializeText` would, so it decodes, fails and is
   * skipped exactly as there.
   */
  deserializeAsciiLine(bytes: Uint8Array, text: string, start: number, end: number, out: Row[], origin?: MessageOrigin): void {
    if (end <= start || (this.settings.allowComments && text.charCodeAt(start) === 35)) return;
    const fields = this.fast?.(text, start, end, bytes);
    if (fields !== undefined) out.push(new Row(RowKind.INSERT, fields));
    else this.deserializeGeneral(asciiDecode(bytes, start, end), out, origin);
  }

  private readLine(line: string): unknown[] {
    const texts = this.parser.parse(line);
    const n = this.readers.length;
    const lenient = this.settings.ignoreParseErrors;
    if (texts.length !== n && !(lenient && texts.length < n)) {
      throw new FieldValueError(`Row length mismatch. ${n} fields expected but was ${texts.length}.`);
    }
    const nullLiteral = this.settings.nullLiteral;
    const projection = this.projection;
    const fields = new Array<unknown>(projection.length);
    for (const j of this.conversionOrder) {
      const i = projection[j]!;
      const t = texts[i];
      if (t === undefined || t === nullLiteral) fields[j] = null;
      else {
        try {
          fields[j] = this.readers[i]!(t);
        } catch (e) {
          if (!lenient) throw withField(e, this.names[i]!);
          fields[j] = null;
        }
      }
    }
    return fields;
  }
}
