// Lingering exactly-once transactions after a restart with a smaller parallelism: the writers of the
// remaining subtasks must abort what the removed subtasks left open, or read_committed readers stall at
// the first open transaction until transaction.timeout.ms.
import { describe, expect, it } from 'vitest';
import { Partitioners } from 'kafkajs';
import { createCluster } from '../../../src/connectors/kafka/client/kafkajs-internals.js';
import { abortLingeringOfRemovedSubtasks, abortLingeringTransactions, KafkaTransaction, transactionalIdOf } from '../../../src/connectors/kafka/client/kafka-transaction.js';
import { brokerAvailable, createTopic, testKafka, uniqueTopic } from './broker.js';
import { CommittedLog } from './committed-log.js';

const up = await brokerAvailable();
const TIMEOUT = 60_000;

describe.skipIf(!up)('aborting lingering transactions', () => {
  it('subtasks of a narrower restart abort the open transactions of the subtasks it no longer runs', async () => {
    const kafka = testKafka();
    const topic = uniqueTopic('linger');
    await createTopic(kafka, topic, 1);
    const prefix = `linger-${topic}`;
    const cluster = createCluster(kafka);
    await cluster.connect();
    const log = new CommittedLog(kafka, topic, 1, (v) => v.toString());
    try {
      // A run at parallelism 4 restored checkpoint 6 and was killed with transaction 7 open (with records)
      // in every subtask.
      for (let subtask = 0; subtask < 4; subtask++) {
        const tx = await KafkaTransaction.begin(kafka, cluster, transactionalIdOf(prefix, subtask, 7), TIMEOUT);
        await tx.send([{ topic, messages: [{ key: null, value: Buffer.from(`open-${subtask}`), partition: 0 }] }]);
      }
      // The restart at parallelism 2 restores checkpoint 6 again: each writer cleans its own ids, then the
      // removed subtasks' (0 -> 2, 1 -> 3).
      const own = [
        ...(await abortLingeringTransactions(cluster, prefix, [0], 7, TIMEOUT)),
        ...(await abortLingeringTransactions(cluster, prefix, [1], 7, TIMEOUT)),
      ];
      expect(own.sort()).toEqual([transactionalIdOf(prefix, 0, 7), transactionalIdOf(prefix, 1, 7)]);
      const removed = [
        ...(await abortLingeringOfRemovedSubtasks(cluster, prefix, 0, 2, 7, TIMEOUT)),
        ...(await abortLingeringOfRemovedSubtasks(cluster, prefix, 1, 2, 7, TIMEOUT)),
      ];
      expect(removed.sort()).toEqual([transactionalIdOf(prefix, 2, 7), transactionalIdOf(prefix, 3, 7)]);
      // Nothing is open any more: a record committed now is visible at once, none of the aborted ones is.
      const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
      await producer.connect();
      await producer.send({ topic, acks: -1, messages: [{ value: 'after', partition: 0 }] });
      await producer.disconnect();
      expect(await log.waitFor(() => log.counts.has('after'), 10_000)).toBe(true);
      expect([...log.counts.keys()]).toEqual(['after']);
      // Without shrinking, the probe of the next subtask id (2 + 4 = 6, never used) finds it unused and stops.
      expect(await abortLingeringOfRemovedSubtasks(cluster, prefix, 2, 4, 7, TIMEOUT)).toEqual([]);
    } finally {
      await log.close();
      await cluster.disconnect();
    }
  }, 60_000);
});
