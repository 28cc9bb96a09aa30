import { DataTypes } from '../../../types/data-types.js';
import { toDecimalType } from '../../../types/decimal-type-rules.js';
import { isTimestamp, withNullability } from '../../../types/logical-type.js';
import type { LogicalType } from '../../../types/logical-type.js';
import type { BoundExpr, CallExpr } from '../../expressions/bound-expr.js';
import type { CodegenScope } from '../../expressions/codegen-scope.js';
import { runtime } from '../../expressions/runtime.js';
import { cannotApply, commonType, comparisonTypes, isExactNumeric } from '../../expressions/type-rules.js';
import type { NumericComparison } from '../../expressions/type-rules.js';
import { expr, scalar } from '../define.js';
import type { ScalarFunctionDefinition } from '../function-definition.js';
import { likeToRegExp, similarToRegExp } from './like.js';

/** Comparison and logical operators with SQL three-valued logic. */

type CmpOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

/** JS for `a op b` of two non-null values of `type`. */
export function compareCode(op: CmpOp, a: string, b: string, type: LogicalType): string {
  const jsOp = op === '=' ? '===' : op === '<>' ? '!==' : op;
  switch (type.kind) {
    case 'DECIMAL':
      // A DECIMAL typed NOT NULL can still be NULL here: a SUM whose total overflows its type is NULL, as in
      // Flink, whose filters then drop the row (HAVING SUM(x) > 0 keeps none) rather than fail.
      return `(${a} !== null && ${b} !== null && ${a}.compareTo(${b}) ${jsOp} 0)`;
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      // Up to TIMESTAMP(3) a value is a number (epoch ms); finer ones may be PreciseTimestamps (precise-timestamp.ts).
      if (type.precision <= 3) return `(${a} ${jsOp} ${b})`;
      if (op === '=') return `rt.eq(${a}, ${b})`;
      if (op === '<>') return `!rt.eq(${a}, ${b})`;
      return `(rt.compare(${a}, ${b}) ${jsOp} 0)`;
    case 'BINARY':
    case 'VARBINARY':
    case 'ARRAY':
    case 'ROW':
    case 'MAP':
    case 'MULTISET':
      if (op === '=') return `rt.eq(${a}, ${b})`;
      if (op === '<>') return `!rt.eq(${a}, ${b})`;
      return `(rt.compare(${a}, ${b}) ${jsOp} 0)`;
    default:
      return `(${a} ${jsOp} ${b})`;
  }
}

function comparisonCoercion(name: string, argTypes: readonly LogicalType[]): readonly LogicalType[] {
  const [a, b] = argTypes as [LogicalType, LogicalType];
  const ts = comparisonTypes(a, b, name === '=' || name === '<>' ? 'least-restrictive' : 'exact');
  if (ts === undefined || (op(name) !== '=' && op(name) !== '<>' && (a.kind === 'MAP' || a.kind === 'MULTISET'))) {
    throw cannotApply(name, argTypes, [`<COMPARABLE_TYPE> ${name} <COMPARABLE_TYPE>`], true);
  }
  return ts;
}

function op(name: string): CmpOp {
  return name as CmpOp;
}

function comparison(name: CmpOp): ScalarFunctionDefinition {
  return scalar({
    name,
    signatures: [['ANY', 'ANY']],
    infix: true,
    coerce: (argTypes) => comparisonCoercion(name, argTypes),
    result: DataTypes.BOOLEAN(),
    codegen: { kind: 'strict', expr: (args, call) => compareCode(name, args[0]!, args[1]!, call.operands[0]!.type) },
  });
}

/** AND / OR over any number of operands, lazily: later operands run only when they can change the result. */
function logical(name: 'AND' | 'OR'): ScalarFunctionDefinition {
  const decisive = name === 'AND' ? 'false' : 'true';
  return scalar({
    name,
    signatures: [['BOOLEAN', 'BOOLEAN']],
    variadic: true,
    infix: true,
    result: DataTypes.BOOLEAN(),
    codegen: {
      kind: 'custom',
      gen(call: CallExpr, g: CodegenScope): string {
        const v = g.fresh();
        const sawNull = g.fresh('n');
        // A labelled block left with `break` keeps the code flat however many operands there are
        // (nested if/else per operand would nest 100,000 deep for a long generated OR chain).
        const label = g.fresh('L');
        g.emit(`${sawNull} = false;`);
        const body = g.block(() => {
          for (const operand of call.operands) {
            const x = g.gen(operand);
            g.emit(`if (${x} === ${decisive}) { ${v} = ${decisive}; break ${label}; }\nif (${x} === null) ${sawNull} = true;`);
          }
          g.emit(`${v} = ${sawNull} ? null : ${name === 'AND' ? 'true' : 'false'};`);
        });
        g.emit(`${label}: {\n${body}\n}`);
        return v;
      },
    },
  });
}

