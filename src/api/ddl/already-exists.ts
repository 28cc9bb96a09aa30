import { FileCatalog } from '../../catalog/file-catalog.js';
import type { ObjectIdentifier } from '../../catalog/object-identifier.js';
import { ObjectAlreadyExistsError } from '../../errors/sluice-error.js';
import type { Session } from '../session.js';

/**
 * Flink's "Could not execute CreateTable in path ..." for a permanent table or view whose name is taken,
 * saying where the existing one lives (the catalog, the database, and for a file catalog its directory,
 * since that is how an object from an earlier run is still there) and what to write instead.
 */
export function permanentObjectExists(session: Session, id: ObjectIdentifier, what: 'table' | 'view'): ObjectAlreadyExistsError {
  const statement = what === 'table' ? 'CreateTable' : 'CreateView';
  const keyword = what === 'table' ? 'TABLE' : 'VIEW';
  const catalog = session.catalogs.getCatalog(id.catalog);
  const kept = catalog instanceof FileCatalog ? ` (a file catalog kept in '${catalog.dir}' between runs)` : '';
  return new ObjectAlreadyExistsError(
    `Could not execute ${statement} in path \`${id.catalog}\`.\`${id.database}\`.\`${id.object}\`: ` +
      `a table or view named '${id.object}' already exists in database '${id.database}' of catalog '${id.catalog}'${kept}. ` +
      `Write CREATE ${keyword} IF NOT EXISTS to keep the existing one, DROP ${keyword} first to replace it, ` +
      `or CREATE TEMPORARY ${keyword} for a ${what} that lives only in this session.`,
  );
}
