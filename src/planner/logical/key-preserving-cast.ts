import { type LogicalType, MAX_LENGTH, typesEqualIgnoringNullability } from '../../types/logical-type.js';

/**
 * Whether CAST(x AS `to`) maps distinct values of `from` to distinct values (an injective cast), so a unique key
 * cast this way is still a unique key (Flink 2.3's LogicalTypeCasts.supportsInjectiveCast, which its upsert-key
 * derivation sees through). Nullability does not matter.
 *
 * The rules are Flink's as a real Flink 2.3 plans them (measured with EXPLAIN CHANGELOG_MODE over every pair of
 * types and every target length up to 45; the table is in test/planner/key-preserving-cast.test.ts): integers
 * widen; a predefined type becomes a character string long enough for its longest text; a character or binary
 * string grows; a UTF-8 string becomes bytes with 4 per char; TIMESTAMP and TIMESTAMP_LTZ of one precision swap; a
 * ROW casts field by field. Everything else (to DECIMAL, FLOAT or DOUBLE, DECIMAL to text, a shorter string,
 * ARRAY, MAP) is not: answering false only costs an UPDATE_BEFORE the sink did not need, answering true wrongly
 * would merge two keys' updates.
 */
export function isKeyPreservingCast(from: LogicalType, to: LogicalType): boolean {
  switch (to.kind) {
    case 'SMALLINT':
      return from.kind === 'TINYINT';
    case 'INT':
      return from.kind === 'TINYINT' || from.kind === 'SMALLINT';
    case 'BIGINT':
      return from.kind === 'TINYINT' || from.kind === 'SMALLINT' || from.kind === 'INT';
    case 'CHAR':
    case 'VARCHAR': {
      if (from.kind === 'CHAR' || from.kind === 'VARCHAR') return to.length >= from.length && (to.kind === 'VARCHAR' || from.kind === 'CHAR');
      const longest = longestText(from);
      return longest !== undefined && to.length >= longest;
    }
    case 'BINARY':
    case 'VARBINARY':
      if (from.kind === 'BINARY' || from.kind === 'VARBINARY') return to.length >= from.length && (to.kind === 'VARBINARY' || from.kind === 'BINARY');
      if (from.kind === 'CHAR' || from.kind === 'VARCHAR') return to.length === MAX_LENGTH || to.length >= 4 * from.length;
      return false;
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      return (from.kind === 'TIMESTAMP' || from.kind === 'TIMESTAMP_LTZ') && from.kind !== to.kind && from.precision === to.precision;
    case 'ROW':
      return from.kind === 'ROW' && from.fields.length === to.fields.length && from.fields.every((f, i) => typesEqualIgnoringNullability(f.type, to.fields[i]!.type) || isKeyPreservingCast(f.type, to.fields[i]!.type));
    default:
      return false;
  }
}

/** The length of the longest text CAST(x AS STRING) gives for a value of `t`, for the types Flink counts; else undefined. */
function longestText(t: LogicalType): number | undefined {
  const fraction = (p: number): number => (p > 0 ? p + 1 : 0);
  switch (t.kind) {
    case 'BOOLEAN':
      return 5;
    case 'TINYINT':
      return 4;
    case 'SMALLINT':
      return 6;
    case 'INT':
      return 11;
    case 'BIGINT':
      return 20;
    case 'FLOAT':
      return 15;
    case 'DOUBLE':
      return 24;
    case 'DATE':
      return 10;
    case 'TIME':
      return 8 + fraction(t.precision);
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      return 19 + fraction(t.precision);
    default:
      return undefined;
  }
}
