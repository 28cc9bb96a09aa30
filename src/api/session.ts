import { CatalogManager } from '../catalog/catalog-manager.js';
import type { Catalog } from '../catalog/catalog.js';
import { InMemoryCatalog } from '../catalog/in-memory-catalog.js';
import { Configuration, type ConfigLogger } from '../config/configuration.js';
import { ExecutionOptions } from '../config/options/execution-options.js';
import { FactoryRegistry } from '../factories/factory-registry.js';
import type { Factory } from '../factories/factory.js';
import { createBuiltinRegistry } from '../planner/functions/builtin-registry.js';
import type { FunctionRegistry } from '../planner/functions/function-registry.js';
import { JobRegistry } from './job-registry.js';
import type { Statement } from '../sql/ast/statements.js';
import type { CodeFunction } from './code-function.js';
import { buildsTableObjects, CodeFactoryUse } from './code-table-replay.js';
import type { JobRecorder } from './job-recording.js';

export type RuntimeMode = 'streaming' | 'batch';

export interface SessionOptions {
  readonly mode?: RuntimeMode;
  /** Initial session configuration (`-D key=value`, `SET` keys). */
  readonly config?: Readonly<Record<string, string>>;
  /** The default catalog; an in-memory `default_catalog` if absent. */
  readonly catalog?: { readonly name: string; readonly catalog: Catalog };
  /** Factories besides the built-ins. */
  readonly factories?: readonly Factory[];
  /** Where deprecation warnings go. */
  readonly logger?: ConfigLogger;
  /** Base directory for relative paths (UDF modules, file catalogs) and for `node_modules` discovery. */
  readonly baseDir?: string;
  /**
   * Register factories declared by installed npm packages (`"sluice": { "factories": "./x.js" }` in
   * their package.json) under `<baseDir>/node_modules`. Default true.
   */
  readonly discoverPackages?: boolean;
}

/** A factory registered in code (see `Session.codeFactories`). */
export interface CodeFactory {
  readonly identifier: string;
  /** Where a worker thread imports it from (`'file.js#export'`), if given. */
  readonly module: string | undefined;
}

/**
 * Everything one session owns: its configuration, catalogs, factories, functions and jobs. The
 * TableEnvironment is the public face; statement executors receive this.
 */
export class Session {
  readonly config: Configuration;
  readonly catalogs: CatalogManager;
  readonly factories: FactoryRegistry;
  readonly functions: FunctionRegistry;
  readonly jobs = new JobRegistry();
  readonly baseDir: string;
  /**
   * The CREATE FUNCTION and DROP FUNCTION statements this session executed, in order: a worker thread replays them
   * into its function registry (`execution.worker-threads`). It never replays DDL against catalogs: it gets the
   * tables a job's planning resolved with the job (job-recording.ts).
   */
  readonly functionLog: Statement[] = [];
  /** Functions registered in code (closures a worker cannot load unless given a module), by name. */
  readonly codeFunctions = new Map<string, CodeFunction>();
  /** Factories registered in code rather than found in packages, with the module a worker loads each from, if given. */
  readonly codeFactories: CodeFactory[] = [];
  /**
   * Notes when a connector or format factory registered in code without a module builds a table's source or sink: a
   * worker plans with a stand-in of that object, whose vertex stays on the main thread (code-table-replay.ts).
   */
  readonly codeFactoryUse = new CodeFactoryUse();
  /** What each planned job's planning asked and was answered, by the planned query or insert, for its workers. */
  readonly jobRecordings = new WeakMap<object, JobRecorder>();
  /** Whether package discovery runs, so a worker's session finds the same factories. */
  readonly discoverPackages: boolean;
  /** Where warnings go; the TableEnvironment points it at its listeners. */
  warn: (message: string) => void;
  private readonly initialConfig: Readonly<Record<string, string>>;

  constructor(options: SessionOptions, builtinFactories: readonly Factory[]) {
    const initial: Record<string, string> = { ...(options.config ?? {}) };
    if (options.mode) initial[ExecutionOptions.RUNTIME_MODE.key] = options.mode;
    this.initialConfig = initial;
    // Deprecated keys are reported when they are read, through the session's warning channel.
    this.config = new Configuration(initial, { logger: { warn: (m) => this.warn(m) } });
    this.warn = options.logger ? (m) => options.logger!.warn(m) : (m) => console.error(`[WARNING] ${m}`);
    const catalog = options.catalog ?? { name: 'default_catalog', catalog: new InMemoryCatalog('default_catalog') };
    this.catalogs = new CatalogManager(catalog.name, catalog.catalog);
    this.factories = new FactoryRegistry(builtinFactories);
    for (const f of options.factories ?? []) this.registerCodeFactory(f, undefined);
    this.discoverPackages = options.discoverPackages !== false;
    this.functions = createBuiltinRegistry();
    this.baseDir = options.baseDir ?? process.cwd();
  }

  /** Registers a factory given in code; without a module, what a connector or format factory builds is recorded for workers. */
  registerCodeFactory(f: Factory, module: string | undefined): void {
    this.factories.register(module === undefined && buildsTableObjects(f) ? this.codeFactoryUse.wrap(f) : f);
    this.codeFactories.push({ identifier: f.factoryIdentifier, module });
  }

  get mode(): RuntimeMode {
    return this.config.get(ExecutionOptions.RUNTIME_MODE);
  }

  /** `RESET 'k'`: back to the value the session started with. */
  reset(key: string): void {
    const initial = this.initialConfig[key];
    if (initial === undefined) this.config.remove(key);
    else this.config.set(key, initial);
  }

  /** `RESET;` */
  resetAll(): void {
    for (const k of this.config.keys()) this.config.remove(k);
    for (const [k, v] of Object.entries(this.initialConfig)) this.config.set(k, v);
  }
}
