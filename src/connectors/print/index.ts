export { PrintOptions } from './print-options.js';
export { PrintSink, printPrefix, type PrintTarget } from './print-sink.js';
export { PrintTableSink, type PrintSettings } from './print-table-sink.js';
export { PrintTableSinkFactory } from './print-table-sink-factory.js';
