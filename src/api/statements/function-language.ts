import type { CreateFunctionStatement } from '../../sql/ast/ddl.js';

export type FunctionLanguage = NonNullable<CreateFunctionStatement['language']>;

/**
 * The language a CREATE FUNCTION statement's function is written in: its LANGUAGE clause; without one, what the
 * identifier is. A module path ('./udf.js', 'udfs.mjs#twice', '/abs/udf') is JavaScript; a class that
 * `USING JAR` names a jar for is Java. Undefined when the statement leaves it open ('com.example.F' or
 * 'my-udfs' alone): Sluice then takes the identifier for a module, as its default language is JavaScript,
 * and a Flink cluster for a Java class, as Flink's default is Java.
 */
export function functionLanguage(stmt: CreateFunctionStatement): FunctionLanguage | undefined {
  if (stmt.language !== null) return stmt.language;
  if (looksLikeModule(stmt.className)) return 'JAVASCRIPT';
  if (stmt.jars.length > 0) return 'JAVA';
  return undefined;
}

/** A JavaScript module reference: an export after `#`, a script's extension, or a path. */
function looksLikeModule(identifier: string): boolean {
  return identifier.includes('#') || /\.(m|c)?js$/.test(identifier) || /^(\.{1,2}\/|\/)/.test(identifier);
}

/** A Java class name as Flink takes it: dot-separated identifiers, e.g. `com.example.MyFunction`. */
export function looksLikeJavaClass(identifier: string): boolean {
  return /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/.test(identifier);
}
