import { ExecutionError } from '../../../errors/sluice-error.js';
import { DataTypes } from '../../../types/data-types.js';
import { isCharacterString, notNull } from '../../../types/logical-type.js';
import type { LogicalType } from '../../../types/logical-type.js';
import { cannotApply } from '../../expressions/type-rules.js';
import { sqlValueJsonText } from '../builtins/json-write.js';
import type { AggregateFunctionDefinition } from '../function-definition.js';
import type { AggregateFunction } from '../../../table-runtime/aggregates/aggregate-function.js';

/**
 * JSON_OBJECTAGG and JSON_ARRAYAGG under Flink's (Calcite's) names: JSON_OBJECTAGG_NULL_ON_NULL (the
 * default), JSON_OBJECTAGG_ABSENT_ON_NULL, JSON_ARRAYAGG_ABSENT_ON_NULL (the default) and
 * JSON_ARRAYAGG_NULL_ON_NULL. Results are STRING NOT NULL ('{}' / '[]' for no rows), both retract.
 * Accumulators hold each value's JSON text, so they are plain data for checkpoints.
 *
 * The optimizer passes the value as its JSON text, JSON_STRING(value), as Flink plans these aggregates (so a
 * JSON_OBJECT value is embedded raw and a TIMESTAMP is ISO text): a character string value is that text, embedded as
 * it is.
 * A value of another type (a caller that did not wrap it) is written as JSON_STRING would write it.
 */

function jsonText(v: unknown, t: LogicalType): string {
  if (v === null) return 'null';
  return isCharacterString(t) ? (v as string) : sqlValueJsonText(v, t);
}

function objectAgg(absentOnNull: boolean): AggregateFunctionDefinition {
  const name = `JSON_OBJECTAGG_${absentOnNull ? 'ABSENT' : 'NULL'}_ON_NULL`;
  const inferType = (ts: readonly LogicalType[]): LogicalType => {
    if (ts.length !== 2 || !(isCharacterString(ts[0]!) || ts[0]!.kind === 'NULL')) throw cannotApply(name, ts, [`${name}(<CHARACTER>, <ANY>)`]);
    return notNull(DataTypes.STRING());
  };
  return {
    kind: 'aggregate',
    name,
    inferType,
    create(ts) {
      inferType(ts);
      const vt = ts[1]!;
      const f: AggregateFunction<{ entries: Map<string, string> }> = {
        createAccumulator: () => ({ entries: new Map() }),
        accumulate(acc, k, v) {
          if (k === null) throw new ExecutionError(`${name}: a key must not be NULL.`);
          if (v === null && absentOnNull) return;
          acc.entries.set(k as string, jsonText(v, vt));
        },
        retract(acc, k) {
          if (k !== null) acc.entries.delete(k as string);
        },
        merge(acc, other) {
          for (const [k, v] of other.entries) acc.entries.set(k, v);
        },
        // Keys in order, as Flink's serializer writes objects (Jackson ORDER_MAP_ENTRIES_BY_KEYS).
        getValue: (acc) => `{${[...acc.entries.keys()].sort().map((k) => `${JSON.stringify(k)}:${acc.entries.get(k)!}`).join(',')}}`,
      };
      return f as unknown as AggregateFunction<unknown>;
    },
  };
}

function arrayAgg(absentOnNull: boolean): AggregateFunctionDefinition {
  const name = `JSON_ARRAYAGG_${absentOnNull ? 'ABSENT' : 'NULL'}_ON_NULL`;
  const inferType = (ts: readonly LogicalType[]): LogicalType => {
    if (ts.length !== 1) throw cannotApply(name, ts, [`${name}(<ANY>)`]);
    return notNull(DataTypes.STRING());
  };
  return {
    kind: 'aggregate',
    name,
    inferType,
    create(ts) {
      inferType(ts);
      const vt = ts[0]!;
      const f: AggregateFunction<{ items: string[] }> = {
        createAccumulator: () => ({ items: [] }),
        accumulate(acc, v) {
          if (v === null && absentOnNull) return;
          acc.items.push(jsonText(v, vt));
        },
        retract(acc, v) {
          if (v === null && absentOnNull) return;
          const i = acc.items.indexOf(jsonText(v, vt));
          if (i >= 0) acc.items.splice(i, 1);
        },
        merge(acc, other) {
          acc.items.push(...other.items);
        },
        getValue: (acc) => `[${acc.items.join(',')}]`,
      };
      return f as unknown as AggregateFunction<unknown>;
    },
  };
}

export function jsonAggregateFunctions(): AggregateFunctionDefinition[] {
  return [objectAgg(false), objectAgg(true), arrayAgg(true), arrayAgg(false)];
}
