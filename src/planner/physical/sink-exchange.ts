import { identifierToString } from '../../catalog/object-identifier.js';
import { PlanningError } from '../../errors/sluice-error.js';
import type { SinkNode } from '../logical/plan-node.js';
import type { PhysicalOperator } from './physical-node.js';

/** `table.exec.sink.keyed-shuffle`. */
export type SinkKeyedShuffle = 'NONE' | 'AUTO' | 'FORCE';

/** What a sink's input edge must be. */
export type SinkExchange =
  | { readonly kind: 'forward' }
  /** Hash by these fields of the sink's input row (the table's primary key columns). */
  | { readonly kind: 'keyed'; readonly keys: readonly number[] };

export interface SinkExchangeInput {
  /** The sink table's full name, for the message. */
  readonly table: string;
  readonly sinkParallelism: number;
  readonly inputParallelism: number;
  /** The sink's input only inserts (no -U/+U/-D). */
  readonly inputInsertOnly: boolean;
  /** Positions of the table's primary key columns in the sink's input row; empty without a key. */
  readonly primaryKey: readonly number[];
  readonly keyedShuffle: SinkKeyedShuffle;
}

/**
 * The edge into a table sink (Flink's `CommonExecSink`). An edge between different parallelisms can
 * only be a round robin or a hash: a round robin sends the changes of one key (its -U and +U, its +I and
 * -D) to different sink subtasks, which write them in no particular order between them, so an updating
 * input must be hashed by the sink's primary key, and without a key the plan is refused. An insert-only
 * input is hashed by the key too when `table.exec.sink.keyed-shuffle` asks for it (AUTO: the
 * parallelisms differ; FORCE: always), except into a sink of parallelism 1, where every row meets anyway.
 *
 * @throws PlanningError naming the table and both parallelisms when an updating input needs a key the
 *   table does not declare
 */
export function sinkExchange(s: SinkExchangeInput): SinkExchange {
  const differs = s.sinkParallelism !== s.inputParallelism;
  if (!s.inputInsertOnly && differs && s.primaryKey.length === 0) {
    throw new PlanningError(
      `The sink for table '${s.table}' has a configured parallelism of ${s.sinkParallelism}, while the input parallelism is ${s.inputParallelism}. ` +
        "Since the configured parallelism is different from the input's parallelism and the changelog mode is not insert-only, a primary key is required but could not be found. " +
        `Declare the table's PRIMARY KEY (... NOT ENFORCED), or remove its 'sink.parallelism' so the sink runs at its input's parallelism.`,
    );
  }
  if (s.primaryKey.length === 0 || s.sinkParallelism === 1) return { kind: 'forward' };
  switch (s.keyedShuffle) {
    case 'NONE':
      return { kind: 'forward' };
    case 'AUTO':
      return differs ? { kind: 'keyed', keys: s.primaryKey } : { kind: 'forward' };
    case 'FORCE':
      return { kind: 'keyed', keys: s.primaryKey };
    default: {
      const never: never = s.keyedShuffle;
      return never;
    }
  }
}

/**
 * The edge into the table sink `sink` of the physical plan: its input's changelog mode and its table's primary key
 * come from the plan; the parallelisms from the job graph, where they are decided (as Flink decides the keyed shuffle
 * in CommonExecSink when it translates the plan, not as an Exchange of the plan: EXPLAIN shows none).
 *
 * @throws PlanningError as sinkExchange
 */
export function sinkExchangeOf(
  sink: PhysicalOperator<SinkNode>,
  parallelism: { readonly sink: number; readonly input: number },
  keyedShuffle: SinkKeyedShuffle,
): SinkExchange {
  const s = sink.logical;
  return sinkExchange({
    table: identifierToString(s.identifier),
    sinkParallelism: parallelism.sink,
    inputParallelism: parallelism.input,
    inputInsertOnly: sink.inputs[0]!.changelog.isInsertOnly(),
    primaryKey: (s.table.schema.primaryKey?.columns ?? []).map((c) => s.fields.findIndex((f) => f.name === c)),
    keyedShuffle,
  });
}
