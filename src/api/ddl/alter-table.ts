import type { CatalogTable } from '../../catalog/catalog-table.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { AlterTableAction, SchemaChange } from '../../sql/ast/ddl.js';
import { storedExpressionSql } from './stored-expression-sql.js';
import type { Column, UniqueConstraint, WatermarkSpec } from '../../types/column.js';
import { defaultPrimaryKeyName } from '../../types/column.js';
import { withoutTimeAttribute } from '../../types/logical-type.js';
import { ResolvedSchema } from '../../types/schema.js';
import { columnFromDdl, type ExpressionTyper } from './catalog-table-from-ddl.js';

/**
 * The table after an ALTER TABLE action (other than RENAME TO, which is a catalog operation), with
 * Flink's messages for what cannot be changed.
 */
export function alterTable(table: CatalogTable, action: Exclude<AlterTableAction, { kind: 'rename' }>, typeOf: ExpressionTyper): CatalogTable {
  const s = table.schema;
  let columns: Column[] = s.columns.map((c) => (c.kind === 'physical' ? { ...c, type: withoutTimeAttribute(c.type) } : c));
  let watermarks: WatermarkSpec[] = [...s.watermarkSpecs];
  let pk: UniqueConstraint | undefined = s.primaryKey;
  let options = { ...table.options };
  const names = (): string[] => columns.map((c) => c.name);

  switch (action.kind) {
    case 'set-options':
      for (const p of action.options) options[p.key] = p.value;
      break;
    case 'reset-options':
      if (action.keys.length === 0) throw new ValidationError('ALTER TABLE RESET does not support empty key');
      for (const k of action.keys) {
        if (k === 'connector') throw new ValidationError(`ALTER TABLE RESET does not support changing 'connector'`);
        delete options[k];
      }
      break;
    case 'add':
    case 'modify':
      try {
        for (const change of action.changes) {
          ({ columns, watermarks, pk } = applyChange(action.kind, change, columns, watermarks, pk, typeOf));
        }
      } catch (e) {
        // Flink's first line for a schema change it cannot apply.
        if (e instanceof ValidationError) throw new ValidationError(`Failed to execute ALTER TABLE statement.\n${e.message}`);
        throw e;
      }
      break;
    case 'drop-columns':
      for (const n of action.columns) {
        if (!names().includes(n.value)) throw new ValidationError(`The column \`${n.value}\` does not exist in the base table.`);
        if (pk?.columns.includes(n.value)) throw new ValidationError(`The column \`${n.value}\` is used as the primary key.`);
        if (watermarks.some((w) => w.rowtimeAttribute === n.value)) throw new ValidationError(`The column \`${n.value}\` is referenced by watermark expression.`);
        if (table.partitionKeys.includes(n.value)) throw new ValidationError(`The column \`${n.value}\` is used as the partition keys.`);
        columns = columns.filter((c) => c.name !== n.value);
      }
      break;
    case 'drop-primary-key':
    case 'drop-constraint':
      if (!pk) throw new ValidationError(`The base table does not define any primary key.`);
      if (action.kind === 'drop-constraint' && action.name.value !== pk.name) {
        throw new ValidationError(`The base table does not define a primary key constraint named '${action.name.value}'. Available constraint name: ['${pk.name}'].`);
      }
      pk = undefined;
      break;
    case 'drop-watermark':
      if (watermarks.length === 0) throw new ValidationError(`The base table does not define any watermark strategy.`);
      watermarks = [];
      break;
    case 'rename-column': {
      const i = names().indexOf(action.from.value);
      if (i < 0) throw new ValidationError(`The column \`${action.from.value}\` does not exist in the base table.`);
      if (names().includes(action.to.value)) throw new ValidationError(`The column \`${action.to.value}\` already existed in table schema.`);
      columns[i] = { ...columns[i]!, name: action.to.value };
      watermarks = watermarks.map((w) => (w.rowtimeAttribute === action.from.value ? { ...w, rowtimeAttribute: action.to.value } : w));
      if (pk) {
        const cols = pk.columns.map((c) => (c === action.from.value ? action.to.value : c));
        pk = { name: pk.name, columns: cols };
      }
      break;
    }
  }
  return { ...table, schema: ResolvedSchema.of(columns, watermarks, pk), options };
}

function applyChange(
  mode: 'add' | 'modify',
  change: SchemaChange,
  columns: Column[],
  watermarks: WatermarkSpec[],
  pk: UniqueConstraint | undefined,
  typeOf: ExpressionTyper,
): { columns: Column[]; watermarks: WatermarkSpec[]; pk: UniqueConstraint | undefined } {
  switch (change.kind) {
    case 'column': {
      const col = columnFromDdl(change.column, columns, typeOf);
      const existing = columns.findIndex((c) => c.name === col.name);
      if (mode === 'add' && existing >= 0) throw new ValidationError(`Try to add a column \`${col.name}\` which already exists in the table.`);
      if (mode === 'modify' && existing < 0) throw new ValidationError(`Try to modify a column \`${col.name}\` which does not exist in the table.`);
      const out = columns.filter((c) => c.name !== col.name);
      let at = mode === 'modify' ? existing : out.length;
      if (change.position?.kind === 'first') at = 0;
      else if (change.position?.kind === 'after') {
        const ref = change.position.column.value;
        const j = out.findIndex((c) => c.name === ref);
        if (j < 0) throw new ValidationError(`Referenced column \`${ref}\` by 'AFTER' does not exist in the table.`);
        at = j + 1;
      }
      out.splice(at, 0, col);
      return { columns: out, watermarks, pk };
    }
    case 'watermark': {
      if (mode === 'add' && watermarks.length > 0) {
        throw new ValidationError(`The base table has already defined the watermark strategy \`${watermarks[0]!.rowtimeAttribute}\` AS ${watermarks[0]!.expression}. You might want to drop it before adding a new one.`);
      }
      if (mode === 'modify' && watermarks.length === 0) {
        throw new ValidationError(`The base table does not define any watermark. You might want to add a new one.`);
      }
      const w = change.watermark;
      return { columns, watermarks: [{ rowtimeAttribute: w.column.join('.'), expression: storedExpressionSql(w.expr) }], pk };
    }
    case 'primary-key': {
      if (mode === 'add' && pk) throw new ValidationError(`The base table has already defined the primary key constraint [${pk.columns.map((c) => `\`${c}\``).join(', ')}]. You might want to drop it before adding a new one.`);
      if (mode === 'modify' && !pk) throw new ValidationError(`The base table does not define any primary key constraint. You might want to add a new one.`);
      const cols = change.primaryKey.columns.map((n) => n.value);
      return { columns, watermarks, pk: { name: change.primaryKey.constraintName ?? defaultPrimaryKeyName(cols), columns: cols } };
    }
  }
}
