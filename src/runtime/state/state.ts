/**
 * Keyed and operator state handles (Flink's `ValueState`, `ListState`, `MapState`). Handles are obtained
 * once (in `StreamOperator.open`) and then read and written synchronously on the hot path; keyed handles
 * act on the key last set with `KeyedStateStore.setCurrentKey`. Values must be serializable by the
 * checkpoint codec: primitives, bigint, arrays, plain objects, Map, Set, Uint8Array, Date, `Row`, and classes
 * registered with `registerStateClass`.
 */
export interface ValueState<T> {
  /** The value for the current key, or undefined if never set (a SQL NULL is stored as `null`). */
  value(): T | undefined;
  update(value: T): void;
  clear(): void;
}

export interface ListState<T> {
  /** The list for the current key; empty if none. The array is live: do not mutate it. */
  get(): readonly T[];
  add(value: T): void;
  addAll(values: readonly T[]): void;
  update(values: readonly T[]): void;
  clear(): void;
}

export interface MapState<K, V> {
  get(key: K): V | undefined;
  put(key: K, value: V): void;
  remove(key: K): void;
  contains(key: K): boolean;
  entries(): IterableIterator<[K, V]>;
  keys(): IterableIterator<K>;
  values(): IterableIterator<V>;
  isEmpty(): boolean;
  clear(): void;
}

/**
 * The MapState of one key whose entries a backend keeps as one `Map` value: `map(create)` gives the
 * current key's Map (a new, stored one when `create` and there is none), `clear` drops it.
 */
export function mapStateView<K, V>(map: (create: boolean) => Map<K, V> | undefined, clear: () => void): MapState<K, V> {
  const empty = new Map<K, V>();
  return {
    get: (k) => map(false)?.get(k),
    put: (k, v) => void map(true)!.set(k, v),
    remove: (k) => void map(false)?.delete(k),
    contains: (k) => map(false)?.has(k) ?? false,
    entries: () => (map(false) ?? empty).entries(),
    keys: () => (map(false) ?? empty).keys(),
    values: () => (map(false) ?? empty).values(),
    isEmpty: () => (map(false)?.size ?? 0) === 0,
    clear,
  };
}

/**
 * A primitive key. Composite keys are encoded by the operator into one primitive (or nested in MapState);
 * the runtime compares keys with `Map` semantics (SameValueZero).
 */
export type StateKey = string | number | bigint | boolean | null;

/** Names a state; `ttlMs` (like `table.exec.state.ttl`) expires entries not written for that long. */
export interface StateDescriptor {
  readonly name: string;
  readonly ttlMs?: number;
}

/**
 * Keyed state of one operator in one subtask, plus the `KeyContext`. Snapshotted and restored by the
 * runtime (operators write no checkpoint code for it).
 */
export interface KeyedStateStore {
  /** Sets the key every keyed handle acts on; called by the operator per record (or per key group of a batch). */
  setCurrentKey(key: StateKey): void;
  getCurrentKey(): StateKey;
  getState<T>(descriptor: string | StateDescriptor): ValueState<T>;
  getListState<T>(descriptor: string | StateDescriptor): ListState<T>;
  getMapState<K, V>(descriptor: string | StateDescriptor): MapState<K, V>;
  /** Every key with a value in state `name` (e.g. to emit final results). */
  keys(name: string): IterableIterator<StateKey>;
}

/** Non-keyed state of one operator in one subtask (Flink's operator list state). */
export interface OperatorStateStore {
  getListState<T>(name: string): ListState<T>;
}
