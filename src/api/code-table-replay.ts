import { identifierToString } from '../catalog/object-identifier.js';
import { ExecutionError } from '../errors/sluice-error.js';
import { ChangelogMode } from '../factories/changelog-mode.js';
import { isSinkFactory, isSourceFactory, type DynamicTableFactoryContext } from '../factories/dynamic-table-factory.js';
import type { Factory } from '../factories/factory.js';
import { codeFactoryPin, markMainThreadOnly } from '../factories/main-thread-only.js';
import type { FilterPushDownResult, SourceExpression } from '../factories/source-filter.js';
import type { Boundedness } from '../runtime/source/source-split.js';
import { RowKind } from '../types/row-kind.js';

/**
 * Connector factories registered in code without a module (issue #19 item 4). No worker thread can load such a
 * factory, yet every worker plans the job again to build the same graph. So the main thread records what each
 * source and sink the factory created answered while it planned the job (`CodeTableRecorder`), and a worker plans
 * with stand-ins that give the same answers (`standInFactory`). The vertices that run those objects (a scan, a
 * lookup join, a sink) are pinned to the main thread (factories/main-thread-only.ts); the rest of the job runs on
 * the workers. Planning is deterministic, so the worker asks each object the same questions in the same order.
 */

/** One answer, as it crosses to a worker (structured-clonable). */
type Encoded =
  | { readonly t: 'value'; readonly v: unknown }
  | { readonly t: 'changelog'; readonly kinds: readonly RowKind[] }
  | { readonly t: 'scan-provider'; readonly bounded: boolean; readonly parallelism: number | undefined; readonly boundedness: Boundedness }
  | { readonly t: 'sink-provider'; readonly parallelism: number | undefined }
  | { readonly t: 'filters'; readonly accepted: readonly number[]; readonly remaining: readonly number[] }
  | { readonly t: 'function' };

/** What one source or sink of a code factory answered while the main thread planned. */
export interface RecordedTableObject {
  readonly factory: string;
  /** The table, as `identifierToString` writes it. */
  readonly table: string;
  readonly role: 'source' | 'sink';
  /** Its properties that are not methods (`kind`, `supportsWatermarkPushDown`). */
  readonly props: Readonly<Record<string, unknown>>;
  /** Every method it has: the planner asks a source which abilities it has. */
  readonly methods: readonly string[];
  /** Per method, the answers of its calls, in order. */
  readonly answers: Readonly<Record<string, readonly Encoded[]>>;
}

/** What a worker gets: the objects the job's planning created, in order, and the latest of every table before. */
export interface RecordedTables {
  readonly job: readonly RecordedTableObject[];
  readonly latest: readonly RecordedTableObject[];
}

const ALL_KINDS = [RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE];

/** Whether a worker can plan with a stand-in of `f`: a connector factory, and nothing else (a format or catalog factory). */
export function isReplayableFactory(f: Factory): boolean {
  const methods = ['createDecodingFormat', 'createEncodingFormat', 'createCatalog'];
  return (isSourceFactory(f) || isSinkFactory(f)) && !methods.some((m) => typeof (f as unknown as Record<string, unknown>)[m] === 'function');
}

/** The session's recording of the sources and sinks its code factories create. */
export class CodeTableRecorder {
  private job: RecordedTableObject[] = [];
  private readonly latest = new Map<string, RecordedTableObject>();
  /** Why the current job's recording cannot be replayed, if it cannot (an answer that cannot cross threads). */
  private unreplayable: string | undefined;

  /** A job's planning starts: what it creates is recorded afresh. */
  startJob(): void {
    this.job = [];
    this.unreplayable = undefined;
  }

  /** What workers need to plan the current job, or why they cannot. */
  recorded(): RecordedTables | string {
    return this.unreplayable ?? { job: [...this.job], latest: [...this.latest.values()] };
  }

