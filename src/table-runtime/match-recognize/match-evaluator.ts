import type { MatchExpr, MatchRef } from './match-spec.js';

/** A row of a (partial) match: its feed sequence number, time, fields and the variable it is mapped to. */
export interface MatchedRow {
  readonly seq: number;
  readonly ts: number;
  readonly fields: readonly unknown[];
  readonly v: string;
}

/** Times a match is evaluated at: the processing time for MATCH_PROCTIME(). */
export interface EvalTimes {
  readonly proctime: number;
}

/**
 * Evaluates `expr` over `rows` (in match order; a DEFINE passes the partial match plus the candidate row,
 * mapped to the variable being tested, so `v.x` of that variable is the candidate's x). Errors in the
 * expression propagate; a NULL condition counts as false at the caller.
 */
export function evaluateMatchExpr(expr: MatchExpr, rows: readonly MatchedRow[], times: EvalTimes): unknown {
  const values = expr.refs.map((r) => refValue(r, rows, times));
  return expr.evaluate(values);
}

function refValue(ref: MatchRef, rows: readonly MatchedRow[], times: EvalTimes): unknown {
  switch (ref.kind) {
    case 'nav': {
      const at = navIndex(rows, ref.variable, ref.from, ref.offset);
      return at < 0 ? null : ref.value(rows[at]!.fields);
    }
    case 'agg': {
      const fn = ref.create();
      const acc = fn.createAccumulator();
      for (const r of rows) {
        if (ref.variable !== null && r.v !== ref.variable) continue;
        const args = ref.args.map((a) => a(r.fields));
        fn.accumulate(acc, ...args);
      }
      return fn.getValue(acc);
    }
    case 'match-rowtime':
      return rows.length === 0 ? null : rows[rows.length - 1]!.ts;
    case 'match-proctime':
      return times.proctime;
    default: {
      const never: never = ref;
      return never;
    }
  }
}

/** Index in `rows` of the offset-th first / last row of `variable` (null: any), or -1. */
function navIndex(rows: readonly MatchedRow[], variable: string | null, from: 'first' | 'last', offset: number): number {
  let seen = 0;
  if (from === 'last') {
    for (let i = rows.length - 1; i >= 0; i--) {
      if (variable !== null && rows[i]!.v !== variable) continue;
      if (seen++ === offset) return i;
    }
    return -1;
  }
  for (let i = 0; i < rows.length; i++) {
    if (variable !== null && rows[i]!.v !== variable) continue;
    if (seen++ === offset) return i;
  }
  return -1;
}
