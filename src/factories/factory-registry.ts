import { ValidationError } from '../errors/sluice-error.js';
import type { Factory } from './factory.js';

/** The interfaces a factory can be looked up by, named as Flink names them in its messages. */
export type FactoryKind = 'DynamicTableSourceFactory' | 'DynamicTableSinkFactory' | 'DecodingFormatFactory' | 'EncodingFormatFactory' | 'CatalogFactory';

/**
 * The factories a session can use: the built-ins, those registered by code (`registerFactory`), and
 * those discovered in installed npm packages. Lookup is by identifier and interface, as in Flink's
 * `FactoryUtil.discoverFactory`.
 */
export class FactoryRegistry {
  private readonly factories: Factory[] = [];

  constructor(initial: Iterable<Factory> = []) {
    for (const f of initial) this.register(f);
  }

  /**
   * Adds a factory. Two factories with one identifier and one interface are allowed here and reported as
   * ambiguous when a table asks for that identifier, as Flink does, so registering never fails half-way.
   */
  register(factory: Factory): void {
    if (!this.factories.includes(factory)) this.factories.push(factory);
  }

  all(): readonly Factory[] {
    return this.factories;
  }

  /** Every factory implementing the interface, sorted by identifier. */
  list<F extends Factory>(is: (f: Factory) => f is F): F[] {
    return this.factories.filter(is).sort((a, b) => a.factoryIdentifier.localeCompare(b.factoryIdentifier));
  }

  /**
   * The one factory with this identifier implementing the interface. Errors word for word as Flink's,
   * so users can search for them.
   */
  discover<F extends Factory>(kind: FactoryKind, is: (f: Factory) => f is F, identifier: string): F {
    const candidates = this.list(is);
    const matches = candidates.filter((f) => f.factoryIdentifier === identifier);
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) {
      throw new ValidationError(
        `Multiple factories for identifier '${identifier}' that implement '${kind}' found.\n\n` +
          `Ambiguous factories are:\n\n${matches.map((m) => m.constructor.name).join('\n')}`,
      );
    }
    const ids = [...new Set(candidates.map((f) => f.factoryIdentifier))].sort();
    throw new ValidationError(
      `Could not find any factory for identifier '${identifier}' that implements '${kind}'.\n\n` +
        `Available factory identifiers are:\n\n${ids.join('\n')}`,
    );
  }

  /** Like `discover`, but undefined instead of an error. */
  find<F extends Factory>(is: (f: Factory) => f is F, identifier: string): F | undefined {
    return this.factories.filter(is).find((f) => f.factoryIdentifier === identifier);
  }
}
