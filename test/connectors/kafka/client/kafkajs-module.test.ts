// kafkajs loaded with its producer's per-partition grouping made linear (connectors/kafka/client/kafkajs-module.ts):
// the grouping gives what kafkajs's own gives, and loading kafkajs through the module puts it in place. Both are
// checked in fresh Node processes, as unit test files share their worker's module cache.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { groupMessagesPerPartition } from '../../../../src/connectors/kafka/client/kafkajs-module.js';

const require = createRequire(import.meta.url);
const BUILT_MODULE = new URL('../../../../dist/connectors/kafka/client/kafkajs-module.js', import.meta.url);
const BUILT = existsSync(fileURLToPath(BUILT_MODULE));
if (!BUILT && process.env.CI) throw new Error("dist/ is missing; CI must run 'npm run build' before the tests.");
const ORIGINAL = require.resolve('kafkajs/src/producer/groupMessagesPerPartition.js');

/** 2,000 messages over 7 partitions, some keys repeated; the partitioner reads the message. */
const messages = Array.from({ length: 2000 }, (_, i) => ({ key: `k${(i * 7919) % 613}`, value: `v${i}` }));
const partitionOf = (key: string): number => [...key].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 7, 0);

function inFreshNode(script: string): unknown {
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('kafkajs with a linear per-partition grouping', () => {
  it("groups as kafkajs's own grouping does: every partition's messages, in the order sent", () => {
    const partitioner = ({ message }: { message: { key: string } }): number => partitionOf(message.key);
    const ours = groupMessagesPerPartition({ topic: 't', partitionMetadata: [{}], messages, partitioner });
    const theirs = inFreshNode(`
      import { createRequire } from 'node:module';
      const group = createRequire(import.meta.url)(${JSON.stringify(ORIGINAL)});
      const messages = ${JSON.stringify(messages)};
      const partitionOf = ${partitionOf.toString()};
      process.stdout.write(JSON.stringify(group({ topic: 't', partitionMetadata: [{}], messages, partitioner: ({ message }) => partitionOf(message.key) })));
    `);
    expect(ours).toEqual(theirs);
    expect(Object.keys(ours)).toHaveLength(7);
    expect(groupMessagesPerPartition({ topic: 't', partitionMetadata: [], messages, partitioner })).toEqual({});
  });

  it.skipIf(!BUILT)('is the grouping kafkajs producers use once kafkajs is loaded through the module', () => {
    const module = BUILT_MODULE.href;
    const r = inFreshNode(`
      import { createRequire } from 'node:module';
      const { kafkajs, groupMessagesPerPartition } = await import(${JSON.stringify(module)});
      const { Kafka } = kafkajs();
      const require = createRequire(import.meta.url);
      process.stdout.write(JSON.stringify({
        kafka: typeof Kafka,
        replaced: require.cache[${JSON.stringify(ORIGINAL)}]?.exports === groupMessagesPerPartition,
      }));
    `);
    expect(r).toEqual({ kafka: 'function', replaced: true });
  });
});
