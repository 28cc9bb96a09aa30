import type { ConfigOption } from '../config/config-option.js';
import type { Factory } from './factory.js';

/** What a lazily loaded factory can do, so type guards see the right methods before it is loaded. */
export type LazyFactoryKind = 'source' | 'sink' | 'decode' | 'encode' | 'bulk-format';

/**
 * Thrown by a lazy factory that is used before its module has been loaded. Planning code catches it,
 * awaits `load()` and plans again, so a session loads a connector's client library (kafkajs, gRPC,
 * Arrow) only when a statement actually uses that connector. Everything else passes it through.
 */
export class FactoryNotLoadedError extends Error {
  constructor(
    readonly identifier: string,
    readonly load: () => Promise<void>,
  ) {
    super(`The '${identifier}' factory has not been loaded yet.`);
  }
}

const METHODS: Record<LazyFactoryKind, readonly string[]> = {
  source: ['createDynamicTableSource'],
  sink: ['createDynamicTableSink'],
  decode: ['createDecodingFormat'],
  encode: ['createEncodingFormat'],
  'bulk-format': ['createBulkDecodingFormat', 'createBulkEncodingFormat'],
};

export interface LazyFactorySpec {
  readonly identifier: string;
  readonly description: string;
  readonly kinds: readonly LazyFactoryKind[];
  /** Imports the module and returns the real factory. Called at most once. */
  readonly load: () => Promise<Factory>;
}

/**
 * A stand-in registered under the real factory's identifier: every call delegates to the real factory
 * once `ensureLoaded()` has run, and throws FactoryNotLoadedError before that.
 */
export class LazyFactory implements Factory {
  readonly factoryIdentifier: string;
  readonly description: string;
  private real: Factory | undefined;
  private loading: Promise<void> | undefined;

  constructor(private readonly spec: LazyFactorySpec) {
    this.factoryIdentifier = spec.identifier;
    this.description = spec.description;
    for (const kind of spec.kinds) {
      for (const method of METHODS[kind]) {
        Object.defineProperty(this, method, {
          value: (...args: unknown[]) => (this.target() as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!(...args),
        });
      }
    }
  }

  get loaded(): boolean {
    return this.real !== undefined;
  }

  ensureLoaded(): Promise<void> {
    this.loading ??= this.spec.load().then((f) => {
      this.real = f;
    });
    return this.loading;
  }

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return this.target().requiredOptions();
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return this.target().optionalOptions();
  }

  prefixesPassedThrough(): readonly string[] {
    return this.target().prefixesPassedThrough?.() ?? [];
  }

  private target(): Factory {
    if (!this.real) throw new FactoryNotLoadedError(this.factoryIdentifier, () => this.ensureLoaded());
    return this.real;
  }
}

/** Loads every lazy factory among `factories` (for listings and docs, which need all options). */
export async function loadAllFactories(factories: readonly Factory[]): Promise<void> {
  await Promise.all(factories.filter((f): f is LazyFactory => f instanceof LazyFactory).map((f) => f.ensureLoaded()));
}

/**
 * Runs `attempt`, loading any lazy factory it needed and trying again; the planner is pure up to the
 * factories, so a retry after loading gives the same plan it would have given with everything loaded.
 */
export async function withFactoriesLoaded<T>(attempt: () => Promise<T> | T): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (e) {
      const missing = notLoadedCause(e);
      if (!missing || tries > 16) throw e;
      await missing.load();
    }
  }
}

function notLoadedCause(e: unknown): FactoryNotLoadedError | undefined {
  for (let c: unknown = e, depth = 0; c instanceof Error && depth < 8; c = c.cause, depth++) {
    if (c instanceof FactoryNotLoadedError) return c;
  }
  return undefined;
}
