/** Backquotes a name as Flink's SHOW CREATE TABLE does (a backquote inside is doubled). */
export function quoteName(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

export function quoteNames(names: readonly string[]): string {
  return names.map(quoteName).join('.');
}

/** A SQL string literal. */
export function quoteString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
