import type { ConfigOption } from '../../config/config-option.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableFactoryContext } from '../../factories/dynamic-table-factory.js';
import type { RowType } from '../../types/logical-type.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { BulkDecodingFormat, BulkEncodingFormat, BulkFormatFactory } from './bulk-format.js';
import { ArrowOptions } from './arrow-options.js';
import { ArrowBulkDecoder } from './arrow-bulk-decoder.js';
import { ArrowBulkEncoder } from './arrow-bulk-encoder.js';
import { toArrowType } from './arrow-types.js';

/** `'format' = 'arrow'`: whole files of Arrow IPC record batches, insert-only; a bulk format. */
export class ArrowFormatFactory implements BulkFormatFactory {
  readonly factoryIdentifier = 'arrow';
  readonly description = 'Apache Arrow IPC stream or file (bulk, for the filesystem connector); insert-only.';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return Object.values(ArrowOptions) as ConfigOption<unknown>[];
  }

  createBulkDecodingFormat(_ctx: DynamicTableFactoryContext, _formatOptions: ReadableConfig): BulkDecodingFormat {
    return {
      createBulkDecoder: (physicalType: RowType) => {
        physicalType.fields.forEach((f) => toArrowType(f.type));
        return new ArrowBulkDecoder(physicalType);
      },
      getChangelogMode: () => ChangelogMode.insertOnly(),
    };
  }

  createBulkEncodingFormat(_ctx: DynamicTableFactoryContext, formatOptions: ReadableConfig): BulkEncodingFormat {
    const batchSize = formatOptions.get(ArrowOptions.BATCH_SIZE);
    if (batchSize < 1) throw new ValidationError(`Option 'arrow.batch-size' must be at least 1, but was ${batchSize}.`);
    const settings = { ipcFormat: formatOptions.get(ArrowOptions.IPC_FORMAT), batchSize };
    return {
      createBulkEncoder: (physicalType: RowType) => new ArrowBulkEncoder(physicalType, settings),
      getChangelogMode: () => ChangelogMode.insertOnly(),
    };
  }
}
