/**
 * Table sources and sinks that can only run on the main thread, and why: those built with a connector or format factory
 * registered in code without a module, which no worker thread can load (issue #19 item 4). The planner pins the vertex that runs
 * such an object (a scan, a lookup join, a sink) to the main thread with this reason; the rest of the job still
 * runs on worker threads. The reason is the same text on the main thread and in a worker, as it is part of the job
 * graph both compare.
 */
const reasons = new WeakMap<object, string>();

/** Marks `o` as main-thread only, for `reason`; returns it. */
export function markMainThreadOnly<T extends object>(o: T, reason: string): T {
  reasons.set(o, reason);
  return o;
}

/** Why `o` must run on the main thread, if it must. */
export function mainThreadOnlyReason(o: unknown): string | undefined {
  return typeof o === 'object' && o !== null ? reasons.get(o) : undefined;
}

