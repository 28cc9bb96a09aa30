import { ConfigOptions } from '../../config/config-options.js';
import type { ConfigOption } from '../../config/config-option.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { streamCutFromText, type PravegaSecurity, type StreamCutSpec } from './client/index.js';

/**
 * The table options of `'connector' = 'pravega'`, key for key as the Flink connector's `PravegaOptions`. Like Flink
 * they are plain strings (not enums) checked case-sensitively by `readPravegaSourceConfig` / `readPravegaSinkConfig`
 * with Flink's messages.
 *
 * Reader-group keys are accepted for compatibility but have no effect: Sluice has no Pravega reader group. The split
 * enumerator assigns segments to readers itself and a Sluice checkpoint is the stream cut made of the readers' segment
 * offsets, so there is no group to name, refresh or checkpoint.
 */
export const PravegaOptions = {
  CONTROLLER_URI: ConfigOptions.key('controller-uri').stringType().noDefaultValue().withDescription('Pravega controller URI, e.g. tcp://localhost:9090.'),
  SCOPE: ConfigOptions.key('scope').stringType().noDefaultValue().withDescription('Scope of the streams read and written.'),
  SECURITY_AUTH_TYPE: ConfigOptions.key('security.auth-type').stringType().noDefaultValue().withDescription("Static authentication type, e.g. 'Basic' (sent as 'Authorization: <type> <token>')."),
  SECURITY_AUTH_TOKEN: ConfigOptions.key('security.auth-token').stringType().noDefaultValue().withDescription('Static authentication token (secret), e.g. base64 of user:password for Basic.'),
  SECURITY_VALIDATE_HOSTNAME: ConfigOptions.key('security.validate-hostname').booleanType().defaultValue(true).withDescription('Validate the TLS host name.'),
  SECURITY_TRUST_STORE: ConfigOptions.key('security.trust-store').stringType().noDefaultValue().withDescription('TLS trust store: a PEM file of CA certificates (TLS is on for tls:// controller URIs).'),
  SCAN_EXECUTION_TYPE: ConfigOptions.key('scan.execution.type').stringType().defaultValue('streaming').withDescription("'streaming' reads unbounded; 'batch' reads up to the end stream cuts (or the tail at start)."),
  SCAN_STREAMS: ConfigOptions.key('scan.streams').stringType().asList().noDefaultValue().withDescription('Streams to read, separated by semicolons.'),
  SCAN_START_STREAMCUTS: ConfigOptions.key('scan.start-streamcuts').stringType().asList().noDefaultValue().withDescription('Base64 stream cuts to start from, one per stream (default: the head).'),
  SCAN_END_STREAMCUTS: ConfigOptions.key('scan.end-streamcuts').stringType().asList().noDefaultValue().withDescription('Base64 stream cuts to stop at, one per stream (default: UNBOUNDED).'),
  SCAN_UID: ConfigOptions.key('scan.uid').stringType().noDefaultValue().withDescription('Uid of the source operator.'),
  SCAN_READER_GROUP_NAME: ConfigOptions.key('scan.reader-group.name').stringType().noDefaultValue().withDescription('Accepted, no effect: Sluice has no reader group (the enumerator assigns segments).'),
  SCAN_READER_GROUP_MAX_OUTSTANDING_CHECKPOINT_REQUEST: ConfigOptions.key('scan.reader-group.max-outstanding-checkpoint-request')
    .intType()
    .defaultValue(3)
    .withDescription('Accepted and validated, no effect: checkpoints are Sluice checkpoints, not reader-group checkpoints.'),
  SCAN_READER_GROUP_REFRESH_INTERVAL: ConfigOptions.key('scan.reader-group.refresh.interval').durationType().defaultValue(3000).withDescription('Accepted, no effect (no reader group).'),
  SCAN_EVENT_READ_TIMEOUT_INTERVAL: ConfigOptions.key('scan.event-read.timeout.interval')
    .durationType()
    .defaultValue(1000)
    .withDescription('Longest wait between two polls of a segment tail that had no new data.'),
  SCAN_READER_GROUP_CHECKPOINT_INITIATE_TIMEOUT_INTERVAL: ConfigOptions.key('scan.reader-group.checkpoint-initiate-timeout.interval')
    .durationType()
    .defaultValue(5000)
    .withDescription('Accepted, no effect (no reader-group checkpoints).'),
  SINK_STREAM: ConfigOptions.key('sink.stream').stringType().noDefaultValue().withDescription('Stream to write; created (one segment, fixed scaling) if missing.'),
  SINK_SEMANTIC: ConfigOptions.key('sink.semantic').stringType().defaultValue('at-least-once').withDescription("'at-least-once', 'exactly-once' or 'best-effort'."),
  SINK_TXN_LEASE_RENEWAL_INTERVAL: ConfigOptions.key('sink.txn-lease-renewal.interval')
    .durationType()
    .defaultValue(30_000)
    .withDescription('Lease of exactly-once transactions; pinged every third of it until committed.'),
  SINK_COMMIT_ON_LOST_TRANSACTION: ConfigOptions.key('sink.commit.on-lost-transaction')
    .stringType()
    .defaultValue('fail')
    .withDescription(
      "Sluice-specific (Flink's connector only logs). Exactly-once: what to do when a pre-committed transaction can no longer be committed, " +
        "typically because the job was down for longer than 'sink.txn-lease-renewal.interval' and the controller aborted it. 'fail' fails " +
        "the job (without restarts) with a message naming the stream, the transaction and the likely cause; 'warn' logs the same message, " +
        'drops the transaction (its events are lost) and continues.',
    ),
  SINK_ENABLE_WATERMARK_PROPAGATION: ConfigOptions.key('sink.enable.watermark-propagation').booleanType().defaultValue(false).withDescription('Pass the watermark to Pravega on commit.'),
  SINK_ROUTING_KEY_FIELD_NAME: ConfigOptions.key('sink.routing-key.field.name').stringType().noDefaultValue().withDescription('STRING column used as routing key (default: random).'),
} as const;

