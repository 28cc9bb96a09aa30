import type { VersionedSerializer } from '../../../runtime/serializer.js';
import { jsonSerializer } from '../../../runtime/serializer.js';
import type { Source } from '../../../runtime/source/source.js';
import type { Boundedness } from '../../../runtime/source/source-split.js';
import type { SourceReader, SourceReaderContext } from '../../../runtime/source/source-reader.js';
import type { SplitEnumerator, SplitEnumeratorContext } from '../../../runtime/source/split-enumerator.js';
import type { Row } from '../../../types/row.js';
import type { PravegaSourceConfig } from '../pravega-options.js';
import { PravegaSplitEnumerator, type PravegaEnumState } from './pravega-enumerator.js';
import { pravegaSplitSerializer, type PravegaSplit } from './pravega-split.js';
import { PravegaSourceReader, type PravegaReaderSettings } from './pravega-source-reader.js';

/**
 * The FLIP-27 Pravega source: a split is one segment with start and end offsets, the enumerator follows scaling
 * (successors after all predecessors), and a checkpoint (enumerator state plus reader offsets) is a stream cut.
 * Bounded for batch execution or when every stream has an end stream cut.
 *
 * @example
 * ```ts
 * const cfg = readPravegaSourceConfig(new Configuration({ 'controller-uri': 'tcp://127.0.0.1:9090', scope: 'sc', 'scan.streams': 'st' }));
 * graph.source('events', new PravegaSource(cfg, { createDeserializer: () => myFormat }), { parallelism: 2 });
 * ```
 */
export class PravegaSource implements Source<Row, PravegaSplit, PravegaEnumState> {
  constructor(
    readonly config: PravegaSourceConfig,
    private readonly decoding: Pick<PravegaReaderSettings, 'createDeserializer'> & { readonly withEventPointer?: boolean },
  ) {}

  boundedness(): Boundedness {
    return this.config.bounded ? 'BOUNDED' : 'CONTINUOUS_UNBOUNDED';
  }

  createReader(ctx: SourceReaderContext): SourceReader<Row, PravegaSplit> {
    return new PravegaSourceReader(
      {
        controllerUri: this.config.controllerUri,
        security: this.config.security,
        eventReadTimeoutMs: this.config.eventReadTimeoutMs,
        createDeserializer: this.decoding.createDeserializer,
        withEventPointer: this.decoding.withEventPointer ?? false,
      },
      ctx,
    );
  }

  createEnumerator(ctx: SplitEnumeratorContext<PravegaSplit>): SplitEnumerator<PravegaSplit, PravegaEnumState> {
    return new PravegaSplitEnumerator(ctx, this.enumeratorSettings());
  }

  restoreEnumerator(ctx: SplitEnumeratorContext<PravegaSplit>, checkpoint: PravegaEnumState): SplitEnumerator<PravegaSplit, PravegaEnumState> {
    return new PravegaSplitEnumerator(ctx, this.enumeratorSettings(), checkpoint);
  }

  getSplitSerializer(): VersionedSerializer<PravegaSplit> {
    return pravegaSplitSerializer();
  }

  getEnumeratorCheckpointSerializer(): VersionedSerializer<PravegaEnumState> {
    return jsonSerializer<PravegaEnumState>(1);
  }

  private enumeratorSettings(): ConstructorParameters<typeof PravegaSplitEnumerator>[1] {
    return {
      controllerUri: this.config.controllerUri,
      security: this.config.security,
      streams: this.config.streams,
      stopAtTail: this.config.executionType === 'batch',
      bounded: this.config.bounded,
    };
  }
}
