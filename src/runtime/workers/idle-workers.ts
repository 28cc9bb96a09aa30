import { Worker } from 'node:worker_threads';
import { resolveWorkerEntry } from './worker-entry.js';

/**
 * Workers started ahead of a job (when a session turns `execution.worker-threads` on) or kept from a
 * finished one, per entry module, so a job does not wait for a thread to start and load its code. Idle
 * workers are unref'd: they never keep the process alive.
 */
const idle = new Map<string, Worker[]>();
/** The listeners that drop an idle worker from its list when it dies; removed when it is acquired. */
const droppers = new WeakMap<Worker, () => void>();

/**
 * Keeps `w` idle. Only listeners added here are ever removed: a Worker keeps its own listeners on itself
 * (they ref and start its port), and removing those would stop its messages.
 */
function keepIdle(entry: URL, w: Worker): void {
  const list = idle.get(entry.href) ?? [];
  idle.set(entry.href, list);
  const drop = (): void => {
    const i = list.indexOf(w);
    if (i >= 0) list.splice(i, 1);
  };
  droppers.set(w, drop);
  w.on('exit', drop);
  w.on('error', drop);
  w.unref();
  list.push(w);
}

/** Starts workers of `entry` until `count` are idle. Errors (a missing build) are left to the job to report. */
export function prewarmWorkers(entry: string, count: number): void {
  let url: URL;
  try {
    url = resolveWorkerEntry(entry);
  } catch {
    return;
  }
  const have = idle.get(url.href)?.length ?? 0;
  for (let i = have; i < count; i++) keepIdle(url, new Worker(url, { name: 'sluice idle worker' }));
}

/** An idle worker of `entry` (possibly still loading), or a new one; owned by the caller until `releaseWorker`. */
export function acquireWorker(entry: URL, name: string): Worker {
  // The most recently used first: its code is the warmest.
  const w = idle.get(entry.href)?.pop();
  if (w === undefined) return new Worker(entry, { name });
  const drop = droppers.get(w);
  if (drop !== undefined) {
    w.off('exit', drop);
    w.off('error', drop);
  }
  w.ref();
  return w;
}

/** Hands a healthy worker back for the next job of this process; the caller removed its own listeners. */
export function releaseWorker(entry: URL, w: Worker): void {
  keepIdle(entry, w);
}
