import { ExecutionError, PlanningError } from '../../errors/sluice-error.js';
import { Decimal } from '../../types/decimal.js';
import type { LogicalType } from '../../types/logical-type.js';
import { valuesEqual } from '../../types/values/equality.js';
import type { RexNode } from './rex-node.js';
import { castValue, coerceNumeric, compareValues, toBigInt, toDecimal, toNumber, wrapInt } from './value-ops.js';

/** A compiled scalar expression over one input row's fields. Pure and synchronous; hot path. */
export type CompiledExpr = (fields: readonly unknown[]) => unknown;

/** Session settings compiled expressions read. */
export interface CompileOptions {
  readonly timeZone: string;
}

const DEFAULT_OPTIONS: CompileOptions = { timeZone: 'UTC' };

/**
 * Turns a bound expression into a closure tree built once per operator instance. Null handling
 * follows SQL: most operators are strict (NULL in, NULL out); AND/OR use three-valued logic.
 */
export function compileRex(node: RexNode, options: CompileOptions = DEFAULT_OPTIONS): CompiledExpr {
  switch (node.kind) {
    case 'input-ref': {
      const i = node.index;
      return (f) => f[i];
    }
    case 'literal': {
      const v = node.value;
      return () => v;
    }
    case 'call':
      return compileCall(node.op, node.operands, node.type, options, node.impl);
    default: {
      const never: never = node;
      return never;
    }
  }
}

function strict1(a: CompiledExpr, f: (x: unknown) => unknown): CompiledExpr {
  return (r) => {
    const x = a(r);
    return x === null ? null : f(x);
  };
}

function strict2(a: CompiledExpr, b: CompiledExpr, f: (x: unknown, y: unknown) => unknown): CompiledExpr {
  return (r) => {
    const x = a(r);
    if (x === null) return null;
    const y = b(r);
    return y === null ? null : f(x, y);
  };
}

function arithmetic(op: string, t: LogicalType): (x: unknown, y: unknown) => unknown {
  switch (t.kind) {
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT': {
      const k = t.kind;
      switch (op) {
        case '+':
          return (x, y) => wrapInt((x as number) + (y as number), k);
        case '-':
          return (x, y) => wrapInt((x as number) - (y as number), k);
        case '*':
          return (x, y) => wrapInt(Math.imul(x as number, y as number), k);
        case '/':
          return (x, y) => {
            if (y === 0) throw new ExecutionError('Division by zero.');
            return wrapInt(Math.trunc((x as number) / (y as number)), k);
          };
        default:
          return (x, y) => {
            if (y === 0) throw new ExecutionError('Division by zero.');
            return (x as number) % (y as number);
          };
      }
    }
    case 'BIGINT':
      return (x, y) => {
        const a = toBigInt(x);
        const b = toBigInt(y);
        switch (op) {
          case '+':
            return BigInt.asIntN(64, a + b);
          case '-':
            return BigInt.asIntN(64, a - b);
          case '*':
            return BigInt.asIntN(64, a * b);
          default:
            if (b === 0n) throw new ExecutionError('Division by zero.');
            return op === '/' ? a / b : a % b;
        }
      };
    case 'DECIMAL': {
      const p = t.precision;
      const s = t.scale;
      return (x, y) => {
        const a = toDecimal(x);
        const b = toDecimal(y);
        let r: Decimal;
        switch (op) {
          case '+':
            r = a.add(b);
            break;
          case '-':
            r = a.subtract(b);
            break;
          case '*':
            r = a.multiply(b);
            break;
          case '/':
            if (b.isZero()) throw new ExecutionError('Division by zero.');
            r = a.divide(b, s);
            break;
          default:
            if (b.isZero()) throw new ExecutionError('Division by zero.');
            r = a.remainder(b);
        }
        return r.toPrecision(p, s);
      };
    }
    case 'FLOAT':
    case 'DOUBLE': {
      const round = t.kind === 'FLOAT' ? Math.fround : (n: number) => n;
      switch (op) {
        case '+':
          return (x, y) => round(toNumber(x) + toNumber(y));
        case '-':
          return (x, y) => round(toNumber(x) - toNumber(y));
        case '*':
          return (x, y) => round(toNumber(x) * toNumber(y));
        case '/':
          return (x, y) => round(toNumber(x) / toNumber(y));
        default:
          return (x, y) => round(toNumber(x) % toNumber(y));
      }
    }
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
    case 'DATE':
    case 'TIME':
      // datetime +/- interval (ms); DATE arithmetic in days is done by the binder via CAST.
      return op === '+' ? (x, y) => toNumber(x) + toNumber(y) : (x, y) => toNumber(x) - toNumber(y);
    default:
      return op === '+' ? (x, y) => toNumber(x) + toNumber(y) : (x, y) => toNumber(x) - toNumber(y);
  }
}

