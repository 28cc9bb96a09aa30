import { ExecutionError } from '../errors/sluice-error.js';
import { ChangelogMode } from '../factories/changelog-mode.js';
import { isSinkFactory, isSourceFactory } from '../factories/dynamic-table-factory.js';
import type { Factory } from '../factories/factory.js';
import { isDecodingFormatFactory, isEncodingFormatFactory } from '../factories/format.js';
import { markMainThreadOnly } from '../factories/main-thread-only.js';
import type { FilterPushDownResult, SourceExpression } from '../factories/source-filter.js';
import type { Boundedness } from '../runtime/source/source-split.js';
import { RowKind } from '../types/row-kind.js';

/**
 * Connector and format factories registered in code without a module (issue #19 item 4). No worker thread can load
 * such a factory, yet every worker plans the job again to build the same graph. So the main thread records what each
 * source and sink built with one answered while it planned the job (`TableObjectRecorder`), and a worker plans with
 * stand-ins that give the same answers (`TableObjectReplayer`). The vertices that run those objects (a scan, a lookup
 * join, a sink) are pinned to the main thread (factories/main-thread-only.ts); the rest of the job runs on the
 * workers. Planning is deterministic, so the worker asks each object the same questions in the same order.
 */

/** One answer, as it crosses to a worker (structured-clonable). */
type Encoded =
  | { readonly t: 'value'; readonly v: unknown }
  | { readonly t: 'changelog'; readonly kinds: readonly RowKind[] }
  | { readonly t: 'scan-provider'; readonly bounded: boolean; readonly parallelism: number | undefined; readonly boundedness: Boundedness }
  | { readonly t: 'sink-provider'; readonly parallelism: number | undefined }
  | { readonly t: 'filters'; readonly accepted: readonly number[]; readonly remaining: readonly number[] }
  | { readonly t: 'function' };

export type TableRole = 'source' | 'sink';

/** What one source or sink built with a code factory answered while the main thread planned. */
export interface RecordedTableObject {
  /** The table, as `identifierToString` writes it. */
  readonly table: string;
  readonly role: TableRole;
  /** Why it runs on the main thread only (which code factories built it): the pin reason of its vertex. */
  readonly pin: string;
  /** Its properties that are not methods (`kind`, `supportsWatermarkPushDown`). */
  readonly props: Readonly<Record<string, unknown>>;
  /** Every method it has: the planner asks a source which abilities it has. */
  readonly methods: readonly string[];
  /** Per method, the answers of its calls, in order. */
  readonly answers: Readonly<Record<string, readonly Encoded[]>>;
}

const ALL_KINDS = [RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE];

/** The methods through which a connector or format factory builds what runs a table. */
const CREATE_METHODS: Readonly<Record<string, 'connector' | 'format'>> = {
  createDynamicTableSource: 'connector',
  createDynamicTableSink: 'connector',
  createDecodingFormat: 'format',
  createEncodingFormat: 'format',
};

/** Whether a worker needs stand-ins for what `f` builds: a connector or format factory (a catalog factory never runs in a worker). */
export function buildsTableObjects(f: Factory): boolean {
  return isSourceFactory(f) || isSinkFactory(f) || isDecodingFormatFactory(f) || isEncodingFormatFactory(f);
}

/**
 * Notes which code factories (registered without a module) the creation of a table's source or sink called: the
 * connector's own, or a format's that a built-in connector looked up. Creation is synchronous, so one note at a time.
 */
export class CodeFactoryUse {
  private used: string[] | undefined;

