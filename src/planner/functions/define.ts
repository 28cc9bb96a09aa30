import { DataTypes } from '../../types/data-types.js';
import { withNullability } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import {
  anyNullable,
  cannotApply,
  isBinaryString,
  isCharacterString,
  isDatetime,
  isExactNumeric,
  isIntegral,
  isInterval,
  isNumeric,
  isTimestamp,
} from '../expressions/type-rules.js';
import type { CallBinding, ScalarCodegen, ScalarFunctionDefinition } from './function-definition.js';

/**
 * A compact way to declare built-in scalar functions: operand families per accepted signature, a result
 * type rule, a nullability rule and the code generation. Planning-time only.
 */

/** Operand families as Calcite names them in "Supported form(s)". */
export type Family =
  | 'ANY'
  | 'NUMERIC'
  | 'EXACT_NUMERIC'
  | 'INTEGER'
  | 'STRING'
  | 'BINARY'
  | 'BOOLEAN'
  | 'DATE'
  | 'TIME'
  | 'TIMESTAMP'
  | 'DATETIME'
  | 'INTERVAL'
  | 'ARRAY'
  | 'MAP'
  | 'SYMBOL';

/** True when `t` belongs to `family`; the NULL type belongs to every family. */
export function inFamily(t: LogicalType, family: Family): boolean {
  if (t.kind === 'NULL') return family !== 'SYMBOL';
  switch (family) {
    case 'ANY':
      return true;
    case 'NUMERIC':
      return isNumeric(t);
    case 'EXACT_NUMERIC':
      return isExactNumeric(t);
    case 'INTEGER':
      return isIntegral(t);
    case 'STRING':
      return isCharacterString(t);
    case 'BINARY':
      return isBinaryString(t);
    case 'BOOLEAN':
      return t.kind === 'BOOLEAN';
    case 'DATE':
      return t.kind === 'DATE';
    case 'TIME':
      return t.kind === 'TIME';
    case 'TIMESTAMP':
      return isTimestamp(t);
    case 'DATETIME':
      return isDatetime(t);
    case 'INTERVAL':
      return isInterval(t);
    case 'ARRAY':
      return t.kind === 'ARRAY';
    case 'MAP':
      return t.kind === 'MAP';
    case 'SYMBOL':
      return t.kind === 'VARCHAR' && !t.nullable;
    default: {
      const never: never = family;
      return never;
    }
  }
}

/** Default type an untyped NULL operand takes for a family. */
const FAMILY_DEFAULT: Partial<Record<Family, LogicalType>> = {
  NUMERIC: DataTypes.DOUBLE(),
  EXACT_NUMERIC: DataTypes.INT(),
  INTEGER: DataTypes.INT(),
  STRING: DataTypes.STRING(),
  BINARY: DataTypes.BYTES(),
  BOOLEAN: DataTypes.BOOLEAN(),
  DATE: DataTypes.DATE(),
  TIMESTAMP: DataTypes.TIMESTAMP(3),
  DATETIME: DataTypes.TIMESTAMP(3),
};

/**
 * How the result's nullability follows from the operands: `strict` nullable iff any operand is,
 * `nullable` always, `not-null` never, `type` exactly as the result rule returns it.
 */
export type NullRule = 'strict' | 'nullable' | 'not-null' | 'type';

export interface ScalarSpec {
  readonly name: string;
  /** Accepted signatures; a trailing `...` family repeats (variadic). Empty list: any operands. */
  readonly signatures: readonly (readonly Family[])[];
  /** Repeat the last family of each signature any number of times (CONCAT, COALESCE). */
  readonly variadic?: boolean;
  readonly result: LogicalType | ((argTypes: readonly LogicalType[], binding: CallBinding) => LogicalType);
  readonly nulls?: NullRule;
  /** Target operand types (undefined keeps an operand); by default NULL operands take the family default. */
  readonly coerce?: (argTypes: readonly LogicalType[], binding: CallBinding) => readonly (LogicalType | undefined)[] | undefined;
  readonly codegen: ScalarCodegen;
  readonly deterministic?: boolean;
  /** Print binary forms infix in error messages (`<A> + <B>`). */
  readonly infix?: boolean;
}

