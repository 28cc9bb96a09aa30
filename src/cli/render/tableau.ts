import type { LogicalType } from '../../types/logical-type.js';
import { rowKindShortString } from '../../types/row-kind.js';
import type { Row } from '../../types/row.js';
import { formatValue, type FormatOptions } from '../../types/values/format-value.js';
import { displayWidth, wrapColumns } from './display-width.js';

export interface TableauColumn {
  readonly name: string;
  readonly type: LogicalType;
}

export interface TableauOptions extends FormatOptions {
  /** `table.display.max-column-width`: longer values end in `...`. */
  readonly maxColumnWidth: number;
  /** Streaming results print an `op` column and `Received a total of N rows`. */
  readonly streaming: boolean;
  /**
   * Nulls print as empty cells rather than `<NULL>`: Flink's client does so for statement results
   * (DESCRIBE's key, extras and watermark), its `printNullAsEmpty`.
   */
  readonly nullAsEmpty?: boolean;
}

const NULL_TEXT = '<NULL>';
const OP_WIDTH = 2;

/**
 * Flink's tableau view (TableauStyle): ASCII borders, every cell right-aligned with one space of
 * padding, `<NULL>` for nulls. Batch results size the columns from the data; streaming results cannot
 * wait for the data and size them from the column types, as Flink does.
 */
export class TableauPrinter {
  private readonly widths: number[];
  private count = 0;

  private constructor(
    private readonly columns: readonly TableauColumn[],
    private readonly options: TableauOptions,
    widths: number[],
  ) {
    this.widths = widths;
  }

  /**
   * For a streaming result: widths from types, rows printed as they arrive. As Flink's
   * `columnWidthsByType`, only types of unbounded width are held to maxColumnWidth: a DECIMAL(38, 18)
   * column is 40 wide, and a long column name widens its column.
   */
  static forStreaming(columns: readonly TableauColumn[], options: TableauOptions): TableauPrinter {
    const widths = columns.map((c) => Math.max(displayWidth(c.name), widthOfType(c.type, options.maxColumnWidth, options.nullAsEmpty === true)));
    return new TableauPrinter(columns, options, widths);
  }

  /** A whole batch result at once: widths from the data. */
  static render(columns: readonly TableauColumn[], rows: readonly Row[], options: TableauOptions): string {
    if (rows.length === 0 && !options.streaming) return 'Empty set\n';
    const cells = rows.map((r) => columns.map((c, i) => cellText(r.fields[i], c.type, options)));
    const widths = columns.map((c, i) =>
      Math.min(options.maxColumnWidth, cells.reduce((w, row) => Math.max(w, displayWidth(row[i]!)), displayWidth(c.name))),
    );
    const p = new TableauPrinter(columns, options, widths);
    let out = p.header();
    rows.forEach((r, i) => (out += p.line(r.kind, cells[i]!)));
    return out + p.footer();
  }

  header(): string {
    const border = this.border();
    const names = this.columns.map((c) => c.name);
    return border + this.formatLine(this.options.streaming ? 'op' : undefined, names) + border;
  }

  row(row: Row): string {
    return this.line(row.kind, this.columns.map((c, i) => cellText(row.fields[i], c.type, this.options)));
  }

  footer(): string {
    if (this.options.streaming) {
      return (this.count > 0 ? this.border() : '') + `Received a total of ${this.count} ${this.count === 1 ? 'row' : 'rows'}\n`;
    }
    return this.border() + `${this.count} ${this.count === 1 ? 'row' : 'rows'} in set\n`;
  }

  /** Footer for a streaming result that ended with no rows: Flink prints only the count line. */
  get rowCount(): number {
    return this.count;
  }

  private line(kind: Row['kind'], cells: string[]): string {
    this.count++;
    return this.formatLine(this.options.streaming ? rowKindShortString(kind) : undefined, cells);
  }

  private border(): string {
    const parts = this.widths.map((w) => '-'.repeat(w + 2));
    if (this.options.streaming) parts.unshift('-'.repeat(OP_WIDTH + 2));
    return `+${parts.join('+')}+\n`;
  }

  private formatLine(op: string | undefined, cells: readonly string[]): string {
    const parts = cells.map((c, i) => ` ${fit(c, this.widths[i]!)} `);
    if (op !== undefined) parts.unshift(` ${op.padStart(OP_WIDTH)} `);
    return `|${parts.join('|')}|\n`;
  }
}

/** A value as a cell shows it, uncut. */
export function cellText(v: unknown, type: LogicalType, options: FormatOptions & { readonly nullAsEmpty?: boolean }): string {
  if (v === null || v === undefined) return options.nullAsEmpty === true ? '' : NULL_TEXT;
  return formatValue(v, type, options);
}

/** `text` right-aligned in `width` columns, or cut with `...`; wide characters (CJK) count two, as in Flink. */
function fit(text: string, width: number): string {
  const w = displayWidth(text);
  if (w > width) {
    // A wide character that would straddle the cut is left out, and the cell padded on the left, as Flink does.
    const kept = width <= 3 ? wrapColumns(text, width)[0]! : wrapColumns(text, width - 3)[0]! + '...';
    return ' '.repeat(Math.max(0, width - displayWidth(kept))) + kept;
  }
  return ' '.repeat(width - w) + text;
}

/**
 * The widest value a type can print, as Flink's TableauStyle.columnWidthsByType estimates it for streaming results:
 * strings and other types of unbounded width take maxColumnWidth whatever their declared length, timestamps the
 * width of 0, 3, 6 or 9 fraction digits, and every column room for `<NULL>` unless NULL prints as empty.
 */
function widthOfType(t: LogicalType, max: number, nullAsEmpty: boolean): number {
  let w: number;
  switch (t.kind) {
    case 'BOOLEAN':
      w = 5;
      break;
    case 'TINYINT':
      w = 4;
      break;
    case 'SMALLINT':
      w = 6;
      break;
    case 'INT':
      w = 11;
      break;
    case 'BIGINT':
      w = 20;
      break;
    case 'DECIMAL':
      w = t.precision + 2;
      break;
    case 'DATE':
      w = 10;
      break;
    case 'TIME':
      w = t.precision === 0 ? 8 : t.precision + 9;
      break;
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      w = t.precision === 0 ? 19 : t.precision <= 3 ? 23 : t.precision <= 6 ? 26 : 29;
      break;
    default:
      w = max;
  }
  return nullAsEmpty ? w : Math.max(w, NULL_TEXT.length);
}