  /** `f` with every source and sink it creates recorded and marked main-thread only. */
  wrap(f: Factory): Factory {
    const create: Record<string, (ctx: DynamicTableFactoryContext) => object> = {};
    if (isSourceFactory(f)) create.createDynamicTableSource = (ctx) => this.record(f, ctx, 'source', f.createDynamicTableSource(ctx));
    if (isSinkFactory(f)) create.createDynamicTableSink = (ctx) => this.record(f, ctx, 'sink', f.createDynamicTableSink(ctx));
    // Everything else is the factory's own, called on it (a class may keep private fields).
    return new Proxy(f, {
      get: (target, key) => {
        if (typeof key === 'string' && create[key] !== undefined) return create[key];
        const v = Reflect.get(target, key) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }

  private record<T extends object>(f: Factory, ctx: DynamicTableFactoryContext, role: 'source' | 'sink', real: T): T {
    const answers: Record<string, Encoded[]> = {};
    const props: Record<string, unknown> = {};
    const methods: string[] = [];
    for (const key of propertyNames(real)) {
      const v = (real as Record<string, unknown>)[key];
      if (typeof v === 'function') methods.push(key);
      else if (v === undefined || typeof v !== 'object') props[key] = v;
    }
    const rec: RecordedTableObject = { factory: f.factoryIdentifier, table: identifierToString(ctx.identifier), role, props, methods, answers };
    this.job.push(rec);
    this.latest.set(`${role} ${rec.table}`, rec);
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
    return markMainThreadOnly(proxy, codeFactoryPin(f.factoryIdentifier));
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
        this.unreplayable ??= `the source of table '${rec.table}' (connector '${rec.factory}', registered in code without a module) answered applyFilters with expressions of its own, which a worker thread cannot rebuild`;
        return undefined;
      }
      return { t: 'filters', accepted, remaining };
    }
    try {
      return { t: 'value', v: structuredClone(result) };
    } catch {
      this.unreplayable ??= `the ${rec.role} of table '${rec.table}' (connector '${rec.factory}', registered in code without a module) answered ${method} with a value that cannot be sent to a worker thread`;
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
 * In a worker: a factory standing in for code factory `identifier`, whose sources and sinks give the answers the
 * main thread recorded and are marked main-thread only. Before `startJob` (the session's statements replayed), an
 * object answers as the latest one of its table did; then the k-th object of a table is the k-th the job's planning
 * created on the main thread.
 */
export function standInFactory(identifier: string, roles: { readonly source: boolean; readonly sink: boolean }, recorded: RecordedTables): Factory & { startJob(): void } {
  let jobStarted = false;
  const taken = new Map<string, number>();
  const pick = (role: 'source' | 'sink', ctx: DynamicTableFactoryContext): RecordedTableObject => {
    const table = identifierToString(ctx.identifier);
    const mine = (r: RecordedTableObject): boolean => r.factory === identifier && r.role === role && r.table === table;
    if (jobStarted) {
      const key = `${role} ${table}`;
      const k = taken.get(key) ?? 0;
      taken.set(key, k + 1);
      const rec = recorded.job.filter(mine)[k];
      if (rec !== undefined) return rec;
    } else {
      const rec = recorded.latest.find(mine);
      if (rec !== undefined) return rec;
    }
    throw new ExecutionError(
      `internal: a worker thread planned the ${role} of table '${table}' (connector '${identifier}', registered in code without a module) where the main thread did not`,
    );
  };
  const f: Record<string, unknown> = {
    factoryIdentifier: identifier,
    requiredOptions: () => [],
    optionalOptions: () => [],
    startJob: () => {
      jobStarted = true;
    },
  };
  if (roles.source) f.createDynamicTableSource = (ctx: DynamicTableFactoryContext) => standIn(pick('source', ctx));
  if (roles.sink) f.createDynamicTableSink = (ctx: DynamicTableFactoryContext) => standIn(pick('sink', ctx));
  return f as unknown as Factory & { startJob(): void };
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
        throw new ExecutionError(
          `internal: a worker thread asked ${m} of the ${rec.role} of table '${rec.table}' (connector '${rec.factory}', registered in code without a module), which the main thread's planning did not`,
        );
      }
      return decode(a, args, rec);
    };
  }
  return markMainThreadOnly(o, codeFactoryPin(rec.factory));
}

function decode(a: Encoded, args: readonly unknown[], rec: RecordedTableObject): unknown {
  const mainOnly = (what: string) => (): never => {
    throw new ExecutionError(`internal: the ${what} of table '${rec.table}' (connector '${rec.factory}') runs on the main thread only, not in a worker thread`);
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
