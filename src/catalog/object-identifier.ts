/** A fully qualified catalog object name: `catalog.database.object`. */
export interface ObjectIdentifier {
  readonly catalog: string;
  readonly database: string;
  readonly object: string;
}

export function objectIdentifier(catalog: string, database: string, object: string): ObjectIdentifier {
  return { catalog, database, object };
}

/** `cat.db.t`, as Flink prints identifiers in messages. */
export function identifierToString(id: ObjectIdentifier): string {
  return `${id.catalog}.${id.database}.${id.object}`;
}

/** `` `cat`.`db`.`t` ``, as SHOW CREATE TABLE prints it (backquotes doubled inside names). */
export function identifierToSql(id: ObjectIdentifier): string {
  return [id.catalog, id.database, id.object].map(quoteIdentifier).join('.');
}

export function quoteIdentifier(name: string): string {
  return '`' + name.replaceAll('`', '``') + '`';
}

export function identifiersEqual(a: ObjectIdentifier, b: ObjectIdentifier): boolean {
  return a.catalog === b.catalog && a.database === b.database && a.object === b.object;
}
