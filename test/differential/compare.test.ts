import { describe, expect, it } from 'vitest';
import { materialize, verdictIn } from './compare.mjs';

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
});
