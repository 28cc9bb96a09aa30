import { builtinFactories } from '../api/builtin-factories.js';
import { isSinkFactory, isSourceFactory } from '../factories/dynamic-table-factory.js';
import type { Factory } from '../factories/factory.js';
import { loadAllFactories } from '../factories/lazy-factory.js';
import { isDecodingFormatFactory, isEncodingFormatFactory } from '../factories/format.js';
import { isCatalogFactory } from '../factories/catalog-factory.js';
import type { ConsoleIO } from './console-io.js';
import { describeOptions, factoryKinds } from './option-docs.js';

/** `sluice connectors [name]`: the connector and format list, or one factory's options. */
export async function listConnectors(name: string | undefined, io: ConsoleIO): Promise<number> {
  const factories = builtinFactories();
  await loadAllFactories(factories);
  if (name === undefined) {
    const connectors = factories.filter((f) => isSourceFactory(f) || isSinkFactory(f));
    const formats = factories.filter((f) => isDecodingFormatFactory(f) || isEncodingFormatFactory(f));
    io.out('Connectors:\n');
    for (const f of sorted(connectors)) io.out(`  ${f.factoryIdentifier.padEnd(16)} ${factoryKinds(f)}${f.description ? `  ${f.description}` : ''}\n`);
    io.out('\nFormats:\n');
    for (const f of sorted(formats)) io.out(`  ${f.factoryIdentifier.padEnd(16)} ${factoryKinds(f)}${f.description ? `  ${f.description}` : ''}\n`);
    io.out('\nCatalogs (CREATE CATALOG c WITH (\'type\' = ...)):\n');
    for (const f of sorted(factories.filter(isCatalogFactory))) io.out(`  ${f.factoryIdentifier.padEnd(16)} ${f.description ?? ''}\n`);
    io.out(`\nRun 'sluice connectors <name>' for the options of one.\n`);
    return 0;
  }
  const matches = factories.filter((f) => f.factoryIdentifier === name);
  if (matches.length === 0) {
    io.err(`No connector or format named '${name}'. Available: ${[...new Set(factories.map((f) => f.factoryIdentifier))].sort().join(', ')}\n`);
    return 1;
  }
  for (const f of matches) io.out(describeOptions(f, 'text'));
  return 0;
}

function sorted(fs: Factory[]): Factory[] {
  return [...new Map(fs.map((f) => [f.factoryIdentifier, f])).values()].sort((a, b) => a.factoryIdentifier.localeCompare(b.factoryIdentifier));
}
