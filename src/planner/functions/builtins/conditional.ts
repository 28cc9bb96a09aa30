import { PlanningError } from '../../../errors/sluice-error.js';
import { DataTypes } from '../../../types/data-types.js';
import { withNullability } from '../../../types/logical-type.js';
import type { LogicalType } from '../../../types/logical-type.js';
import { typeToString } from '../../../types/type-to-string.js';
import type { CallExpr } from '../../expressions/bound-expr.js';
import type { CodegenScope } from '../../expressions/codegen-scope.js';
import { makeCaster } from '../../expressions/cast.js';
import { runtime } from '../../expressions/runtime.js';
import { commonType, sqlTypeName } from '../../expressions/type-rules.js';
import { fn, scalar } from '../define.js';
import type { ScalarFunctionDefinition } from '../function-definition.js';
import { compareCode } from './comparison.js';

/** COALESCE, IF, NULLIF, GREATEST & co.: lazily evaluated where SQL says later operands may not run. */

function common(name: string, types: readonly LogicalType[]): LogicalType {
  const t = commonType(types);
  if (t === undefined) {
    throw new PlanningError(`Cannot apply '${name}' to arguments of type '${name}(${types.map((x) => `<${sqlTypeName(x)}>`).join(', ')})': the arguments have no common type.`);
  }
  return t;
}

/** COALESCE(a, b, ...): the first non-null, evaluating operands only until one is found. */
function coalesceGen(call: CallExpr, g: CodegenScope): string {
  const v = g.fresh();
  const step = (i: number): void => {
    if (i === call.operands.length) return;
    const x = g.gen(call.operands[i]!);
    if (!call.operands[i]!.type.nullable) {
      g.emit(`${v} = ${x};`);
      return;
    }
    const rest = g.block(() => step(i + 1));
    g.emit(`if (${x} !== null) { ${v} = ${x}; } else {\n${rest}\n}`);
  };
  step(0);
  return v;
}

function coalesceLike(name: string, arity?: number): ScalarFunctionDefinition {
  return scalar({
    name,
    signatures: [arity === undefined ? ['ANY'] : Array<'ANY'>(arity).fill('ANY')],
    variadic: arity === undefined,
    coerce: (ts) => {
      const t = common(name, ts);
      return ts.map(() => t);
    },
    result: (ts) => withNullability(common(name, ts), ts.every((t) => t.nullable)),
    nulls: 'type',
    codegen: { kind: 'custom', gen: coalesceGen },
  });
}

const ifFn = scalar({
  name: 'IF',
  signatures: [['BOOLEAN', 'ANY', 'ANY']],
  coerce: (ts) => {
    const t = common('IF', ts.slice(1));
    return [ts[0]!, t, t];
  },
  result: (ts) => common('IF', ts.slice(1)),
  nulls: 'type',
  codegen: {
    kind: 'custom',
    gen(call, g) {
      const v = g.fresh();
      const c = g.gen(call.operands[0]!);
      const a = g.block(() => g.emit(`${v} = ${g.gen(call.operands[1]!)};`));
      const b = g.block(() => g.emit(`${v} = ${g.gen(call.operands[2]!)};`));
      g.emit(`if (${c} === true) {\n${a}\n} else {\n${b}\n}`);
      return v;
    },
  },
});

const nullif = scalar({
  name: 'NULLIF',
  signatures: [['ANY', 'ANY']],
  // NULLIF(a, b) is CASE WHEN a = b THEN NULL ELSE a END: the comparison is made in the common type (where a
  // DECIMAL may round: NULLIF(1.50, CAST(2 AS DECIMAL(38, 0))) is NULL on Flink 2.3), but a comes back as it was.
  coerce: (ts) => {
    const t = common('NULLIF', ts);
    return [ts[0]!.kind === 'NULL' ? t : ts[0]!, t];
  },
  result: (ts) => withNullability(ts[0]!, true),
  nulls: 'type',
  codegen: {
    kind: 'custom',
    gen(call, g) {
      const a = g.gen(call.operands[0]!);
      const b = g.gen(call.operands[1]!);
      const ta = call.operands[0]!.type;
      const tb = call.operands[1]!.type;
      if (typeToString(withNullability(ta, true)) === typeToString(withNullability(tb, true))) {
        return `(${a} !== null && ${b} !== null && ${compareCode('=', a, b, ta)} ? null : ${a})`;
      }
      const inCommon = g.fresh();
      g.emit(`${inCommon} = ${a} === null ? null : ${g.constant(makeCaster(ta, tb, g.options.timeZone ?? 'UTC'))}(${a});`);
      return `(${inCommon} !== null && ${b} !== null && ${compareCode('=', inCommon, b, tb)} ? null : ${a})`;
    },
  },
});

function greatestLeast(name: 'GREATEST' | 'LEAST'): ScalarFunctionDefinition {
  const pick = (...xs: unknown[]): unknown => {
    let best = xs[0];
    for (let i = 1; i < xs.length; i++) {
      const c = runtime.compare(xs[i], best);
      if (name === 'GREATEST' ? c > 0 : c < 0) best = xs[i];
    }
    return best;
  };
  return scalar({
    name,
    signatures: [['ANY']],
    variadic: true,
    coerce: (ts) => {
      const t = common(name, ts);
      return ts.map(() => t);
    },
    result: (ts) => common(name, ts),
    codegen: fn(pick),
  });
}

const typeOf = scalar({
  name: 'TYPEOF',
  signatures: [['ANY'], ['ANY', 'BOOLEAN']],
  result: DataTypes.STRING(),
  nulls: 'not-null',
  codegen: { kind: 'custom', gen: (call) => JSON.stringify(typeToString(call.operands[0]!.type)) },
});

export function conditionalFunctions(): ScalarFunctionDefinition[] {
  return [
    coalesceLike('COALESCE'),
    coalesceLike('IFNULL', 2),
    ifFn,
    nullif,
    greatestLeast('GREATEST'),
    greatestLeast('LEAST'),
    typeOf,
    scalar({ name: 'IS_DIGIT', signatures: [['STRING']], result: DataTypes.BOOLEAN(), nulls: 'not-null', codegen: { kind: 'custom', gen: (c, g) => { const x = g.gen(c.operands[0]!); return `(${x} !== null && /^[0-9]+$/.test(${x}))`; } } }),
    scalar({ name: 'IS_ALPHA', signatures: [['STRING']], result: DataTypes.BOOLEAN(), nulls: 'not-null', codegen: { kind: 'custom', gen: (c, g) => { const x = g.gen(c.operands[0]!); return `(${x} !== null && /^[A-Za-z]+$/.test(${x}))`; } } }),
    scalar({ name: 'IS_DECIMAL', signatures: [['STRING']], result: DataTypes.BOOLEAN(), nulls: 'not-null', codegen: { kind: 'custom', gen: (c, g) => { const x = g.gen(c.operands[0]!); return `(${x} !== null && /^[+-]?(\\d+\\.?\\d*|\\.\\d+)$/.test(${x}))`; } } }),
  ];
}
