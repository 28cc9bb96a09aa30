import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { hashFields, valuesEqual } from '../types/values/equality.js';
import type { FieldsFunction } from './calc-operator.js';

export interface LookupJoinSpec {
  /** Creates the lookup function once per operator instance (the source's `lookup(keyIndexes)`). */
  readonly lookup: () => (key: readonly unknown[]) => Promise<Row[]>;
  readonly leftKeys: readonly number[];
  readonly rightArity: number;
  /** Extra condition over the joined row, or null. */
  readonly condition: FieldsFunction | null;
  readonly joinType: 'INNER' | 'LEFT';
}

/**
 * Lookup join (Flink's LookupJoin against a LookupTableSource): per input batch, the distinct keys are
 * looked up concurrently, then the joined rows are emitted in input order and the row kind of the
 * input row is kept. The task awaits the lookups before handing over the next batch (backpressure),
 * so there is one await per batch, never per record. Rows with a NULL key never match.
 */
export class LookupJoinOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private fn!: (key: readonly unknown[]) => Promise<Row[]>;

  constructor(private readonly spec: LookupJoinSpec) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.fn = this.spec.lookup();
  }

  processBatch(rows: Row[]): void {
    const { leftKeys } = this.spec;
    const pending = new Map<number, { key: unknown[]; result: Promise<Row[]> }[]>();
    const keyOf: ({ key: unknown[]; result: Promise<Row[]> } | null)[] = [];
    for (const row of rows) {
      const key = leftKeys.map((k) => row.fields[k]);
      if (key.some((v) => v === null)) {
        keyOf.push(null);
        continue;
      }
      const h = hashFields(row.fields, leftKeys);
      const bucket = pending.get(h) ?? [];
      let e = bucket.find((x) => x.key.every((v, i) => valuesEqual(v, key[i])));
      if (e === undefined) {
        e = { key, result: this.fn(key) };
        bucket.push(e);
        pending.set(h, bucket);
      }
      keyOf.push(e);
    }
    const lookups = [...pending.values()].flat();
    const done = Promise.all(lookups.map((l) => l.result)).then((results) => {
      const byEntry = new Map(lookups.map((l, i) => [l, results[i]!]));
      const out: Row[] = [];
      rows.forEach((row, i) => {
        const e = keyOf[i];
        let matched = false;
        for (const d of e === null ? [] : byEntry.get(e!)!) {
          const joined = [...row.fields, ...d.fields];
          if (this.spec.condition !== null && this.spec.condition(joined) !== true) continue;
          matched = true;
          out.push(new Row(row.kind, joined));
        }
        if (!matched && this.spec.joinType === 'LEFT') out.push(new Row(row.kind, [...row.fields, ...new Array(this.spec.rightArity).fill(null)]));
      });
      if (out.length > 0) this.ctx.output.collect(out);
    });
    this.ctx.awaitBeforeNextBatch(done);
  }
}

export function lookupJoinFactory(name: string, spec: LookupJoinSpec): OperatorFactory {
  return { name, create: () => new LookupJoinOperator(spec) };
}