export const PRAVEGA_REQUIRED_OPTIONS: readonly ConfigOption<unknown>[] = [PravegaOptions.CONTROLLER_URI, PravegaOptions.SCOPE];

/** Every optional key; `format` is added by the factory. */
export const PRAVEGA_OPTIONAL_OPTIONS: readonly ConfigOption<unknown>[] = Object.values(PravegaOptions).filter((o) => !PRAVEGA_REQUIRED_OPTIONS.includes(o));

export type ScanExecutionType = 'streaming' | 'batch';
export type SinkSemantic = 'at-least-once' | 'exactly-once' | 'best-effort';
export type LostTransactionAction = 'fail' | 'warn';

/** One stream to read, with where to start and stop. */
export interface StreamToRead {
  readonly scope: string;
  readonly stream: string;
  readonly start: StreamCutSpec;
  readonly end: StreamCutSpec;
}

export interface PravegaSourceConfig {
  readonly controllerUri: string;
  readonly security: PravegaSecurity;
  readonly executionType: ScanExecutionType;
  readonly streams: readonly StreamToRead[];
  /** True for batch execution or when every stream has an end cut. */
  readonly bounded: boolean;
  readonly eventReadTimeoutMs: number;
  readonly uid?: string;
}

export interface PravegaSinkConfig {
  readonly controllerUri: string;
  readonly security: PravegaSecurity;
  readonly scope: string;
  readonly stream: string;
  readonly semantic: SinkSemantic;
  readonly txnLeaseMs: number;
  /** `sink.commit.on-lost-transaction`. */
  readonly onLostTransaction: LostTransactionAction;
  readonly watermarkPropagation: boolean;
  readonly routingKeyField?: string;
}

const EXECUTION_TYPES: readonly ScanExecutionType[] = ['streaming', 'batch'];
const SEMANTICS: readonly SinkSemantic[] = ['at-least-once', 'exactly-once', 'best-effort'];
const LOST_TRANSACTION_ACTIONS: readonly LostTransactionAction[] = ['fail', 'warn'];

function oneOf<T extends string>(value: string, allowed: readonly T[], key: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ValidationError(`Unsupported value '${value}' for '${key}'. Supported values are [${allowed.map((v) => `'${v}'`).join(', ')}].`);
}

/**
 * The client security options. Like Flink's connector, credentials apply only when type and token are both given,
 * but one without the other is refused here (Flink silently drops it, which then surfaces as an auth failure far away).
 */
function readSecurity(options: ReadableConfig): PravegaSecurity {
  const max = options.get(PravegaOptions.SCAN_READER_GROUP_MAX_OUTSTANDING_CHECKPOINT_REQUEST);
  if (max < 1) throw new ValidationError(`'scan.reader-group.max-outstanding-checkpoint-request' requires a positive integer, received ${max}`);
  const type = options.get(PravegaOptions.SECURITY_AUTH_TYPE);
  const token = options.get(PravegaOptions.SECURITY_AUTH_TOKEN);
  if ((type === undefined) !== (token === undefined)) {
    throw new ValidationError(`'security.auth-type' and 'security.auth-token' go together; only '${type === undefined ? 'security.auth-token' : 'security.auth-type'}' is set`);
  }
  const trustStore = options.get(PravegaOptions.SECURITY_TRUST_STORE);
  return {
    ...(type === undefined || token === undefined ? {} : { auth: { type, token } }),
    ...(trustStore === undefined ? {} : { trustStore }),
    validateHostname: options.get(PravegaOptions.SECURITY_VALIDATE_HOSTNAME),
  };
}

function parseCuts(texts: readonly string[] | undefined, key: string, scope: string, streams: readonly string[]): StreamCutSpec[] {
  if (texts === undefined) return [];
  return texts.map((t, i) => {
    let cut: StreamCutSpec;
    try {
      cut = streamCutFromText(t);
    } catch (e) {
      throw new ValidationError(`Invalid stream cut in '${key}' at position ${i + 1}: ${(e as Error).message}`, { cause: e });
    }
    if (cut.kind === 'cut' && (cut.scope !== scope || cut.stream !== streams[i])) {
      throw new ValidationError(`Stream cut ${i + 1} of '${key}' is for '${cut.scope}/${cut.stream}' but stream ${i + 1} of 'scan.streams' is '${scope}/${streams[i]}'`);
    }
    return cut;
  });
}