function matches(argTypes: readonly LogicalType[], sig: readonly Family[], variadic: boolean): boolean {
  if (variadic) {
    if (argTypes.length < sig.length - 1) return false;
  } else if (argTypes.length !== sig.length) {
    return false;
  }
  return argTypes.every((t, i) => inFamily(t, sig[Math.min(i, sig.length - 1)]!));
}

function formString(name: string, sig: readonly Family[], variadic: boolean, infix: boolean): string {
  const parts = sig.map((f) => `<${f}>`);
  if (variadic) parts.push('...');
  if (infix && sig.length === 2) return `${parts[0]} ${name} ${parts[1]}`;
  if (infix && sig.length === 1) return `${name}${parts[0]}`;
  return `${name}(${parts.join(', ')})`;
}

/** Build a scalar definition from a spec. */
export function scalar(spec: ScalarSpec): ScalarFunctionDefinition {
  const variadic = spec.variadic === true;
  const infix = spec.infix === true;
  const check = (argTypes: readonly LogicalType[]): readonly Family[] => {
    if (spec.signatures.length === 0) return [];
    const sig = spec.signatures.find((s) => matches(argTypes, s, variadic));
    if (sig === undefined) {
      throw cannotApply(spec.name, argTypes, spec.signatures.map((s) => formString(spec.name, s, variadic, infix)), infix);
    }
    return sig;
  };
  return {
    kind: 'scalar',
    name: spec.name,
    deterministic: spec.deterministic ?? true,
    coerceOperands(argTypes, binding) {
      const sig = check(argTypes);
      const custom = spec.coerce?.(argTypes, binding);
      if (custom !== undefined) return custom.map((t, i) => t ?? argTypes[i]!);
      if (!argTypes.some((t) => t.kind === 'NULL')) return undefined;
      return argTypes.map((t, i) => (t.kind === 'NULL' ? FAMILY_DEFAULT[sig[Math.min(i, sig.length - 1)] ?? 'ANY'] ?? t : t));
    },
    inferType(argTypes, binding) {
      check(argTypes);
      const t = typeof spec.result === 'function' ? spec.result(argTypes, binding) : spec.result;
      switch (spec.nulls ?? 'strict') {
        case 'strict':
          return withNullability(t, anyNullable(argTypes.filter((_, i) => binding.operands[i]?.kind !== 'symbol')));
        case 'nullable':
          return withNullability(t, true);
        case 'not-null':
          return withNullability(t, false);
        case 'type':
          return t;
        default:
          return t;
      }
    },
    codegen: spec.codegen,
  };
}

/** Codegen: a JS expression template over non-null operand values. */
export function expr(template: (args: readonly string[]) => string): ScalarCodegen {
  return { kind: 'strict', expr: (args) => template(args) };
}

/** Codegen: a plain JS function of non-null operand values (null when any operand is null). */
export function fn<A extends unknown[]>(f: (...args: A) => unknown): ScalarCodegen {
  return { kind: 'runtime-strict', fn: f as unknown as (...args: never[]) => unknown };
}

/** Codegen: a plain JS function that sees nulls and decides itself. */
export function fnWithNulls<A extends unknown[]>(f: (...args: A) => unknown): ScalarCodegen {
  return { kind: 'runtime', fn: f as unknown as (...args: never[]) => unknown };
}

/** The value of a literal or symbol operand at bind time, or undefined when it is not a constant. */
export function constantOperand(binding: CallBinding, i: number): unknown {
  const o = binding.operands[i];
  if (o === undefined) return undefined;
  if (o.kind === 'literal') return o.value;
  if (o.kind === 'symbol') return o.value;
  return undefined;
}
