import type { Factory } from '../../factories/factory.js';
import { PravegaTableFactory } from './pravega-table-factory.js';

export { PravegaOptions, readPravegaSinkConfig, readPravegaSourceConfig } from './pravega-options.js';
export type { PravegaSinkConfig, PravegaSourceConfig, ScanExecutionType, SinkSemantic, StreamToRead } from './pravega-options.js';
export { PravegaTableFactory } from './pravega-table-factory.js';
export { EVENT_POINTER_METADATA, PravegaDynamicSink, PravegaDynamicSource } from './pravega-dynamic-table.js';
export { PravegaSource } from './source/pravega-source.js';
export type { PravegaSplit } from './source/pravega-split.js';
export type { PravegaEnumState } from './source/pravega-enumerator.js';
export { createPravegaSink } from './sink/pravega-sink.js';
export type { PravegaSinkSettings } from './sink/pravega-sink-writer.js';
export type { PravegaCommittable } from './sink/pravega-committable.js';
export { eventPointerBytes } from './source/event-pointer.js';

/** The Pravega connector's factories; the lead adds them to the built-ins. */
export const pravegaConnectorFactories: Factory[] = [new PravegaTableFactory()];