function nullTest(name: string, code: (x: string) => string): ScalarFunctionDefinition {
  return scalar({
    name,
    signatures: [['ANY']],
    result: DataTypes.BOOLEAN(),
    nulls: 'not-null',
    codegen: { kind: 'custom', gen: (call, g) => code(g.gen(call.operands[0]!)) },
  });
}

function boolTest(name: string, code: (x: string) => string): ScalarFunctionDefinition {
  return scalar({
    name,
    signatures: [['BOOLEAN']],
    result: DataTypes.BOOLEAN(),
    nulls: 'not-null',
    codegen: { kind: 'custom', gen: (call, g) => code(g.gen(call.operands[0]!)) },
  });
}

function distinctFrom(name: string, negated: boolean): ScalarFunctionDefinition {
  return scalar({
    name,
    signatures: [['ANY', 'ANY']],
    infix: true,
    coerce: (argTypes) => comparisonCoercion(name, argTypes),
    result: DataTypes.BOOLEAN(),
    nulls: 'not-null',
    codegen: {
      kind: 'custom',
      gen(call, g) {
        const a = g.gen(call.operands[0]!);
        const b = g.gen(call.operands[1]!);
        const eqCode = compareCode('=', a, b, call.operands[0]!.type);
        const distinct = `(${a} === null ? ${b} !== null : ${b} === null ? true : !${eqCode})`;
        return negated ? `!${distinct}` : distinct;
      },
    },
  });
}

/** Three-valued AND of two nullable booleans. */
function and3(a: boolean | null, b: boolean | null): boolean | null {
  if (a === false || b === false) return false;
  return a === null || b === null ? null : true;
}

function or3(a: boolean | null, b: boolean | null): boolean | null {
  if (a === true || b === true) return true;
  return a === null || b === null ? null : false;
}

function betweenFn(x: unknown, lo: unknown, hi: unknown, symmetric: boolean, negated: boolean): boolean | null {
  if (x === null) return null;
  const ge = (a: unknown, b: unknown): boolean | null => (a === null || b === null ? null : runtime.compare(a, b) >= 0);
  let r = and3(ge(x, lo), ge(hi, x));
  if (symmetric) r = or3(r, and3(ge(x, hi), ge(lo, x)));
  return negated ? (r === null ? null : !r) : r;
}

function between(name: string, symmetric: boolean, negated: boolean): ScalarFunctionDefinition {
  const f = (x: unknown, lo: unknown, hi: unknown): boolean | null => betweenFn(x, lo, hi, symmetric, negated);
  return scalar({
    name,
    signatures: [['ANY', 'ANY', 'ANY']],
    // BETWEEN is >= AND <=: numbers compare by value.
    coerce: (argTypes) => comparableOperands(name, argTypes, 'exact'),
    result: DataTypes.BOOLEAN(),
    codegen: { kind: 'runtime', fn: f as (...args: never[]) => unknown },
  });
}

/**
 * Operand types of BETWEEN and IN: one common type, except that numbers compared `exact`ly (see
 * NumericComparison) keep a DECIMAL of their own each, compared by value.
 */
function comparableOperands(name: string, argTypes: readonly LogicalType[], numeric: NumericComparison): readonly LogicalType[] {
  let t: LogicalType | undefined = argTypes[0]!;
  for (let i = 1; i < argTypes.length && t !== undefined; i++) {
    const pair = comparisonTypes(t, argTypes[i]!, numeric);
    t = pair === undefined ? undefined : numeric === 'exact' && pair[0].kind === 'DECIMAL' && pair[1].kind === 'DECIMAL' ? pair[0] : commonType([pair[0], pair[1]]);
  }
  if (t === undefined) throw cannotApply(name, argTypes, [`${name}(<COMPARABLE_TYPE>, ...)`]);
  const common = t;
  const decimals = numeric === 'exact' && common.kind === 'DECIMAL' && argTypes.every((a) => a.kind === 'NULL' || isExactNumeric(a));
  return argTypes.map((a) => (decimals && a.kind !== 'NULL' ? withNullability(toDecimalType(a)!, a.nullable) : common));
}

/** CAST(literal AS t) counts as a literal: Calcite folds it into one before it builds a SEARCH. */
function isLiteralOperand(e: BoundExpr): boolean {
  return e.kind === 'literal' || (e.kind === 'cast' && isLiteralOperand(e.operand));
}

