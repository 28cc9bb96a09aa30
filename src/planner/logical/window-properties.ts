import { isRowtimeAttribute, isTimeAttribute } from '../../types/logical-type.js';
import type { PlanNode, WindowFields } from './plan-node.js';

/**
 * Where the rows of `n` carry a TUMBLE / HOP / CUMULATE window as columns (Flink's window properties,
 * FlinkRelMdWindowProperties): a window TVF's window_start / window_end, kept by calcs that project both as they
 * are (a filter keeps them), by a window aggregate that groups by them, and by a window Top-N, which passes its
 * input's columns on. A window Top-N or a window aggregate over such rows runs per window (window-keyed state
 * fired by the watermark) rather than as an updating operator (a processing-time window is marked `proctime`: only a
 * window TVF's rows carry one, which a window Top-N refuses). Undefined when the rows carry no such window: SESSION
 * windows, or a window column computed or dropped on the way.
 */
export function windowFieldsOf(n: PlanNode): WindowFields | undefined {
  switch (n.kind) {
    case 'window-tvf': {
      const time = n.input.fields[n.timeIndex]!.type;
      if (n.window.kind === 'SESSION' || !isTimeAttribute(time)) return undefined;
      const base = n.input.fields.length;
      return { startField: base, endField: base + 1, spec: n.window, ...(isRowtimeAttribute(time) ? {} : { proctime: true as const }) };
    }
    case 'calc': {
      const w = windowFieldsOf(n.input);
      if (w === undefined) return undefined;
      const at = (field: number): number => n.projects.findIndex((p) => p.kind === 'input-ref' && p.index === field);
      const startField = at(w.startField);
      const endField = at(w.endField);
      return startField < 0 || endField < 0 ? undefined : { ...w, startField, endField };
    }
    case 'aggregate': {
      const a = n.window;
      const below = windowFieldsOf(n.input);
      if (a === undefined || a.spec.kind === 'SESSION' || below === undefined || below.proctime === true) return undefined;
      // The output starts with the group keys, in their order.
      return { startField: n.groupKeys.indexOf(a.windowStartField), endField: n.groupKeys.indexOf(a.windowEndField), spec: a.spec };
    }
    case 'global-window-aggregate': {
      const startField = n.keys.findIndex((k) => k.kind === 'start');
      const endField = n.keys.findIndex((k) => k.kind === 'end');
      return startField < 0 || endField < 0 ? undefined : { startField, endField, spec: n.window };
    }
    case 'rank':
      // Its output starts with its input's columns.
      return n.window;
    default:
      return undefined;
  }
}
