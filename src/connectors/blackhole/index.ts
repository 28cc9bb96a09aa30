export { BlackHoleSink, BlackHoleTableSink } from './blackhole-table-sink.js';
export { BlackHoleTableSinkFactory } from './blackhole-table-sink-factory.js';
