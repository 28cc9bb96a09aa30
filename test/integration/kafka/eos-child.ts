// A writer process for the exactly-once crash test (bundled and run by exactly-once-recovery.test.ts).
// It plays source + checkpoint storage + sink for one subtask: records r<i> are derived from the source
// position, so a restore replays exactly what the restored checkpoint had not yet covered.
// Env: BOOTSTRAP, TOPIC, PREFIX, STATE (file), TOTAL, PER_CHECKPOINT, DIE_AT ('<point>:<checkpoint>'),
// DECLINE (a checkpoint id that never completes).
import { readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { Kafka, logLevel } from 'kafkajs';
import { KafkaCommitter, KafkaRecordWriter } from '../../../src/connectors/kafka/client/kafka-record-writer.js';
import type { KafkaCommittable } from '../../../src/connectors/kafka/client/kafka-transaction.js';

interface State {
  checkpointId: number;
  position: number;
  pending: KafkaCommittable[];
}

const env = (k: string): string => {
  const v = process.env[k];
  if (v === undefined) throw new Error(`missing ${k}`);
  return v;
};
const statePath = env('STATE');
const total = Number(env('TOTAL'));
const perCheckpoint = Number(env('PER_CHECKPOINT'));
const dieAt = process.env.DIE_AT ?? '';

function die(point: string, checkpointId: number): void {
  if (dieAt === `${point}:${checkpointId}`) process.kill(process.pid, 'SIGKILL');
}

function saveState(s: State): void {
  writeFileSync(`${statePath}.tmp`, JSON.stringify(s));
  renameSync(`${statePath}.tmp`, statePath);
}

const kafka = new Kafka({ clientId: 'eos-child', brokers: [env('BOOTSTRAP')], logLevel: logLevel.NOTHING });
const restored: State = existsSync(statePath) ? (JSON.parse(readFileSync(statePath, 'utf8')) as State) : { checkpointId: 0, position: 0, pending: [] };

// Restore: re-commit what the restored checkpoint pre-committed (idempotent).
const committer = new KafkaCommitter(kafka);
for (const outcome of await committer.commit(restored.pending)) {
  if (outcome.kind !== 'committed') throw new Error(outcome.reason);
}
saveState({ ...restored, pending: [] });

const writer = await KafkaRecordWriter.open(kafka, {
  deliveryGuarantee: 'exactly-once',
  transactionalIdPrefix: env('PREFIX'),
  subtaskId: 0,
  partitioner: 'default',
  transactionTimeoutMs: 60_000,
  acks: -1,
  restoredCheckpointId: restored.checkpointId,
});

let position = restored.position;
for (let checkpointId = restored.checkpointId + 1; position < total; checkpointId++) {
  const end = Math.min(total, position + perCheckpoint);
  const batch = [];
  for (let i = position; i < end; i++) batch.push({ topic: env('TOPIC'), key: null, value: Buffer.from(`r${i}`), partition: 0 });
  await writer.write(batch);
  position = end;
  die('after-write', checkpointId);
  const committables = await writer.prepareCommit(checkpointId);
  die('after-prepare', checkpointId);
  // A checkpoint that never completes (declined): its transaction stays open, the next one begins.
  if (process.env.DECLINE === String(checkpointId)) continue;
  // Checkpoint N completes: its state (source position + committables) is durable.
  saveState({ checkpointId, position, pending: committables });
  die('after-checkpoint', checkpointId);
  for (const outcome of await committer.commit(committables)) {
    if (outcome.kind !== 'committed') throw new Error(outcome.reason);
  }
  die('after-commit', checkpointId);
  saveState({ checkpointId, position, pending: [] });
}
await writer.close();
await committer.close();
process.exit(0);
