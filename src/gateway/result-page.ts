import { createJsonElementConverter, type JsonDecodeSettings, type JsonValueConverter } from '../formats/json/json-to-row.js';
import type { JsonNode } from '../formats/json/json-tree.js';
import { Columns } from '../types/column.js';
import { RowKind } from '../types/row-kind.js';
import { Row } from '../types/row.js';
import { ResolvedSchema } from '../types/schema.js';
import { GatewayConnectionError } from './gateway-error.js';
import { fromFlinkType, type FlinkTypeJson } from './flink-logical-type.js';

/** One page of `GET .../result/:token?rowFormat=JSON`, as the SQL Gateway answers it (REST API v2 and later). */
export interface ResultPageJson {
  readonly resultType: 'NOT_READY' | 'PAYLOAD' | 'EOS';
  readonly isQueryResult?: boolean;
  readonly jobID?: string;
  readonly resultKind?: 'SUCCESS' | 'SUCCESS_WITH_CONTENT';
  readonly results?: {
    readonly columns?: readonly { readonly name: string; readonly logicalType: FlinkTypeJson; readonly comment?: string | null }[];
    readonly data?: readonly { readonly kind: string; readonly fields: readonly JsonNode[] }[];
  };
  readonly nextResultUri?: string;
}

const KINDS: Readonly<Record<string, RowKind>> = {
  INSERT: RowKind.INSERT,
  UPDATE_BEFORE: RowKind.UPDATE_BEFORE,
  UPDATE_AFTER: RowKind.UPDATE_AFTER,
  DELETE: RowKind.DELETE,
};

// The gateway writes rows with Flink's JSON format converters in ISO-8601 mode (`2024-01-01T10:00:00.123`).
const SETTINGS: JsonDecodeSettings = { failOnMissingField: false, timestampStandard: 'ISO-8601' };

/** Turns the JSON rows of result pages into Sluice rows of the result's schema. */
export class ResultDecoder {
  readonly schema: ResolvedSchema;
  private readonly converters: JsonValueConverter[];

  constructor(columns: NonNullable<NonNullable<ResultPageJson['results']>['columns']>) {
    const cols = columns.map((c) => Columns.physical(c.name, fromFlinkType(c.logicalType)));
    this.schema = ResolvedSchema.of(cols);
    this.converters = cols.map((c) => createJsonElementConverter(c.type, SETTINGS));
  }

  rows(page: ResultPageJson): Row[] {
    return (page.results?.data ?? []).map((r) => {
      const kind = KINDS[r.kind];
      if (kind === undefined) throw new GatewayConnectionError(`The SQL Gateway sent a row of unknown kind '${r.kind}'.`);
      return Row.of(
        kind,
        r.fields.map((v, i) => (v === null || v === undefined ? null : this.converters[i]!(v))),
      );
    });
  }
}
