// Where subtasks run (issue #19): the main thread is slot 0, workers the other slots, and a job never
// starts more workers than its subtasks beyond the main thread's need.
import { describe, expect, it } from 'vitest';
import type { TaskGraph } from '../../../src/runtime/chaining.js';
import type { TaskVertex } from '../../../src/runtime/task-host.js';
import { MAIN_THREAD, threadOf, workerCount } from '../../../src/runtime/workers/placement.js';

const task = (parallelism: number, mainThread?: string): TaskVertex => ({ parallelism, mainThread }) as unknown as TaskVertex;
const graph = (...ps: number[]): TaskGraph => ({ tasks: ps.map((p) => task(p)), edges: [] }) as unknown as TaskGraph;

describe('placement of subtasks on threads', () => {
  it('starts no worker when the option is off or no task has more than one subtask', () => {
    expect(workerCount('off', graph(4), 8)).toBe(0);
    expect(workerCount(4, graph(1, 1), 8)).toBe(0);
    expect(workerCount('auto', graph(1), 8)).toBe(0);
  });

  it('starts at most parallelism - 1 workers: the main thread runs a slot too', () => {
    expect(workerCount(2, graph(2, 1), 8)).toBe(1);
    expect(workerCount(8, graph(3, 2), 8)).toBe(2);
    expect(workerCount(1, graph(4), 8)).toBe(1);
  });

  it('counts no task pinned to the main thread: its subtasks need no worker', () => {
    const g = { tasks: [task(4, 'calls a function registered in code'), task(2)], edges: [] } as unknown as TaskGraph;
    expect(workerCount(8, g, 8)).toBe(1);
    const allPinned = { tasks: [task(4, 'calls a function registered in code'), task(1)], edges: [] } as unknown as TaskGraph;
    expect(workerCount(8, allPinned, 8)).toBe(0);
  });

  it("'auto' leaves one core to the main thread", () => {
    expect(workerCount('auto', graph(8), 2)).toBe(1);
    expect(workerCount('auto', graph(8), 4)).toBe(3);
    expect(workerCount('auto', graph(8), 1)).toBe(0);
  });

  it('runs subtask i in slot i mod (workers + 1): slot 0 on the main thread, slot k in worker k - 1', () => {
    const t = task(5);
    expect([0, 1, 2, 3, 4].map((i) => threadOf(t, i, 2))).toEqual([MAIN_THREAD, 0, 1, MAIN_THREAD, 0]);
    expect([0, 1].map((i) => threadOf(t, i, 0))).toEqual([MAIN_THREAD, MAIN_THREAD]);
  });

  it('keeps a vertex pinned to the main thread there whatever its subtask', () => {
    const pinned = task(3, 'the collect sink hands rows to the caller');
    expect([0, 1, 2].map((i) => threadOf(pinned, i, 2))).toEqual([MAIN_THREAD, MAIN_THREAD, MAIN_THREAD]);
  });
});
