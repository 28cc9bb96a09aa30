import { builtinCatalogFactories } from '../catalog/catalog-factories.js';
import { builtinConnectorFactories } from '../connectors/builtin.js';
import { kafkaConnectorFactories } from '../connectors/kafka/index.js';
import { pravegaConnectorFactories } from '../connectors/pravega/index.js';
import type { Factory } from '../factories/factory.js';
import { builtinFormatFactories } from '../formats/index.js';

/** Every connector and format factory Sluice ships, registered in each new session. */
export function builtinFactories(): Factory[] {
  return [...builtinConnectorFactories, ...kafkaConnectorFactories, ...pravegaConnectorFactories, ...builtinFormatFactories, ...builtinCatalogFactories];
}
