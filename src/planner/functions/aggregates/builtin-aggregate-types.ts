import { ValidationError } from '../../../errors/sluice-error.js';
import { DataTypes } from '../../../types/data-types.js';
import { decimalAvgType, decimalSumType } from '../../../types/decimal-type-rules.js';
import { notNull, withNullability } from '../../../types/logical-type.js';
import type { LogicalType } from '../../../types/logical-type.js';
import { cannotApply, isIntegral, isNumeric, sqlTypeName } from '../../expressions/type-rules.js';

const VARIANCE_FAMILY = ['VAR_POP', 'VAR_SAMP', 'VARIANCE', 'STDDEV_POP', 'STDDEV_SAMP', 'STDDEV'] as const;

/** The aggregates whose implementation is table-runtime's `builtinAggregate` (one per name, no UDAF form). */
export const BUILTIN_AGGREGATES: ReadonlySet<string> = new Set([
  'COUNT',
  'SUM',
  'SUM0',
  'AVG',
  'MIN',
  'MAX',
  'FIRST_VALUE',
  'LAST_VALUE',
  'LISTAGG',
  'ARRAY_AGG',
  'COLLECT',
  ...VARIANCE_FAMILY,
]);

/**
 * The result type of a built-in aggregate as Flink infers it, or undefined when `name` is not one of
 * BUILTIN_AGGREGATES. `forceNullable`: the aggregate may see no row at all (a global aggregate, a FILTER, an
 * OVER frame), so its result may be NULL even over a NOT NULL argument; COUNT and SUM0 never are.
 */
export function builtinAggregateType(name: string, args: readonly LogicalType[], forceNullable: boolean): LogicalType | undefined {
  const a = args[0];
  const nullable = forceNullable || (a?.nullable ?? false);
  const need = (): LogicalType => {
    if (a === undefined) throw new ValidationError(`Invalid number of arguments to function '${name}'. Was expecting 1 arguments`);
    return a;
  };
  switch (name) {
    case 'COUNT':
      return notNull(DataTypes.BIGINT());
    case 'SUM':
    case 'SUM0': {
      const t = need();
      if (t.kind === 'DECIMAL') return withNullability(decimalSumType(t.precision, t.scale), nullable);
      if (!NUMERIC.has(t.kind)) throw badArg(name, t);
      return withNullability(t, name === 'SUM0' ? false : nullable);
    }
    case 'AVG': {
      const t = need();
      if (t.kind === 'DECIMAL') return withNullability(decimalAvgType(t.precision, t.scale), nullable);
      if (!NUMERIC.has(t.kind)) throw badArg(name, t);
      return withNullability(t, nullable);
    }
    case 'MIN':
    case 'MAX':
    case 'FIRST_VALUE':
    case 'LAST_VALUE':
      return withNullability(need(), nullable);
    case 'LISTAGG':
      return withNullability(DataTypes.STRING(), true);
    case 'ARRAY_AGG':
      if (args.length !== 1) throw cannotApply(name, args, ['ARRAY_AGG(<ANY>)']);
      return DataTypes.ARRAY(args[0]!);
    case 'COLLECT':
      if (args.length !== 1) throw cannotApply(name, args, ['COLLECT(<ANY>)']);
      return withNullability(DataTypes.MULTISET(args[0]!), false);
    case 'VAR_POP':
    case 'VAR_SAMP':
    case 'VARIANCE':
    case 'STDDEV_POP':
    case 'STDDEV_SAMP':
    case 'STDDEV':
      if (args.length !== 1 || !isNumeric(args[0]!)) throw cannotApply(name, args, [`${name}(<NUMERIC>)`]);
      return isIntegral(args[0]!) ? withNullability(args[0]!, true) : DataTypes.DOUBLE();
    default:
      return undefined;
  }
}

const NUMERIC: ReadonlySet<string> = new Set(['TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'FLOAT', 'DOUBLE']);

function badArg(name: string, t: LogicalType): ValidationError {
  return new ValidationError(`Cannot apply '${name}' to arguments of type '${name}(<${sqlTypeName(t)}>)'. Supported form(s): '${name}(<NUMERIC>)'`);
}