function compileCall(
  op: string,
  operands: readonly RexNode[],
  type: LogicalType,
  options: CompileOptions,
  impl: ((args: readonly unknown[]) => unknown) | undefined,
): CompiledExpr {
  const args = operands.map((o) => compileRex(o, options));
  const a = args[0]!;
  const b = args[1]!;
  if (impl !== undefined) {
    return (r) => impl(args.map((f) => f(r)));
  }
  switch (op) {
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
    case 'MOD':
      return strict2(a, b, arithmetic(op === 'MOD' ? '%' : op, type));
    case 'NEGATE':
      return strict1(a, (x) => (x instanceof Decimal ? x.negate() : typeof x === 'bigint' ? BigInt.asIntN(64, -x) : -(x as number)));
    case '=':
      return strict2(a, b, (x, y) => compareValues(x, y) === 0);
    case '<>':
      return strict2(a, b, (x, y) => compareValues(x, y) !== 0);
    case '<':
      return strict2(a, b, (x, y) => compareValues(x, y) < 0);
    case '<=':
      return strict2(a, b, (x, y) => compareValues(x, y) <= 0);
    case '>':
      return strict2(a, b, (x, y) => compareValues(x, y) > 0);
    case '>=':
      return strict2(a, b, (x, y) => compareValues(x, y) >= 0);
    case 'AND':
      return (r) => {
        let sawNull = false;
        for (const f of args) {
          const v = f(r);
          if (v === false) return false;
          if (v === null) sawNull = true;
        }
        return sawNull ? null : true;
      };
    case 'OR':
      return (r) => {
        let sawNull = false;
        for (const f of args) {
          const v = f(r);
          if (v === true) return true;
          if (v === null) sawNull = true;
        }
        return sawNull ? null : false;
      };
    case 'NOT':
      return strict1(a, (x) => !x);
    case 'IS NULL':
      return (r) => a(r) === null;
    case 'IS NOT NULL':
      return (r) => a(r) !== null;
    case 'IS TRUE':
      return (r) => a(r) === true;
    case 'IS NOT TRUE':
      return (r) => a(r) !== true;
    case 'IS FALSE':
      return (r) => a(r) === false;
    case 'IS NOT FALSE':
      return (r) => a(r) !== false;
    case 'IS DISTINCT FROM':
      return (r) => !nullSafeEquals(a(r), b(r));
    case 'IS NOT DISTINCT FROM':
      return (r) => nullSafeEquals(a(r), b(r));
    case 'CASE': {
      // operands: when1, then1, when2, then2, ..., else
      const n = args.length - 1;
      const elseExpr = args[n]!;
      return (r) => {
        for (let i = 0; i < n; i += 2) if (args[i]!(r) === true) return args[i + 1]!(r);
        return elseExpr(r);
      };
    }
    case 'COALESCE':
      return (r) => {
        for (const f of args) {
          const v = f(r);
          if (v !== null) return v;
        }
        return null;
      };
    case 'IN': {
      const list = args.slice(1);
      return (r) => {
        const x = a(r);
        if (x === null) return null;
        let sawNull = false;
        for (const f of list) {
          const y = f(r);
          if (y === null) sawNull = true;
          else if (compareValues(x, y) === 0) return true;
        }
        return sawNull ? null : false;
      };
    }
    case 'CAST':
    case 'TRY_CAST': {
      const from = operands[0]!.type;
      const tryCast = op === 'TRY_CAST';
      return strict1(a, (x) => {
        let v: unknown;
        try {
          v = castValue(x, from, type, options.timeZone);
        } catch (e) {
          if (tryCast) return null;
          throw e;
        }
        if (v === undefined || v === null) {
          if (tryCast) return null;
          throw new ExecutionError(`Cannot cast '${String(x)}' to ${type.kind}.`);
        }
        return v;
      });
    }
    case 'REINTERPRET':
      return a;
    case '||':
    case 'CONCAT':
      return (r) => {
        let s = '';
        for (const f of args) {
          const v = f(r);
          if (v === null) return null;
          s += v as string;
        }
        return s;
      };
    case 'UPPER':
      return strict1(a, (x) => (x as string).toUpperCase());
    case 'LOWER':
      return strict1(a, (x) => (x as string).toLowerCase());
    case 'CHAR_LENGTH':
      return strict1(a, (x) => (x as string).length);
    case 'ABS':
      return strict1(a, (x) => (x instanceof Decimal ? x.abs() : typeof x === 'bigint' ? (x < 0n ? -x : x) : Math.abs(x as number)));
    case 'LIKE':
    case 'NOT LIKE': {
      const negate = op === 'NOT LIKE';
      let cached: { p: string; re: RegExp } | undefined;
      return strict2(a, b, (x, p) => {
        if (cached === undefined || cached.p !== p) cached = { p: p as string, re: likeToRegExp(p as string) };
        const m = cached.re.test(x as string);
        return negate ? !m : m;
      });
    }
    case 'IF':
      return (r) => (a(r) === true ? b(r) : args[2]!(r));
    case 'NULLIF':
      return (r) => {
        const x = a(r);
        const y = b(r);
        return x !== null && y !== null && compareValues(x, y) === 0 ? null : x;
      };
    case 'ITEM':
      return strict2(a, b, (c, k) => {
        if (c instanceof Map) {
          for (const [mk, mv] of c) if (valuesEqual(mk, k)) return mv;
          return null;
        }
        const arr = c as unknown[];
        const i = toNumber(k);
        return i >= 1 && i <= arr.length ? arr[i - 1] : null;
      });
    case 'FIELD':
      return strict2(a, b, (c, i) => (c as unknown[])[i as number] ?? null);
    case 'ROW':
    case 'ARRAY':
      return (r) => args.map((f) => f(r));
    case 'MAP':
      return (r) => {
        const m = new Map<unknown, unknown>();
        for (let i = 0; i + 1 < args.length; i += 2) m.set(args[i]!(r), args[i + 1]!(r));
        return m;
      };
    case 'PROCTIME':
    case 'NOW':
    case 'CURRENT_TIMESTAMP':
    case 'LOCALTIMESTAMP':
      return () => Date.now();
    case 'GREATEST':
    case 'LEAST': {
      const sign = op === 'GREATEST' ? 1 : -1;
      return (r) => {
        let best: unknown = null;
        for (const f of args) {
          const v = f(r);
          if (v === null) return null;
          if (best === null || sign * compareValues(v, best) > 0) best = v;
        }
        return best === null ? null : coerceNumericIfNeeded(best, type);
      };
    }
    default:
      throw new PlanningError(`No implementation for function '${op}'.`);
  }
}

function coerceNumericIfNeeded(v: unknown, t: LogicalType): unknown {
  return typeof v === 'string' || typeof v === 'boolean' ? v : coerceNumeric(v, t);
}

function nullSafeEquals(x: unknown, y: unknown): boolean {
  if (x === null || y === null) return x === y;
  return compareValues(x, y) === 0;
}

/** SQL LIKE pattern (with `%`, `_` and backslash escapes) to an anchored RegExp. */
export function likeToRegExp(pattern: string): RegExp {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) re += escapeRe(pattern[++i]!);
    else if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else re += escapeRe(c);
  }
  return new RegExp(re + '$');
}

function escapeRe(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
