import { describe, expect, it } from 'vitest';
import { PrintTableSinkFactory } from '../../../src/connectors/print/print-table-sink-factory.js';
import { printPrefix, type PrintTarget } from '../../../src/connectors/print/print-sink.js';
import { ChangelogMode } from '../../../src/factories/changelog-mode.js';
import type { DynamicTableSink } from '../../../src/factories/dynamic-table-sink.js';
import { DataTypes } from '../../../src/types/data-types.js';
import { Decimal } from '../../../src/types/decimal.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';
import { tableContext } from '../datagen/context.js';

class Capture implements PrintTarget {
  text = '';
  full = false;
  private drain: (() => void) | undefined;
  write(t: string): boolean {
    this.text += t;
    return !this.full;
  }
  once(_e: 'drain', l: () => void): this {
    this.drain = l;
    return this;
  }
  release(): void {
    this.full = false;
    this.drain?.();
  }
}

const cols = [
  ['id', DataTypes.INT()],
  ['name', DataTypes.STRING()],
  ['price', DataTypes.DECIMAL(5, 2)],
] as const;

function sinkFor(options: Record<string, string>, capture: Capture): DynamicTableSink {
  return new PrintTableSinkFactory(() => capture).createDynamicTableSink(tableContext(cols, { connector: 'print', ...options }));
}

const ctx = (subtaskIndex: number, parallelism: number) => ({
  subtaskIndex,
  parallelism,
  attemptNumber: 0,
  restoredCheckpointId: undefined,
  jobId: '0'.repeat(32),
  config: new Map<string, string>(),
});

describe('print', () => {
  it('builds the prefix as Flink: identifier and 1-based subtask only with parallelism > 1', () => {
    expect(printPrefix(undefined, 0, 1)).toBe('');
    expect(printPrefix('id', 0, 1)).toBe('id> ');
    expect(printPrefix('id', 2, 4)).toBe('id:3> ');
    expect(printPrefix(undefined, 1, 2)).toBe('2> ');
  });

  it('prints each row kind with rowToString and the prefix, one write per batch', async () => {
    const cap = new Capture();
    const sink = sinkFor({ 'print-identifier': 'out' }, cap);
    expect(sink.getChangelogMode(ChangelogMode.all()).equals(ChangelogMode.all())).toBe(true);
    const w = sink.getSinkRuntimeProvider({ bounded: true }).sink.createWriter(ctx(1, 2));
    await w.write([Row.insert(1, 'a', Decimal.parse('1.50')), Row.of(RowKind.UPDATE_BEFORE, [2, null, null]), Row.of(RowKind.DELETE, [3, 'c', Decimal.parse('0.05')])]);
    expect(cap.text).toBe('out:2> +I[1, a, 1.50]\nout:2> -U[2, null, null]\nout:2> -D[3, c, 0.05]\n');
    await w.flush(true);
  });

  it('turns a full target into backpressure until it drains', async () => {
    const cap = new Capture();
    cap.full = true;
    const w = sinkFor({}, cap).getSinkRuntimeProvider({ bounded: false }).sink.createWriter(ctx(0, 1));
    const p = w.write([Row.insert(1, 'a', null)]);
    expect(p).toBeInstanceOf(Promise);
    let done = false;
    void (p as Promise<void>).then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    cap.release();
    await p;
    expect(cap.text).toBe('+I[1, a, null]\n');
  });

  it('reads standard-error and sink.parallelism and rejects other keys', () => {
    const cap = new Capture();
    const s = sinkFor({ 'standard-error': 'true', 'sink.parallelism': '3' }, cap);
    expect(s.asSummaryString()).toBe('Print to System.err');
    expect(s.getSinkRuntimeProvider({ bounded: false }).parallelism).toBe(3);
    expect(() => sinkFor({ 'print-identifer': 'x' }, cap)).toThrow(/Unsupported options found for 'print'/);
  });
});
