import type { FilterCompiler, RowPredicate, SourceCall, SourceExpression, SourceFieldRef } from '../../factories/source-filter.js';
import { FLINK_FUNCTION_NAMES } from '../../factories/source-filter.js';
import { compileRex } from '../rex/compile-rex.js';
import { call, inputRef, literal } from '../rex/rex-node.js';
import type { RexCall, RexNode } from '../rex/rex-node.js';

/**
 * Translates planner expressions to the public filter tree sources see (and back, to compile them).
 * Calls keep a link to the RexCall they came from, so a compiled filter uses the same function
 * definition (UDFs, registry built-ins) the binder resolved.
 */
export class SourceExpressionConverter {
  private readonly origin = new WeakMap<SourceCall, RexCall>();

  /**
   * @param physicalIndexOf the table's physical column index of a scan output field, or undefined when
   *   the field is not a physical column (metadata): such an expression cannot be offered.
   */
  constructor(private readonly physicalIndexOf: (scanField: number) => number | undefined) {}

  /** The source's view of `r`, or undefined if it reads a non-physical column. */
  toSource(r: RexNode): SourceExpression | undefined {
    switch (r.kind) {
      case 'input-ref': {
        const index = this.physicalIndexOf(r.index);
        return index === undefined ? undefined : { kind: 'field', name: r.name, index, type: r.type };
      }
      case 'literal':
        return { kind: 'literal', value: r.value, type: r.type };
      case 'call': {
        const args: SourceExpression[] = [];
        for (const o of r.operands) {
          const a = this.toSource(o);
          if (a === undefined) return undefined;
          args.push(a);
        }
        const out: SourceCall = { kind: 'call', name: FLINK_FUNCTION_NAMES.get(r.op) ?? r.op.toLowerCase(), sqlName: r.op, args, type: r.type };
        this.origin.set(out, r);
        return out;
      }
      default: {
        const never: never = r;
        return never;
      }
    }
  }

  /** Back to a planner expression whose field refs read `position(ref)` of the row. */
  toRex(e: SourceExpression, position: (ref: SourceFieldRef) => number): RexNode {
    switch (e.kind) {
      case 'field':
        return inputRef(position(e), e.name, e.type);
      case 'literal':
        return literal(e.value, e.type);
      case 'call': {
        const operands = e.args.map((a) => this.toRex(a, position));
        const from = this.origin.get(e);
        return from === undefined ? call(e.sqlName, operands, e.type) : { ...from, operands };
      }
      default: {
        const never: never = e;
        return never;
      }
    }
  }

  /** The compiler lent to sources in `applyFilters`. */
  compiler(timeZone: string): FilterCompiler {
    return {
      compile: (filter, position = (ref) => ref.index): RowPredicate => {
        const f = compileRex(this.toRex(filter, position), { timeZone });
        return (fields) => f(fields) === true;
      },
    };
  }
}
