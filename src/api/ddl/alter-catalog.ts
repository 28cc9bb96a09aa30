import type { Catalog } from '../../catalog/catalog.js';
import type { CatalogChange } from '../../catalog/catalog-descriptor.js';
import { InMemoryCatalog } from '../../catalog/in-memory-catalog.js';
import { isSecretKey, SECRET_MASK } from '../../config/secrets.js';
import { ObjectNotFoundError, ValidationError } from '../../errors/sluice-error.js';
import type { AlterCatalogStatement } from '../../sql/ast/ddl.js';
import type { Session } from '../session.js';
import { catalogFromDescriptor } from './catalog-from-descriptor.js';

/** The option that picks the catalog factory: RESET cannot remove it (SET may change it). */
const TYPE_KEY = 'type';

/**
 * ALTER CATALOG c SET / RESET / COMMENT: the catalog is built anew from its changed definition, as Flink does
 * (CatalogManager.alterCatalog). Errors use Flink's words: RESET of nothing or of 'type' is refused before the
 * catalog is looked up, and a catalog without a definition fails as "Could not execute ALTER CATALOG ...".
 */
export async function alterCatalog(session: Session, stmt: AlterCatalogStatement): Promise<void> {
  const name = stmt.name.value;
  const change = catalogChange(stmt.action);
  const old = session.catalogs.listCatalogs().includes(name) ? session.catalogs.getCatalog(name) : undefined;
  const losesObjects = old !== undefined && old.constructor === InMemoryCatalog && (await holdsObjects(old));
  try {
    await session.catalogs.alterCatalog(name, change, (d) => catalogFromDescriptor(session, d));
  } catch (e) {
    // Only "not in the catalog store" is wrapped, as in Flink; the factory's own refusal says enough.
    if (e instanceof ObjectNotFoundError) throw new ValidationError(`Could not execute ${summary(name, stmt.action)}`, { cause: e });
    throw e;
  }
  // Flink drops them without a word; a user who did not expect it should hear it once, here.
  if (losesObjects) {
    session.warn(
      `ALTER CATALOG built the in-memory catalog '${name}' anew from its changed definition, as Flink does: the databases, tables, views and functions it held are gone.`,
    );
  }
}

/** Whether a catalog holds anything besides its empty default database. */
async function holdsObjects(catalog: Catalog): Promise<boolean> {
  for (const db of await catalog.listDatabases()) {
    if (db !== catalog.defaultDatabase) return true;
    if ((await catalog.listTables(db)).length > 0 || (await catalog.listFunctions(db)).length > 0) return true;
  }
  return false;
}

function catalogChange(action: AlterCatalogStatement['action']): CatalogChange {
  switch (action.kind) {
    case 'set-options':
      return { kind: 'set-options', options: Object.fromEntries(action.options.map((p) => [p.key, p.value])) };
    case 'reset-options':
      if (action.keys.length === 0) throw new ValidationError('ALTER CATALOG RESET does not support empty key');
      if (action.keys.includes(TYPE_KEY)) throw new ValidationError(`ALTER CATALOG RESET does not support changing '${TYPE_KEY}'`);
      return { kind: 'reset-options', keys: action.keys };
    case 'comment':
      return { kind: 'comment', comment: action.comment };
  }
}

/** The statement as Flink's AlterCatalog*Operation.asSummaryString prints it in "Could not execute ...", secrets masked. */
function summary(name: string, action: AlterCatalogStatement['action']): string {
  switch (action.kind) {
    case 'set-options':
      return `ALTER CATALOG ${name}\n${action.options.map((p) => `  SET '${p.key}' = '${isSecretKey(p.key) ? SECRET_MASK : p.value}'`).join(',\n')}`;
    case 'reset-options':
      return `ALTER CATALOG ${name}\n${action.keys.map((k) => `  RESET '${k}'`).join(',\n')}`;
    case 'comment':
      return `ALTER CATALOG ${name} COMMENT '${action.comment.replaceAll("'", "''")}'`;
  }
}
