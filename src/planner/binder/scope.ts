import { ValidationError } from '../../errors/sluice-error.js';
import type { LogicalType } from '../../types/logical-type.js';
import type { PlanField } from '../logical/plan-node.js';
import { call, inputRef, literal } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { didYouMean } from './suggest.js';
import { DataTypes } from '../../types/data-types.js';

/** A column visible in a FROM scope: which table alias it belongs to and where it sits in the input row. */
export interface ScopeColumn {
  readonly qualifier: string | null;
  readonly name: string;
  readonly type: LogicalType;
}

/**
 * The columns an expression may reference, in input-row order (joins concatenate their sides).
 * Flink identifiers are case-sensitive, so lookups are exact; suggestions ignore case.
 */
export class Scope {
  constructor(readonly columns: readonly ScopeColumn[]) {}

  static of(fields: readonly PlanField[], qualifier: string | null): Scope {
    return new Scope(fields.map((f) => ({ qualifier, name: f.name, type: f.type })));
  }

  /** Concatenation of two scopes (a join's input row is left fields then right fields). */
  concat(other: Scope): Scope {
    return new Scope([...this.columns, ...other.columns]);
  }

  qualifiers(): Set<string> {
    return new Set(this.columns.flatMap((c) => (c.qualifier === null ? [] : [c.qualifier])));
  }

  /** Indexes of the columns of `qualifier` (for `t.*`), or undefined when no such table. */
  columnsOf(qualifier: string): number[] | undefined {
    const out: number[] = [];
    this.columns.forEach((c, i) => {
      if (c.qualifier === qualifier) out.push(i);
    });
    return out.length === 0 ? undefined : out;
  }

  /**
   * Resolves `a`, `t.a`, `a.f.g` or `t.a.f` to an input reference plus nested ROW field accesses.
   * @throws ValidationError for unknown or ambiguous columns, naming the closest column.
   */
  resolve(names: readonly string[]): RexNode {
    const first = names[0]!;
    if (names.length >= 2 && this.qualifiers().has(first)) {
      const idx = this.find(names[1]!, first);
      if (idx !== undefined) return fieldPath(this.ref(idx), names.slice(2));
      const cols = this.columns.filter((c) => c.qualifier === first).map((c) => c.name);
      throw new ValidationError(`Column '${names[1]}' not found in table '${first}'${didYouMean(names[1]!, cols)}`);
    }
    const idx = this.find(first, null);
    if (idx !== undefined) return fieldPath(this.ref(idx), names.slice(1));
    const all = this.columns.map((c) => c.name);
    throw new ValidationError(`Column '${first}' not found in any table${didYouMean(first, all)}`);
  }

  private ref(i: number): RexNode {
    const c = this.columns[i]!;
    return inputRef(i, c.name, c.type);
  }

  private find(name: string, qualifier: string | null): number | undefined {
    let found: number | undefined;
    for (let i = 0; i < this.columns.length; i++) {
      const c = this.columns[i]!;
      if (c.name !== name || (qualifier !== null && c.qualifier !== qualifier)) continue;
      if (found !== undefined) throw new ValidationError(`Column '${name}' is ambiguous`);
      found = i;
    }
    return found;
  }
}

/** `r.f.g`: nested ROW field accesses. */
function fieldPath(base: RexNode, path: readonly string[]): RexNode {
  let cur = base;
  for (const name of path) {
    const t = cur.type;
    if (t.kind !== 'ROW') throw new ValidationError(`Column '${name}' not found: '${describe(cur)}' is not a ROW`);
    const i = t.fields.findIndex((f) => f.name === name);
    if (i < 0) {
      throw new ValidationError(`Field '${name}' not found in ROW '${describe(cur)}'${didYouMean(name, t.fields.map((f) => f.name))}`);
    }
    const ft = t.fields[i]!.type;
    cur = call('FIELD', [cur, literal(i, DataTypes.INT())], t.nullable ? { ...ft, nullable: true } : ft);
  }
  return cur;
}

function describe(n: RexNode): string {
  return n.kind === 'input-ref' ? n.name : n.kind;
}
