import { PlanningError, ValidationError } from '../../errors/sluice-error.js';
import type { Expression } from '../../sql/ast/expressions.js';
import type { TableFunctionRef } from '../../sql/ast/query.js';
import { DataTypes } from '../../types/data-types.js';
import { isTimeAttribute, isTimestamp, notNull } from '../../types/logical-type.js';
import { typeToString } from '../../types/type-to-string.js';
import type { PlanNode, WindowSpec } from '../logical/plan-node.js';
import { compileRex } from '../rex/compile-rex.js';
import { isConstant } from '../rex/rex-node.js';
import { bindExpression } from './bind-expression.js';
import type { Cte, QueryBinder } from './bind-query.js';
import { Scope } from './scope.js';

const PARAMS: Readonly<Record<string, readonly string[]>> = {
  TUMBLE: ['DATA', 'TIMECOL', 'SIZE', 'OFFSET'],
  HOP: ['DATA', 'TIMECOL', 'SLIDE', 'SIZE', 'OFFSET'],
  CUMULATE: ['DATA', 'TIMECOL', 'STEP', 'SIZE', 'OFFSET'],
  SESSION: ['DATA', 'TIMECOL', 'GAP'],
};

/**
 * `TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), size [, offset]))`, HOP(…, slide, size), CUMULATE(…, step, size),
 * with positional or named (`SIZE => ...`) arguments. Streaming: the time column must be a time attribute
 * (windows fire on watermarks); batch: any TIMESTAMP / TIMESTAMP_LTZ (windows fire at end of input).
 */
export async function bindWindowTvf(binder: QueryBinder, ref: TableFunctionRef, ctes: ReadonlyMap<string, Cte>): Promise<PlanNode> {
  const name = ref.call.name[ref.call.name.length - 1]!.toUpperCase();
  // A correlated call needs the rows it is correlated with; joins bind it (bind-lateral-table.ts).
  if (ref.lateral) throw new PlanningError(`LATERAL TABLE(${name}(...)) must follow a table it reads from, as in FROM t, LATERAL TABLE(${name}(t.x)) AS u(a)`);
  const params = PARAMS[name];
  if (params === undefined) throw new ValidationError(`No match found for function signature ${name}; table functions other than TUMBLE, HOP and CUMULATE are not supported yet`);
  const args = new Map<string, Expression>();
  ref.call.args.forEach((a, i) => {
    if (a.kind === 'named-argument') args.set(a.name.toUpperCase(), a.value);
    else args.set(params[i] ?? `#${i}`, a);
  });
  const data = args.get('DATA');
  if (data === undefined || data.kind !== 'table-arg') throw new ValidationError(`The first argument of ${name} must be TABLE <name>`);
  const input = await binder.bindTableRef(
    { kind: 'table', name: { parts: data.table, pos: data.pos }, alias: null, columnAliases: [], hints: [], forSystemTimeAsOf: null, pos: data.pos },
    ctes,
  );
  const timecol = args.get('TIMECOL');
  if (timecol === undefined || timecol.kind !== 'descriptor' || timecol.columns.length !== 1) {
    throw new ValidationError(`The second argument of ${name} must be DESCRIPTOR(<time column>)`);
  }
  const timeName = timecol.columns[0]!;
  const timeIndex = input.node.fields.findIndex((f) => f.name === timeName);
  if (timeIndex < 0) throw new ValidationError(`Column '${timeName}' not found in the input of ${name}`);
  const timeType = input.node.fields[timeIndex]!.type;
  // Batch mode windows any TIMESTAMP column; streaming needs a time attribute (watermarks or proctime), as Flink.
  if (!isTimestamp(timeType) || (binder.ctx.mode === 'streaming' && !isTimeAttribute(timeType))) {
    throw new ValidationError(`The window function requires the timecol is a time attribute type, but is ${isTimestamp(timeType) ? typeToString(timeType) : timeType.kind}.`);
  }
  const interval = (key: string, required: boolean): number => {
    const e = args.get(key);
    if (e === undefined) {
      if (required) throw new ValidationError(`${name} requires the ${key} parameter`);
      return 0;
    }
    const r = bindExpression(e, binder.exprContext(new Scope([])));
    if (r.type.kind !== 'INTERVAL_DAY_TIME' || !isConstant(r)) throw new ValidationError(`The ${key} of ${name} must be a constant INTERVAL DAY TO SECOND`);
    return compileRex(r)([]) as number;
  };
  let window: WindowSpec;
  switch (name) {
    case 'TUMBLE':
      window = { kind: 'TUMBLE', size: interval('SIZE', true), offset: interval('OFFSET', false) };
      break;
    case 'HOP':
      window = { kind: 'HOP', slide: interval('SLIDE', true), size: interval('SIZE', true), offset: interval('OFFSET', false) };
      if (window.size % window.slide !== 0) throw new ValidationError('HOP table function based aggregate requires size must be an integral multiple of slide');
      break;
    case 'SESSION':
      window = { kind: 'SESSION', gap: interval('GAP', true), offset: 0 };
      break;
    default:
      window = { kind: 'CUMULATE', step: interval('STEP', true), size: interval('SIZE', true), offset: interval('OFFSET', false) };
      if (window.size % window.step !== 0) throw new ValidationError('CUMULATE table function based aggregate requires maxSize must be an integral multiple of step');
  }
  const ts3 = notNull(DataTypes.TIMESTAMP(3));
  const fields = [
    ...input.node.fields,
    { name: 'window_start', type: ts3 },
    { name: 'window_end', type: ts3 },
    { name: 'window_time', type: timeType.kind === 'TIMESTAMP_LTZ' ? notNull(DataTypes.TIMESTAMP_LTZ(3, 'ROWTIME')) : notNull(DataTypes.TIMESTAMP(3, 'ROWTIME')) },
  ];
  return { kind: 'window-tvf', input: input.node, timeIndex, window, fields };
}
