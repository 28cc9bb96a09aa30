import type { Factory } from '../factories/factory.js';
import { BlackHoleTableSinkFactory } from './blackhole/blackhole-table-sink-factory.js';
import { DataGenTableSourceFactory } from './datagen/datagen-table-source-factory.js';
import { FileSystemTableFactory } from './filesystem/filesystem-table-factory.js';
import { NexmarkTableSourceFactory } from './nexmark/nexmark-table-source-factory.js';
import { PrintTableSinkFactory } from './print/print-table-sink-factory.js';

/**
 * The connector factories every session registers. Connector owners append theirs here (kafka, pravega);
 * order does not matter, identifiers must be unique per interface.
 */
export const builtinConnectorFactories: Factory[] = [
  new DataGenTableSourceFactory(),
  new PrintTableSinkFactory(),
  new BlackHoleTableSinkFactory(),
  new NexmarkTableSourceFactory(),
  new FileSystemTableFactory(),
];