function inList(name: string, negated: boolean): ScalarFunctionDefinition {
  return scalar({
    name,
    signatures: [['ANY', 'ANY']],
    variadic: true,
    // A list of literals becomes a SEARCH over the least-restrictive type (values round into it); any other list
    // is an OR of comparisons made without casts, so by value.
    coerce: (argTypes, binding) =>
      comparableOperands(name, argTypes, binding.operands.slice(1).every(isLiteralOperand) ? 'least-restrictive' : 'exact'),
    result: DataTypes.BOOLEAN(),
    codegen: {
      kind: 'custom',
      gen(call, g) {
        const x = g.gen(call.operands[0]!);
        const items = call.operands.slice(1);
        const v = g.fresh();
        const t = call.operands[0]!.type;
        const primitive = !(isTimestamp(t) && t.precision > 3) && t.kind !== 'DECIMAL' && t.kind !== 'BINARY' && t.kind !== 'VARBINARY' && t.kind !== 'ARRAY' && t.kind !== 'ROW' && t.kind !== 'MAP' && t.kind !== 'FLOAT' && t.kind !== 'DOUBLE';
        const yes = negated ? 'false' : 'true';
        const no = negated ? 'true' : 'false';
        if (primitive && items.every((o) => o.kind === 'literal')) {
          const values = items.map((o) => (o.kind === 'literal' ? o.value : null));
          const hasNull = values.includes(null);
          const set = g.constant(new Set(values.filter((x) => x !== null)));
          g.emit(`if (${x} !== null) ${v} = ${set}.has(${x}) ? ${yes} : ${hasNull ? 'null' : no};`);
          return v;
        }
        const codes = items.map((o) => g.gen(o));
        g.emit(`if (${x} !== null) { ${v} = ${no}; for (const y of [${codes.join(', ')}]) { if (y === null) { ${v} = null; } else if (${compareCode('=', x, 'y', t)}) { ${v} = ${yes}; break; } } }`);
        return v;
      },
    },
  });
}

const regexCache = new Map<string, RegExp>();

function cachedRegex(key: string, make: () => RegExp): RegExp {
  let r = regexCache.get(key);
  if (r === undefined) {
    if (regexCache.size > 1000) regexCache.clear();
    r = make();
    regexCache.set(key, r);
  }
  return r;
}

function like(name: string, kind: 'LIKE' | 'ILIKE' | 'SIMILAR', negated: boolean): ScalarFunctionDefinition {
  const make = (p: string, esc: string | null): RegExp =>
    kind === 'SIMILAR' ? similarToRegExp(p, esc) : likeToRegExp(p, esc, kind === 'ILIKE');
  const f = (s: string, p: string, esc?: string): boolean => {
    const r = cachedRegex(`${kind}\u0000${esc ?? ''}\u0000${p}`, () => make(p, esc ?? null)).test(s);
    return negated ? !r : r;
  };
  return scalar({
    name,
    signatures: [['STRING', 'STRING'], ['STRING', 'STRING', 'STRING']],
    result: DataTypes.BOOLEAN(),
    codegen: {
      kind: 'strict',
      expr(args, call, g) {
        const p = call.operands[1]!;
        const e = call.operands[2];
        const escConst = e === undefined ? null : e.kind === 'literal' ? (e.value as string | null) : undefined;
        if (p.kind === 'literal' && typeof p.value === 'string' && escConst !== undefined) {
          const re = g.constant(make(p.value, escConst));
          return negated ? `!${re}.test(${args[0]})` : `${re}.test(${args[0]})`;
        }
        return `${g.constant(f)}(${args.join(', ')})`;
      },
    },
  });
}

const not = scalar({ name: 'NOT', signatures: [['BOOLEAN']], result: DataTypes.BOOLEAN(), codegen: expr(([a]) => `!${a}`) });

/** Every comparison and logical operator, keyed by registry name. */
export function comparisonFunctions(): ScalarFunctionDefinition[] {
  return [
    comparison('='),
    comparison('<>'),
    comparison('<'),
    comparison('<='),
    comparison('>'),
    comparison('>='),
    logical('AND'),
    logical('OR'),
    not,
    nullTest('IS NULL', (x) => `(${x} === null)`),
    nullTest('IS NOT NULL', (x) => `(${x} !== null)`),
    boolTest('IS TRUE', (x) => `(${x} === true)`),
    boolTest('IS NOT TRUE', (x) => `(${x} !== true)`),
    boolTest('IS FALSE', (x) => `(${x} === false)`),
    boolTest('IS NOT FALSE', (x) => `(${x} !== false)`),
    boolTest('IS UNKNOWN', (x) => `(${x} === null)`),
    boolTest('IS NOT UNKNOWN', (x) => `(${x} !== null)`),
    distinctFrom('IS DISTINCT FROM', false),
    distinctFrom('IS NOT DISTINCT FROM', true),
    between('BETWEEN', false, false),
    between('NOT BETWEEN', false, true),
    between('BETWEEN SYMMETRIC', true, false),
    between('NOT BETWEEN SYMMETRIC', true, true),
    inList('IN', false),
    inList('NOT IN', true),
    like('LIKE', 'LIKE', false),
    like('NOT LIKE', 'LIKE', true),
    like('ILIKE', 'ILIKE', false),
    like('NOT ILIKE', 'ILIKE', true),
    like('SIMILAR TO', 'SIMILAR', false),
    like('NOT SIMILAR TO', 'SIMILAR', true),
  ];
}
