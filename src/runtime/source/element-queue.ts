/**
 * The bounded hand-over from fetcher loops to the source task (Flink's `FutureCompletingBlockingQueue`).
 * Fetchers `await put(...)`, which waits while the queue is full: that wait is the source's backpressure,
 * and the queue never holds more than `capacity` elements. The task side `poll()`s without waiting and
 * awaits `availability()` when empty.
 */
export class ElementQueue<T> {
  private readonly items: T[] = [];
  private availableWaiters: Array<() => void> = [];
  /** Fetchers waiting for space: resolve(true) = woken up by `wakeUpPutter`, resolve(false) = space freed. */
  private readonly putters = new Map<number, (woken: boolean) => void>();

  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`element queue capacity must be >= 1, got ${capacity}`);
  }

  get size(): number {
    return this.items.length;
  }

  /**
   * Adds `item`, waiting while the queue is full. Resolves false without adding when the fetcher with
   * index `fetcherIndex` was woken by `wakeUpPutter` (to handle new splits or shut down).
   */
  async put(fetcherIndex: number, item: T): Promise<boolean> {
    while (this.items.length >= this.capacity) {
      const woken = await new Promise<boolean>((resolve) => this.putters.set(fetcherIndex, resolve));
      if (woken) return false;
    }
    this.items.push(item);
    this.notifyAvailable();
    return true;
  }

  /** Interrupts fetcher `fetcherIndex` if it waits in `put`. */
  wakeUpPutter(fetcherIndex: number): void {
    const r = this.putters.get(fetcherIndex);
    if (r) {
      this.putters.delete(fetcherIndex);
      r(true);
    }
  }

  /** Takes the head without waiting; undefined if empty. Frees space for waiting fetchers. */
  poll(): T | undefined {
    const item = this.items.shift();
    if (item !== undefined && this.putters.size > 0) {
      // Every waiting fetcher re-checks; those that find the queue full again go back to waiting.
      const ws = [...this.putters.values()];
      this.putters.clear();
      for (const w of ws) w(false);
    }
    return item;
  }

  /** Resolves when an element is (or may be) available; immediately if not empty. */
  availability(): Promise<void> {
    if (this.items.length > 0) return Promise.resolve();
    return new Promise((resolve) => this.availableWaiters.push(resolve));
  }

  /** Completes pending `availability()` promises (new data, or an error to surface). */
  notifyAvailable(): void {
    if (this.availableWaiters.length === 0) return;
    const ws = this.availableWaiters;
    this.availableWaiters = [];
    for (const w of ws) w();
  }
}
