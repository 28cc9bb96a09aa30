import type { ObjectName } from '../sql/ast/names.js';
import type { Statement } from '../sql/ast/statements.js';
import { tokenize } from '../sql/lexer/lexer.js';
import { SourceText } from '../sql/source-text.js';
import { unparseStatement } from '../sql/unparse.js';

/** What a statement names that only the cluster knows. */
export interface ClusterOnlyReference {
  readonly kind: 'function' | 'table';
  readonly name: string;
}

/**
 * The objects of a cluster session that Sluice's shadow session cannot hold: functions whose code is Java
 * (or Scala, Python) and that the cluster loads from its jars, so their signatures are unknown here, and the
 * views and tables defined on top of them. A statement that names one is validated by the cluster rather
 * than the shadow, whose planner would refuse the call as an unknown function.
 *
 * Names are matched by their last part (`cat.db.f` as `f`), functions case-insensitively as Flink resolves
 * them: a false match only leaves one more statement to the cluster's validation, never skips a check.
 */
export class ClusterOnlyObjects {
  private readonly functions = new Set<string>();
  private readonly tables = new Set<string>();

  addFunction(name: ObjectName): void {
    this.functions.add(lastPart(name).toLowerCase());
  }

  /** Forgets a dropped function; false when the shadow holds it instead. */
  dropFunction(name: ObjectName): boolean {
    return this.functions.delete(lastPart(name).toLowerCase());
  }

  addTable(name: ObjectName): void {
    this.tables.add(lastPart(name));
  }

  /** Forgets a dropped view or table; false when the shadow holds it instead. */
  dropTable(name: ObjectName): boolean {
    return this.tables.delete(lastPart(name));
  }

  /**
   * The first cluster-only function that `stmt` calls (a name before `(`) or view or table it names, or
   * undefined. Read from the statement's tokens, so every place a name can appear counts (FROM, LATERAL
   * TABLE, computed columns, subqueries, EXPLAIN, statement sets) without a walk over each syntax node.
   */
  referencedBy(stmt: Statement): ClusterOnlyReference | undefined {
    if (this.functions.size === 0 && this.tables.size === 0) return undefined;
    const tokens = tokenize(new SourceText(unparseStatement(stmt)));
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (t.type !== 'word' && t.type !== 'quoted-ident') continue;
      const next = tokens[i + 1];
      if (next?.type === 'symbol' && next.value === '(' && this.functions.has(t.value.toLowerCase())) return { kind: 'function', name: t.value };
      if (this.tables.has(t.value)) return { kind: 'table', name: t.value };
    }
    return undefined;
  }
}

function lastPart(name: ObjectName): string {
  return name.parts.at(-1) ?? '';
}