  /** `f` with its create methods noting their use; everything else is the factory's own, called on it (a class may keep private fields). */
  wrap(f: Factory): Factory {
    return new Proxy(f, {
      get: (target, key) => {
        const v = Reflect.get(target, key) as unknown;
        if (typeof v !== 'function') return v;
        const kind = typeof key === 'string' ? CREATE_METHODS[key] : undefined;
        if (kind === undefined) return (v as (...a: unknown[]) => unknown).bind(target);
        return (...args: unknown[]): unknown => {
          const what = `${kind} '${target.factoryIdentifier}'`;
          if (this.used !== undefined && !this.used.includes(what)) this.used.push(what);
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }

  /** What `create` built, and why it may run on the main thread only (undefined if it used no code factory). */
  during<T>(create: () => T): { readonly value: T; readonly pin: string | undefined } {
    const outer = this.used;
    this.used = [];
    try {
      const value = create();
      const used = this.used;
      return { value, pin: used.length === 0 ? undefined : `${used.join(' and ')} ${used.length === 1 ? 'is' : 'are'} registered in code without a module` };
    } finally {
      this.used = outer;
    }
  }
}

/** The sources and sinks built with code factories while the main thread planned one job, and their answers. */
export class TableObjectRecorder {
  readonly objects: RecordedTableObject[] = [];
  /** Why the job's recording cannot be replayed, if it cannot (an answer that cannot cross threads). */
  unreplayable: string | undefined;

  /** `real`, recording every answer it gives, and marked main-thread only for `pin`. */
  record<T extends object>(table: string, role: TableRole, pin: string, real: T): T {
    const answers: Record<string, Encoded[]> = {};
    const props: Record<string, unknown> = {};
    const methods: string[] = [];
    for (const key of propertyNames(real)) {
      const v = (real as Record<string, unknown>)[key];
      if (typeof v === 'function') methods.push(key);
      else if (v === undefined || typeof v !== 'object') props[key] = v;
    }
    const rec: RecordedTableObject = { table, role, pin, props, methods, answers };
    this.objects.push(rec);
    const proxy = new Proxy(real, {
      get: (target, key) => {
        const v = Reflect.get(target, key) as unknown;
        if (typeof v !== 'function' || typeof key !== 'string') return v;
        return (...args: unknown[]) => {
          const result = (v as (...a: unknown[]) => unknown).apply(target, args);
          const encoded = this.encode(rec, key, result, args);
          if (encoded !== undefined) (answers[key] ??= []).push(encoded);
          return result;
        };
      },
    });
    return markMainThreadOnly(proxy, pin);
  }

  private encode(rec: RecordedTableObject, method: string, result: unknown, args: readonly unknown[]): Encoded | undefined {
    if (result instanceof ChangelogMode) return { t: 'changelog', kinds: ALL_KINDS.filter((k) => result.contains(k)) };
    if (typeof result === 'function') return { t: 'function' };
    if (method === 'getScanRuntimeProvider') {
      const p = result as { source: { boundedness(): Boundedness }; bounded: boolean; parallelism?: number };
      return { t: 'scan-provider', bounded: p.bounded, parallelism: p.parallelism, boundedness: p.source.boundedness() };
    }
    if (method === 'getSinkRuntimeProvider') return { t: 'sink-provider', parallelism: (result as { parallelism?: number }).parallelism };
    if (method === 'applyFilters') {
      const filters = args[0] as readonly SourceExpression[];
      const r = result as FilterPushDownResult;
      const accepted = r.accepted.map((e) => filters.indexOf(e));
      const remaining = r.remaining.map((e) => filters.indexOf(e));
      if ([...accepted, ...remaining].includes(-1)) {
        this.unreplayable ??= `the source of table '${rec.table}' (${rec.pin}) answered applyFilters with expressions of its own, which a worker thread cannot rebuild`;
        return undefined;
      }
      return { t: 'filters', accepted, remaining };
    }
    try {
      return { t: 'value', v: structuredClone(result) };
    } catch {
      this.unreplayable ??= `the ${rec.role} of table '${rec.table}' (${rec.pin}) answered ${method} with a value that cannot be sent to a worker thread`;
      return undefined;
    }
  }
}

/** Own and inherited property names of a connector object, up to Object.prototype. */
function propertyNames(o: object): string[] {
  const names = new Set<string>();
  for (let p: object | null = o; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const k of Object.getOwnPropertyNames(p)) if (k !== 'constructor') names.add(k);
  }
  return [...names];
}

/**
 * In a worker: stand-ins for the sources and sinks the main thread built with code factories. The k-th object the
 * worker's planning builds for a table and role is the k-th the main thread's did; a table none of whose objects
 * was recorded is built by the factories as usual.
 */
export class TableObjectReplayer {
  private readonly taken = new Map<string, number>();

  constructor(private readonly objects: readonly RecordedTableObject[]) {}

  /** The stand-in for the next `role` object of `table`, or undefined if the main thread built that table's normally. */
  next(role: TableRole, table: string): object | undefined {
    const mine = this.objects.filter((r) => r.role === role && r.table === table);
    if (mine.length === 0) return undefined;
    const key = `${role} ${table}`;
    const k = this.taken.get(key) ?? 0;
    this.taken.set(key, k + 1);
    const rec = mine[k];
    if (rec === undefined) {
      throw new ExecutionError(`internal: a worker thread planned the ${role} of table '${table}' (${mine[0]!.pin}) more often than the main thread did`);
    }
    return standIn(rec);
  }
}

/** An object with the recorded one's properties and methods, each method giving its recorded answers in order. */
function standIn(rec: RecordedTableObject): object {
  const o: Record<string, unknown> = { ...rec.props };
  for (const m of rec.methods) {
    let next = 0;
    o[m] = (...args: unknown[]): unknown => {
      const answers = rec.answers[m] ?? [];
      // A repeated question past what was recorded (a summary asked once more) gets the last answer.
      const a = answers[Math.min(next++, answers.length - 1)];
      if (a === undefined) {
        throw new ExecutionError(`internal: a worker thread asked ${m} of the ${rec.role} of table '${rec.table}' (${rec.pin}), which the main thread's planning did not`);
      }
      return decode(a, args, rec);
    };
  }
  return markMainThreadOnly(o, rec.pin);
}

function decode(a: Encoded, args: readonly unknown[], rec: RecordedTableObject): unknown {
  const mainOnly = (what: string) => (): never => {
    throw new ExecutionError(`internal: the ${what} of table '${rec.table}' (${rec.pin}) runs on the main thread only, not in a worker thread`);
  };
  switch (a.t) {
    case 'value':
      return structuredClone(a.v);
    case 'changelog':
      return ChangelogMode.of(...a.kinds);
    case 'function':
      return mainOnly('function');
    case 'scan-provider': {
      const source = {
        boundedness: () => a.boundedness,
        createReader: mainOnly('source'),
        createEnumerator: mainOnly('source'),
        restoreEnumerator: mainOnly('source'),
        getSplitSerializer: mainOnly('source'),
        getEnumeratorCheckpointSerializer: mainOnly('source'),
      };
      return a.parallelism === undefined ? { source, bounded: a.bounded } : { source, bounded: a.bounded, parallelism: a.parallelism };
    }
    case 'sink-provider': {
      const sink = { createWriter: mainOnly('sink') };
      return a.parallelism === undefined ? { sink } : { sink, parallelism: a.parallelism };
    }
    case 'filters': {
      const filters = args[0] as readonly SourceExpression[];
      return { accepted: a.accepted.map((i) => filters[i]!), remaining: a.remaining.map((i) => filters[i]!) };
    }
    default: {
      const never: never = a;
      return never;
    }
  }
}