/**
 * Reads the source side (Flink's `PravegaOptionsUtil` checks and messages). Streams may be written `scope/stream` to
 * read from another scope than `scope`.
 */
export function readPravegaSourceConfig(options: ReadableConfig): PravegaSourceConfig {
  const security = readSecurity(options);
  const streams = options.get(PravegaOptions.SCAN_STREAMS);
  if (streams === undefined || streams.length === 0) throw new ValidationError("'scan.streams' is required but missing");
  const executionType = oneOf(options.get(PravegaOptions.SCAN_EXECUTION_TYPE), EXECUTION_TYPES, 'scan.execution.type');
  const defaultScope = options.get(PravegaOptions.SCOPE)!;
  const named = streams.map((s) => {
    const t = s.trim();
    const slash = t.indexOf('/');
    const scoped = slash < 0 ? { scope: defaultScope, stream: t } : { scope: t.slice(0, slash), stream: t.slice(slash + 1) };
    if (!/^[\w-]+$/.test(scoped.stream) || !/^[\w-]+$/.test(scoped.scope)) {
      throw new ValidationError(`Invalid Pravega stream name '${t}' in 'scan.streams': names may contain letters, digits, '_' and '-'`);
    }
    return scoped;
  });
  const startTexts = options.get(PravegaOptions.SCAN_START_STREAMCUTS);
  const endTexts = options.get(PravegaOptions.SCAN_END_STREAMCUTS);
  if (startTexts !== undefined && startTexts.length !== streams.length) {
    throw new ValidationError(`Start stream cuts are not matching the number of streams, having ${startTexts.length}, expected ${streams.length}`);
  }
  if (endTexts !== undefined && endTexts.length !== streams.length) {
    throw new ValidationError(`End stream cuts are not matching the number of streams, having ${endTexts.length}, expected ${streams.length}`);
  }
  const starts = named.map((n, i) => (startTexts === undefined ? undefined : parseCuts([startTexts[i]!], 'scan.start-streamcuts', n.scope, [n.stream])[0]));
  const ends = named.map((n, i) => (endTexts === undefined ? undefined : parseCuts([endTexts[i]!], 'scan.end-streamcuts', n.scope, [n.stream])[0]));
  const list: StreamToRead[] = named.map((n, i) => ({ ...n, start: starts[i] ?? { kind: 'unbounded' }, end: ends[i] ?? { kind: 'unbounded' } }));
  const bounded = executionType === 'batch' || list.every((s) => s.end.kind === 'cut');
  const uid = options.get(PravegaOptions.SCAN_UID);
  return {
    controllerUri: options.get(PravegaOptions.CONTROLLER_URI)!,
    security,
    executionType,
    streams: list,
    bounded,
    eventReadTimeoutMs: options.get(PravegaOptions.SCAN_EVENT_READ_TIMEOUT_INTERVAL),
    ...(uid === undefined ? {} : { uid }),
  };
}

/** Reads the sink side (Flink's `PravegaOptionsUtil` checks and messages). */
export function readPravegaSinkConfig(options: ReadableConfig): PravegaSinkConfig {
  const security = readSecurity(options);
  const stream = options.get(PravegaOptions.SINK_STREAM);
  if (stream === undefined || stream.trim() === '') throw new ValidationError("'sink.stream' is required but missing");
  const semantic = oneOf(options.get(PravegaOptions.SINK_SEMANTIC), SEMANTICS, 'sink.semantic');
  const lease = options.get(PravegaOptions.SINK_TXN_LEASE_RENEWAL_INTERVAL);
  if (semantic === 'exactly-once' && (lease < 10_000 || lease > 600_000)) {
    // The controller refuses leases outside these bounds (Java EventWriterConfig minimum, controller maximum).
    throw new ValidationError(`'sink.txn-lease-renewal.interval' must be between 10 s and 600 s for exactly-once, received ${lease} ms`);
  }
  const routingKeyField = options.get(PravegaOptions.SINK_ROUTING_KEY_FIELD_NAME);
  return {
    controllerUri: options.get(PravegaOptions.CONTROLLER_URI)!,
    security,
    scope: options.get(PravegaOptions.SCOPE)!,
    stream: stream.trim(),
    semantic,
    txnLeaseMs: lease,
    onLostTransaction: oneOf(options.get(PravegaOptions.SINK_COMMIT_ON_LOST_TRANSACTION), LOST_TRANSACTION_ACTIONS, PravegaOptions.SINK_COMMIT_ON_LOST_TRANSACTION.key),
    watermarkPropagation: options.get(PravegaOptions.SINK_ENABLE_WATERMARK_PROPAGATION),
    ...(routingKeyField === undefined ? {} : { routingKeyField }),
  };
}
