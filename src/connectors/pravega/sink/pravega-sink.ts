import type { Sink, WriterInitContext } from '../../../runtime/sink/sink.js';
import { PravegaOptions } from '../pravega-options.js';
import type { SinkWriter } from '../../../runtime/sink/sink-writer.js';
import type { Row } from '../../../types/row.js';
import { pravegaCommittableSerializer, type PravegaCommittable } from './pravega-committable.js';
import { PravegaCommitter } from './pravega-committer.js';
import { PravegaEventSinkWriter, PravegaTransactionalSinkWriter, type PravegaSinkSettings } from './pravega-sink-writer.js';

/**
 * The Sink V2 for `sink.semantic`: exactly-once gets transactional writers and a committer; at-least-once and
 * best-effort are plain writers (no committer), which the runtime flushes at every barrier.
 *
 * @example
 * ```ts
 * const sink = createPravegaSink({ config: readPravegaSinkConfig(options), createSerializer: () => encoder, routingKeyIndex: 0 });
 * graph.vertices.push({ kind: 'sink', id: 'out', name: 'pravega', parallelism: 2, sink });
 * ```
 */
export function createPravegaSink(settings: PravegaSinkSettings): Sink<Row, PravegaCommittable, never> | Sink<Row> {
  if (settings.config.semantic === 'exactly-once') {
    return {
      createWriter: (_ctx: WriterInitContext): SinkWriter<Row, PravegaCommittable, never> => new PravegaTransactionalSinkWriter(settings),
      createCommitter: () => new PravegaCommitter(settings.config.controllerUri, settings.config.security),
      getCommittableSerializer: () => pravegaCommittableSerializer(),
      lostCommittables: { action: settings.config.onLostTransaction, option: PravegaOptions.SINK_COMMIT_ON_LOST_TRANSACTION.key },
    };
  }
  return { createWriter: (): SinkWriter<Row> => new PravegaEventSinkWriter(settings) };
}
