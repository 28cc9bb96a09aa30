import { ConfigOptions } from '../../config/config-options.js';

/** Options of `'format' = 'arrow'` (Sluice's own: Flink has no Arrow SQL format), keys after `arrow.`. */
export const ArrowOptions = {
  IPC_FORMAT: ConfigOptions.key('ipc-format')
    .enumType(['stream', 'file'])
    .defaultValue('stream')
    .withDescription("Container written: 'stream' (Arrow IPC stream, .arrows) or 'file' (with footer, .arrow). Reading accepts both."),
  BATCH_SIZE: ConfigOptions.key('batch-size')
    .intType()
    .defaultValue(8192)
    .withDescription('Rows per record batch when writing.'),
} as const;
