import { ValidationError } from '../../errors/sluice-error.js';
import type { Column } from '../../types/column.js';
import type { LogicalType } from '../../types/logical-type.js';
import { parseLogicalType } from '../../types/parse-logical-type.js';
import { typeToString } from '../../types/type-to-string.js';

/**
 * The physical columns the generator fills, by position. The generator's rows are positional, so a
 * table that declares fewer columns, or renames or reorders them, would silently read the wrong
 * values (a `bid` column declared second receives the person); it is refused when planned instead.
 */
const NEXMARK_COLUMNS: readonly { readonly name: string; readonly type: LogicalType }[] = [
  ['event_type', 'INT'],
  ['person', 'ROW<id BIGINT, name STRING, emailAddress STRING, creditCard STRING, city STRING, state STRING, dateTime TIMESTAMP(3), extra STRING>'],
  [
    'auction',
    'ROW<id BIGINT, itemName STRING, description STRING, initialBid BIGINT, reserve BIGINT, dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra STRING>',
  ],
  ['bid', 'ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, dateTime TIMESTAMP(3), extra STRING>'],
].map(([name, type]) => ({ name: name!, type: parseLogicalType(type!) }));

/** The shape of a type without nullability, precision of strings or time attributes: what the generator's values fit. */
function shape(t: LogicalType): string {
  if (t.kind === 'ROW') return `ROW<${t.fields.map((f) => `${f.name} ${shape(f.type)}`).join(', ')}>`;
  if (t.kind === 'TIMESTAMP') return 'TIMESTAMP';
  return t.kind === 'VARCHAR' || t.kind === 'CHAR' ? 'STRING' : t.kind;
}

/** Throws when the table's physical columns are not the four the generator produces, in order. */
export function checkNexmarkColumns(table: string, physical: readonly Column[]): void {
  const matches =
    physical.length === NEXMARK_COLUMNS.length &&
    physical.every((c, i) => c.name === NEXMARK_COLUMNS[i]!.name && shape(c.type) === shape(NEXMARK_COLUMNS[i]!.type));
  if (matches) return;
  const expected = NEXMARK_COLUMNS.map((c) => `${c.name} ${typeToString(c.type)}`).join(', ');
  const declared = physical.map((c) => `${c.name} ${typeToString(c.type)}`).join(', ');
  throw new ValidationError(
    `Table '${table}' uses the 'nexmark' connector, which produces exactly the physical columns ${expected}, in this order; ` +
      `the table declares ${declared || 'none'}. Declare all four (computed columns and a watermark may follow them) and select only the columns you need.`,
  );
}
