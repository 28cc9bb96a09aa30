// The Kafka client layer: everything of the Kafka connector that talks to brokers.
export * from './kafka-properties.js';
export * from './kafka-split.js';
export * from './partition-discovery.js';
export * from './offsets-resolver.js';
export * from './partition-split-reader.js';
export * from './offset-committer.js';
export * from './sink-partitioner.js';
export * from './kafka-transaction.js';
export * from './kafka-record-writer.js';
