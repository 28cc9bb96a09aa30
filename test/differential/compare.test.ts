import { describe, expect, it } from 'vitest';
import { flinkScript, materialize, verdictIn } from './compare.mjs';

describe('materialize', () => {
  it('applies updates and deletions to the rows inserted so far', () => {
    const changelog = ['+I\ta\t1', '+I\tb\t2', '-U\ta\t1', '+U\ta\t5', '+I\tc\t3', '-D\tc\t3', '+I\tb\t2'];
    expect(materialize({ rows: changelog }).rows?.sort()).toEqual(['+I\ta\t5', '+I\tb\t2', '+I\tb\t2']);
  });

  it('refuses a changelog that retracts a row it never inserted', () => {
    expect(materialize({ rows: ['+I\ta\t1', '-U\ta\t2', '+U\ta\t3'] }).error).toMatch(/retracts a row it never inserted: -U\ta\t2/);
  });

  it('passes an error through', () => {
    expect(materialize({ error: 'boom' })).toEqual({ error: 'boom' });
  });
});

describe('verdictIn', () => {
  it('compares streaming answers by the table their changelogs leave, batch answers row by row', () => {
    const flink = { rows: ['+I\ta\t1', '-U\ta\t1', '+U\ta\t2'] };
    const sluice = { rows: ['+I\ta\t2'] };
    expect(verdictIn('streaming', flink, sluice, false)).toBe('agree');
    expect(verdictIn('batch', flink, sluice, false)).toBe('rows');
    expect(verdictIn('streaming', flink, { rows: ['+I\ta\t1'] }, false)).toBe('rows');
  });

  it('compares the changes themselves when the query reads one table once, in any order', () => {
    const flink = { rows: ['+I\ta\t1', '-U\ta\t1', '+U\ta\t2', '+I\tb\t1'] };
    const one = 'SELECT k, COUNT(*) FROM t1 GROUP BY k';
    expect(verdictIn('streaming', flink, { rows: ['+I\tb\t1', '+I\ta\t1', '-U\ta\t1', '+U\ta\t2'] }, false, one)).toBe('agree');
    // The same table, reached without the update: another changelog.
    expect(verdictIn('streaming', flink, { rows: ['+I\ta\t2', '+I\tb\t1'] }, false, one)).toBe('changelog');
    // Two scans: the interleaving of the sources decides the changes, so only the table is compared.
    const two = 'SELECT t1.k FROM t1 LEFT JOIN t2 ON t1.k = t2.k';
    expect(verdictIn('streaming', flink, { rows: ['+I\ta\t2', '+I\tb\t1'] }, false, two)).toBe('agree');
    expect(verdictIn('streaming', flink, { rows: ['+I\ta\t2', '+I\tb\t1'] }, false, 'SELECT a FROM t1 UNION ALL SELECT a FROM t1')).toBe('agree');
  });
});

describe('flinkScript', () => {
  const queries = ['SELECT 1', 'SELECT 2', 'SELECT 3', 'SELECT 4', 'SELECT 5'];

  it('marks every query -- @tsv when not batched', () => {
    const script = flinkScript(['CREATE TABLE t (a INT)'], queries);
    expect(script.match(/^-- @tsv$/gm)).toHaveLength(5);
    expect(script).not.toContain('@tsv-batch');
  });

  it('puts runs of `batch` queries into one -- @tsv-batch group each, and leaves the likely failures alone', () => {
    const script = flinkScript([], queries, 'batch', 2, (q) => q === 'SELECT 2');
    const markers = script.split('\n\n').filter((b) => b.startsWith('--')).map((b) => b.split('\n')[0]);
    expect(markers).toEqual(['-- @tsv-batch 0', '-- @tsv', '-- @tsv-batch 0', '-- @tsv-batch 1', '-- @tsv-batch 1']);
  });
});
