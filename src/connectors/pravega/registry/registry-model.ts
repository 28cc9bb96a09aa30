// The JSON shapes of the Pravega Schema Registry's REST API (v1), as its 0.5 server reads and writes them.
// Field names are the wire names; the client turns schemaData (base64 on the wire) into text.

/** How a group's events are serialized; `Any` lets a group hold schemas of several formats. */
export type SerializationFormat = 'Avro' | 'Protobuf' | 'Json' | 'Any' | 'Custom';

/** The rule a group applies to a new schema against the ones it already holds. */
export type CompatibilityPolicy =
  | 'AllowAny'
  | 'DenyAll'
  | 'Forward'
  | 'Backward'
  | 'ForwardTransitive'
  | 'BackwardTransitive'
  | 'Full'
  | 'FullTransitive'
  // Reported for groups whose rule was set with explicit backward/forward bounds; this client does not set it.
  | 'Advanced';

/** What a group is: its format, its compatibility rule, whether it holds several record types. */
export interface GroupProperties {
  readonly serializationFormat: SerializationFormat;
  /** The format's name as the server reports it; for `Custom` the user's own name. */
  readonly fullTypeName?: string;
  readonly compatibility: CompatibilityPolicy;
  readonly allowMultipleTypes: boolean;
  readonly properties: Readonly<Record<string, string>>;
}

/** A schema as registered: `schema` is its text (Avro JSON, JSON Schema, ...), `type` its record's full name. */
export interface SchemaInfo {
  readonly type: string;
  readonly serializationFormat: SerializationFormat;
  readonly schema: string;
  readonly properties: Readonly<Record<string, string>>;
}

/**
 * Where a schema sits in its group: `version` counts within its type, `id` is unique in the group. Pass it back
 * unchanged to ask for an encoding id.
 */
export interface VersionInfo {
  readonly type: string;
  readonly serializationFormat: string;
  readonly version: number;
  readonly id: number;
}

export interface SchemaWithVersion {
  readonly schemaInfo: SchemaInfo;
  readonly versionInfo: VersionInfo;
}

/** A codec a group's writers may use; `''` names "no codec". */
export interface CodecType {
  readonly name: string;
  readonly properties: Readonly<Record<string, string>>;
}

/** What an encoding id (the 4 bytes in front of each event) stands for: a schema version and a codec. */
export interface EncodingInfo {
  readonly schemaInfo: SchemaInfo;
  readonly versionInfo: VersionInfo;
  readonly codecType: CodecType;
}
