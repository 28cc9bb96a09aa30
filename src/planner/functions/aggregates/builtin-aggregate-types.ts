import { ValidationError } from '../../../errors/sluice-error.js';
import { DataTypes } from '../../../types/data-types.js';
import { decimalAvgType, decimalSumType } from '../../../types/decimal-type-rules.js';
import { notNull, withNullability } from '../../../types/logical-type.js';
import type { LogicalType } from '../../../types/logical-type.js';
import { sqlTypeName } from '../../expressions/type-rules.js';

/** The aggregates whose implementation is table-runtime's `builtinAggregate` (one per name, no UDAF form). */
export const BUILTIN_AGGREGATES: ReadonlySet<string> = new Set(['COUNT', 'SUM', 'SUM0', 'AVG', 'MIN', 'MAX', 'FIRST_VALUE', 'LAST_VALUE', 'LISTAGG']);

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
    default:
      return undefined;
  }
}

const NUMERIC: ReadonlySet<string> = new Set(['TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'FLOAT', 'DOUBLE']);

function badArg(name: string, t: LogicalType): ValidationError {
  return new ValidationError(`Cannot apply '${name}' to arguments of type '${name}(<${sqlTypeName(t)}>)'. Supported form(s): '${name}(<NUMERIC>)'`);
}
