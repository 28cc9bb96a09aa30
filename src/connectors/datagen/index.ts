export { DataGenOptions, fieldOption } from './datagen-options.js';
export { buildFieldGenerators, type FieldGenerator, type FieldGeneratorsPlan, type RandomValue } from './field-generators.js';
export { GeneratorSource, initialSplits, type GeneratorSplit, type GeneratorEnumState, type GeneratorSourceSettings, type RowBatchGenerator } from './generator-source.js';
export { DataGenTableSource, type DataGenSettings } from './datagen-table-source.js';
export { DataGenTableSourceFactory } from './datagen-table-source-factory.js';
export { FastRandom, mixSeed, randomSeed } from './random.js';
