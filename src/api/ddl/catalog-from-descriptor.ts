import type { Catalog } from '../../catalog/catalog.js';
import type { CatalogDescriptor } from '../../catalog/catalog-descriptor.js';
import { Configuration } from '../../config/configuration.js';
import { maskSecrets } from '../../config/secrets.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { isCatalogFactory, type CatalogFactory } from '../../factories/catalog-factory.js';
import { nearest } from '../../util/suggest.js';
import type { Session } from '../session.js';

/**
 * The catalog a descriptor asks for (Flink's FactoryUtil.createCatalog): the factory its `type` names, the options
 * checked as a table factory's are. CREATE CATALOG and ALTER CATALOG both build through here, so an ALTER that makes
 * the options wrong fails with the same message as a CREATE with those options would.
 */
export function catalogFromDescriptor(session: Session, d: CatalogDescriptor): Catalog {
  const type = d.options['type'];
  if (type === undefined) throw new ValidationError(`Catalog options do not contain an option key 'type' for discovering a catalog.`);
  try {
    const factory = session.factories.discover('CatalogFactory', isCatalogFactory, type);
    const conf = new Configuration({ ...d.options });
    validateCatalogOptions(factory, conf);
    return factory.createCatalog({ name: d.name, options: conf, baseDir: session.baseDir });
  } catch (e) {
    const shown = Object.entries(maskSecrets(d.options)).map(([k, v]) => `'${k}'='${v}'`).join('\n');
    throw new ValidationError(`Unable to create catalog '${d.name}'.\n\nCatalog options are:\n\n${shown}\n\nCaused by: ${(e as Error).message}`, { cause: e });
  }
}

/** The same checks as a table factory's: required keys, unknown keys with a suggestion, value types. */
function validateCatalogOptions(factory: CatalogFactory, conf: Configuration): void {
  const declared = [...factory.requiredOptions(), ...factory.optionalOptions()];
  const missing = factory.requiredOptions().filter((o) => !conf.contains(o)).map((o) => o.key);
  if (missing.length > 0) throw new ValidationError(`One or more required options are missing.\n\nMissing required options are:\n\n${missing.join('\n')}`);
  const known = new Set(['type', ...declared.flatMap((o) => o.allKeys())]);
  const unknown = conf.keys().filter((k) => !known.has(k)).sort();
  if (unknown.length > 0) {
    const hints = unknown.map((k) => [k, nearest(k, known)] as const).filter(([, n]) => n !== undefined).map(([k, n]) => `'${k}': did you mean '${n}'?`);
    throw new ValidationError(
      `Unsupported options found for '${factory.factoryIdentifier}'.\n\nUnsupported options:\n\n${unknown.join('\n')}\n\n${hints.length > 0 ? hints.join('\n') + '\n\n' : ''}Supported options:\n\n${[...known].sort().join('\n')}`,
    );
  }
  for (const o of declared) conf.getOptional(o);
}
