import * as grpc from '@grpc/grpc-js';
import { ConnectorError } from '../../../errors/sluice-error.js';
import { cutMsg, loadDefinition, segmentIdMsg, streamConfigMsg, toSegmentRange, txnIdMsg, type PSegmentId, type PSegmentRange, type PTxnId } from './controller-messages.js';
import { DelegationTokenCache, type AccessOperation } from './delegation-tokens.js';
import { authorizationValue, tlsSettingsFor, type PravegaSecurity, type TlsSettings } from './security.js';
import type { Endpoint } from './segment-store-connection.js';
import type { SegmentRef, TxnId } from './segment-names.js';

/** Tries of createStream while the controller answers FAILURE (see createStream). */
const CREATE_STREAM_ATTEMPTS = 3;

/** How a stream's segment count is decided (`ScalingPolicy` in Pravega). */
export type ScalingPolicy =
  | { readonly kind: 'fixed'; readonly segments: number }
  | { readonly kind: 'byEventRate'; readonly targetEventsPerSec: number; readonly scaleFactor: number; readonly minSegments: number }
  | { readonly kind: 'byDataRate'; readonly targetKiloBytesPerSec: number; readonly scaleFactor: number; readonly minSegments: number };

export type RetentionPolicy =
  | { readonly kind: 'time'; readonly retentionMs: number }
  | { readonly kind: 'size'; readonly retentionBytes: number };

export interface StreamConfiguration {
  readonly scaling: ScalingPolicy;
  readonly retention?: RetentionPolicy;
}

/** A segment with the part of the key space [minKey, maxKey) it owns. */
export interface SegmentWithRange {
  readonly segment: SegmentRef;
  readonly minKey: number;
  readonly maxKey: number;
}

/** A successor of a sealed segment with the ids of all its predecessors (it may merge several). */
export interface Successor extends SegmentWithRange {
  readonly predecessors: readonly number[];
}

export type TxnState = 'UNKNOWN' | 'OPEN' | 'COMMITTING' | 'COMMITTED' | 'ABORTING' | 'ABORTED';
export type PingStatus = 'OK' | 'LEASE_TOO_LARGE' | 'MAX_EXECUTION_TIME_EXCEEDED' | 'SCALE_GRACE_TIME_EXCEEDED' | 'DISCONNECTED' | 'COMMITTED' | 'ABORTED' | 'UNKNOWN';

export interface CreatedTxn {
  readonly txnId: TxnId;
  readonly activeSegments: readonly SegmentWithRange[];
}


type Unary = (req: object, meta: grpc.Metadata, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res: unknown) => void) => void;

/** Parses `tcp://host:port` or `tls://host:port` (the Flink connector's `controller-uri`) into host and port. */
export function parseControllerUri(uri: string): Endpoint {
  const m = /^(?:(?:tcp|tls|ssl):\/\/)?([^:/]+):(\d+)\/?$/i.exec(uri.trim());
  if (m === null) throw new ConnectorError(`controller URI '${uri}' is not of the form tcp://host:port or tls://host:port`);
  return { host: m[1]!, port: Number(m[2]) };
}

export interface ControllerClientOptions {
  readonly deadlineMs?: number;
  /** TLS trust and credentials; TLS is on when the URI is `tls://` (or `ssl://`). */
  readonly security?: PravegaSecurity;
}

/**
 * The Pravega controller over gRPC: plaintext or TLS HTTP/2 by the URI's scheme, with the `Authorization` header on
 * every call when `security.auth` is set. Every method is one unary call, safe to call concurrently, and rejects with
 * ConnectorError naming the operation and the object when the controller refuses. Not for per-record use: callers
 * cache segment layouts and endpoints.
 */
export class ControllerClient {
  private readonly client: grpc.Client;
  private readonly deadlineMs: number;
  /**
   * Segment store per segment (qualified name), as the Java client's `SegmentStoreResolver` keeps it: a segment only
   * moves when its container fails over, which the store reports with WrongHost or by dropping the connection, and
   * callers then `invalidateEndpoint`. Without it every read costs a controller round trip.
   */
  private readonly endpoints = new Map<string, Promise<Endpoint>>();
  private readonly authorization: string | undefined;
  private readonly tokens: DelegationTokenCache;
  /** TLS for the segment store connections: the same trust as the controller's (pass to SegmentStoreConnectionPool). */
  readonly segmentStoreTls: TlsSettings | undefined;

  constructor(controllerUri: string, options: ControllerClientOptions = {}) {
    const ep = parseControllerUri(controllerUri);
    const pkg = grpc.loadPackageDefinition(loadDefinition()) as unknown as {
      io: { pravega: { controller: { stream: { api: { grpc: { v1: { ControllerService: grpc.ServiceClientConstructor } } } } } } };
    };
    const Ctor = pkg.io.pravega.controller.stream.api.grpc.v1.ControllerService;
    this.segmentStoreTls = tlsSettingsFor(controllerUri, options.security);
    const tls = this.segmentStoreTls;
    const credentials =
      tls === undefined
        ? grpc.credentials.createInsecure()
        : grpc.credentials.createSsl(tls.ca ?? null, null, null, tls.validateHostname ? {} : { checkServerIdentity: () => undefined });
    this.client = new Ctor(`${ep.host}:${ep.port}`, credentials);
    this.deadlineMs = options.deadlineMs ?? 30_000;
    this.authorization = authorizationValue(options.security);
    this.tokens = new DelegationTokenCache((scope, stream, access) =>
      this.call<{ delegationToken: string }>('getDelegationToken', { scope, stream, accessOperation: access }).then((r) => r.delegationToken),
    );
  }

  private call<T>(method: string, req: object): Promise<T> {
    const fn = (this.client as unknown as Record<string, Unary>)[method]!;
    const meta = new grpc.Metadata();
    // Per call rather than as call credentials: grpc-js refuses those on a plaintext channel, and Pravega allows auth
    // without TLS.
    if (this.authorization !== undefined) meta.set('authorization', this.authorization);
    return new Promise((resolve, reject) => {
      fn.call(this.client, req, meta, { deadline: Date.now() + this.deadlineMs }, (err, res) => {
        if (err !== null) reject(controllerError(method, err));
        else resolve(res as T);
      });
    });
  }

  /**
   * The token the segment store wants in SetupAppend / ReadSegment / GetStreamSegmentInfo for this stream. Empty
   * (no controller call) without `security.auth`: a server without auth ignores it, one with auth refuses the
   * controller calls before any segment is touched. Cached and renewed before it expires; called per request.
   */
  delegationToken(scope: string, stream: string, access: AccessOperation): Promise<string> {
    return this.authorization === undefined ? EMPTY_TOKEN : this.tokens.get(scope, stream, access);
  }

  /** Forgets the stream's delegation tokens after the segment store answered AuthTokenCheckFailed (expired). */
  invalidateDelegationToken(scope: string, stream: string): void {
    this.tokens.invalidate(scope, stream);
  }

  /** Creates a scope; resolves false if it already existed. */
  async createScope(scope: string): Promise<boolean> {
    const r = await this.call<{ status: string }>('createScope', { scope });
    if (r.status === 'SUCCESS') return true;
    if (r.status === 'SCOPE_EXISTS') return false;
    throw new ConnectorError(`cannot create Pravega scope '${scope}': ${r.status}`);
  }

  async scopeExists(scope: string): Promise<boolean> {
    return (await this.call<{ exists: boolean }>('checkScopeExists', { scope })).exists;
  }

  async streamExists(scope: string, stream: string): Promise<boolean> {
    return (await this.call<{ exists: boolean }>('checkStreamExists', { scope, stream })).exists;
  }

  /** Deletes an empty scope; resolves false if it did not exist. */
  async deleteScope(scope: string): Promise<boolean> {
    const r = await this.call<{ status: string }>('deleteScope', { scope });
    if (r.status === 'SUCCESS') return true;
    if (r.status === 'SCOPE_NOT_FOUND') return false;
    throw new ConnectorError(`cannot delete Pravega scope '${scope}': ${r.status}`);
  }

  /** Deletes a scope with all its streams (sealing them); resolves false if it did not exist. */
  async deleteScopeRecursive(scope: string): Promise<boolean> {
    const r = await this.call<{ status: string }>('deleteScopeRecursive', { scope });
    if (r.status === 'SUCCESS') return true;
    if (r.status === 'SCOPE_NOT_FOUND') return false;
    throw new ConnectorError(`cannot delete Pravega scope '${scope}' and its streams: ${r.status}`);
  }

  /** Every scope's name, following the controller's continuation tokens (internal `_` scopes included). */
  async listScopes(): Promise<string[]> {
    const out: string[] = [];
    let token = '';
    for (;;) {
      const r = await this.call<{ scopes?: string[]; continuationToken?: { token?: string } }>('listScopes', { continuationToken: { token } });
      const page = r.scopes ?? [];
      out.push(...page);
      const next = r.continuationToken?.token ?? '';
      // The controller hands out a token on the last page too; an empty page ends the listing.
      if (page.length === 0 || next === '' || next === token) return out;
      token = next;
    }
  }

  /** The names of the scope's streams (internal `_` streams included); rejects when the scope does not exist. */
  async listStreams(scope: string): Promise<string[]> {
    const out: string[] = [];
    let token = '';
    for (;;) {
      const r = await this.call<{ streams?: { stream: string }[]; continuationToken?: { token?: string }; status: string }>('listStreamsInScope', {
        scope: { scope },
        continuationToken: { token },
      });
      if (r.status === 'SCOPE_NOT_FOUND') throw new ConnectorError(`cannot list the streams of Pravega scope '${scope}': it does not exist`);
      if (r.status !== 'SUCCESS') throw new ConnectorError(`cannot list the streams of Pravega scope '${scope}': ${r.status}`);
      const page = r.streams ?? [];
      for (const s of page) out.push(s.stream);
      const next = r.continuationToken?.token ?? '';
      if (page.length === 0 || next === '' || next === token) return out;
      token = next;
    }
  }

  /** Creates a stream; resolves false if it already existed (its configuration is left as it was). */
  async createStream(scope: string, stream: string, config: StreamConfiguration): Promise<boolean> {
    // A loaded controller answers FAILURE when creating the stream's segments times out inside it (seen in CI at
    // load average 6); creation is idempotent, and a retry finishes a stream left half-made. STREAM_EXISTS after a
    // FAILURE is taken as ours: the scope's streams are named by the caller, who asked for this one.
    for (let attempt = 1; ; attempt++) {
      const r = await this.call<{ status: string }>('createStream', streamConfigMsg(scope, stream, config));
      if (r.status === 'SUCCESS') return true;
      if (r.status === 'STREAM_EXISTS') return attempt > 1;
      if (r.status !== 'FAILURE' || attempt === CREATE_STREAM_ATTEMPTS) {
        throw new ConnectorError(`cannot create Pravega stream '${scope}/${stream}': ${r.status}${attempt > 1 ? ` (after ${attempt} attempts)` : ''}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }

  async updateStream(scope: string, stream: string, config: StreamConfiguration): Promise<void> {
    const r = await this.call<{ status: string }>('updateStream', streamConfigMsg(scope, stream, config));
    if (r.status !== 'SUCCESS') throw new ConnectorError(`cannot update Pravega stream '${scope}/${stream}': ${r.status}`);
  }

  /** Seals every current segment: the stream accepts no more writes. */
  async sealStream(scope: string, stream: string): Promise<void> {
    const r = await this.call<{ status: string }>('sealStream', { scope, stream });
    if (r.status !== 'SUCCESS') throw new ConnectorError(`cannot seal Pravega stream '${scope}/${stream}': ${r.status}`);
  }

  /** Deletes a sealed stream; resolves false if it did not exist. */
  async deleteStream(scope: string, stream: string): Promise<boolean> {
    const r = await this.call<{ status: string }>('deleteStream', { scope, stream });
    if (r.status === 'SUCCESS') return true;
    if (r.status === 'STREAM_NOT_FOUND') return false;
    throw new ConnectorError(`cannot delete Pravega stream '${scope}/${stream}': ${r.status}${r.status === 'STREAM_NOT_SEALED' ? ' (seal it first)' : ''}`);
  }

  /** Truncates the stream at a cut (segment id -> offset); data before it becomes unreadable. */
  async truncateStream(scope: string, stream: string, cut: ReadonlyMap<number, number>): Promise<void> {
    const r = await this.call<{ status: string }>('truncateStream', { streamInfo: { scope, stream }, cut: cutMsg(cut) });
    if (r.status !== 'SUCCESS') throw new ConnectorError(`cannot truncate Pravega stream '${scope}/${stream}': ${r.status}`);
  }

  /** The open segments of the stream's current epoch with their key ranges, ordered by minKey. */
  async getCurrentSegments(scope: string, stream: string): Promise<SegmentWithRange[]> {
    const r = await this.call<{ segmentRanges: PSegmentRange[] }>('getCurrentSegments', { scope, stream });
    return r.segmentRanges.map(toSegmentRange).sort((a, b) => a.minKey - b.minKey);
  }

  /** Segments and offsets of the stream at a wall-clock time in ms; 0 gives the head (first readable positions). */
  async getSegmentsAt(scope: string, stream: string, timestampMs: number): Promise<Map<number, number>> {
    const r = await this.call<{ segments: { segmentId: PSegmentId; offset: string }[] }>('getSegments', {
      streamInfo: { scope, stream },
      timestamp: String(timestampMs),
    });
    return new Map(r.segments.map((s) => [Number(s.segmentId.segmentId), Number(s.offset)]));
  }

  /** The segments that replaced a sealed segment; empty when it is not sealed (or the stream is sealed). */
  async getSuccessors(segment: SegmentRef): Promise<Successor[]> {
    const r = await this.call<{ segments: { segment: PSegmentRange; value: string[] }[] }>('getSegmentsImmediatelyFollowing', segmentIdMsg(segment));
    return r.segments.map((e) => ({ ...toSegmentRange(e.segment), predecessors: e.value.map(Number) })).sort((a, b) => a.minKey - b.minKey);
  }

  /** Every segment that holds data between two cuts (segment id -> offset); an empty `to` means the tail. */
  async getSegmentsBetween(scope: string, stream: string, from: ReadonlyMap<number, number>, to: ReadonlyMap<number, number>): Promise<SegmentRef[]> {
    const r = await this.call<{ segments: PSegmentId[] }>('getSegmentsBetween', { streamInfo: { scope, stream }, from: cutMsg(from), to: cutMsg(to) });
    return r.segments.map((s) => ({ scope: s.streamInfo.scope, stream: s.streamInfo.stream, segmentId: Number(s.segmentId) }));
  }

  async isStreamCutValid(scope: string, stream: string, cut: ReadonlyMap<number, number>): Promise<boolean> {
    return (await this.call<{ response: boolean }>('isStreamCutValid', { streamInfo: { scope, stream }, cut: cutMsg(cut) })).response;
  }

  /**
   * Seals `sealedSegments` and replaces them with segments over `newKeyRanges`, then waits (polling checkScale) until
   * the new epoch is active. Resolves with the new segments.
   */
  async scale(scope: string, stream: string, sealedSegments: readonly number[], newKeyRanges: readonly (readonly [number, number])[]): Promise<SegmentWithRange[]> {
    const r = await this.call<{ status: string; segments: PSegmentRange[]; epoch: number }>('scale', {
      streamInfo: { scope, stream },
      sealedSegments: sealedSegments.map(String),
      newKeyRanges: newKeyRanges.map(([start, end]) => ({ start, end })),
      scaleTimestamp: String(Date.now()),
    });
    if (r.status === 'PRECONDITION_FAILED') throw await this.scalePreconditionError(scope, stream, sealedSegments, newKeyRanges.length);
    if (r.status !== 'STARTED') throw new ConnectorError(`cannot scale Pravega stream '${scope}/${stream}': ${r.status}`);
    for (;;) {
      const s = await this.call<{ status: string }>('checkScale', { streamInfo: { scope, stream }, epoch: r.epoch });
      if (s.status === 'SUCCESS') break;
      if (s.status !== 'IN_PROGRESS') throw new ConnectorError(`scaling Pravega stream '${scope}/${stream}' failed: ${s.status}`);
      await new Promise((res) => setTimeout(res, 100));
    }
    return r.segments.map(toSegmentRange);
  }

  /**
   * Says which of the controller's scale preconditions failed. Besides "the sealed segments are the active ones" it
   * refuses any scale that leaves fewer segments than the scaling policy's minimum (for a fixed policy: its segment
   * count), so a 3 -> 1 merge of a `fixed 3` stream fails however exactly the new range covers the old ones.
   */
  private async scalePreconditionError(scope: string, stream: string, sealed: readonly number[], created: number): Promise<ConnectorError> {
    const name = `'${scope}/${stream}'`;
    const current = await this.getCurrentSegments(scope, stream).catch(() => undefined);
    if (current === undefined) return new ConnectorError(`cannot scale Pravega stream ${name}: PRECONDITION_FAILED`);
    const active = new Set(current.map((s) => s.segment.segmentId));
    const stale = sealed.filter((id) => !active.has(id));
    if (stale.length > 0) {
      return new ConnectorError(`cannot scale Pravega stream ${name}: segments ${stale.join(', ')} are not active (already sealed, or another scale is in progress)`);
    }
    const after = current.length - sealed.length + created;
    return new ConnectorError(
      `cannot scale Pravega stream ${name}: it would have ${after} segment(s) and the controller refuses fewer than the scaling policy's ` +
        `minimum (a fixed policy's segment count; updateStream to a rate policy with a lower minSegments first) or another scale is in progress`,
    );
  }

  /**
   * The segment store that owns a segment (transaction segments live with their parent). Cached per segment:
   * concurrent and later callers share one controller call until `invalidateEndpoint`. A failed lookup is not cached.
   */
  getEndpoint(segment: SegmentRef): Promise<Endpoint> {
    const key = endpointKey(segment);
    const cached = this.endpoints.get(key);
    if (cached !== undefined) return cached;
    if (this.endpoints.size >= MAX_CACHED_ENDPOINTS) this.endpoints.clear();
    const lookup = this.call<{ endpoint: string; port: number }>('getURI', segmentIdMsg(segment)).then((r) => ({ host: r.endpoint, port: r.port }));
    this.endpoints.set(key, lookup);
    lookup.catch(() => {
      if (this.endpoints.get(key) === lookup) this.endpoints.delete(key);
    });
    return lookup;
  }

  /**
   * Forgets the cached segment store of `segment`; the next `getEndpoint` asks the controller again. Called by readers
   * and writers when the store answered WrongHost or the connection to it failed.
   */
  invalidateEndpoint(segment: SegmentRef): void {
    this.endpoints.delete(endpointKey(segment));
  }

  /** Opens a transaction with a lease in ms (the controller aborts it if not pinged within the lease). */
  async createTransaction(scope: string, stream: string, leaseMs: number): Promise<CreatedTxn> {
    const r = await this.call<{ txnId: PTxnId; activeSegments: PSegmentRange[] }>('createTransaction', {
      streamInfo: { scope, stream },
      lease: String(leaseMs),
    });
    return {
      txnId: { highBits: BigInt(r.txnId.highBits), lowBits: BigInt(r.txnId.lowBits) },
      activeSegments: r.activeSegments.map(toSegmentRange).sort((a, b) => a.minKey - b.minKey),
    };
  }

  async pingTransaction(scope: string, stream: string, txn: TxnId, leaseMs: number): Promise<PingStatus> {
    const r = await this.call<{ status: PingStatus }>('pingTransaction', { streamInfo: { scope, stream }, txnId: txnIdMsg(txn), lease: String(leaseMs) });
    return r.status;
  }

  /** Starts the commit; it completes asynchronously (poll `checkTransactionState` for COMMITTED). */
  async commitTransaction(scope: string, stream: string, txn: TxnId, writerId = '', timestamp = 0): Promise<void> {
    const r = await this.call<{ status: string }>('commitTransaction', { streamInfo: { scope, stream }, txnId: txnIdMsg(txn), writerId, timestamp: String(timestamp) });
    if (r.status !== 'SUCCESS') throw new ConnectorError(`cannot commit Pravega transaction on '${scope}/${stream}': ${r.status}`);
  }

  async abortTransaction(scope: string, stream: string, txn: TxnId): Promise<void> {
    const r = await this.call<{ status: string }>('abortTransaction', { streamInfo: { scope, stream }, txnId: txnIdMsg(txn), writerId: '', timestamp: '0' });
    if (r.status !== 'SUCCESS') throw new ConnectorError(`cannot abort Pravega transaction on '${scope}/${stream}': ${r.status}`);
  }

  async checkTransactionState(scope: string, stream: string, txn: TxnId): Promise<TxnState> {
    const r = await this.call<{ state: TxnState }>('checkTransactionState', { streamInfo: { scope, stream }, txnId: txnIdMsg(txn), writerId: '', timestamp: '0' });
    return r.state;
  }

  close(): void {
    this.client.close();
  }
}

const EMPTY_TOKEN = Promise.resolve('');

/** Names the usual misconfigurations: wrong credentials, missing rights, TLS trouble. */
function controllerError(method: string, err: grpc.ServiceError): ConnectorError {
  const detail = err.details || err.message;
  switch (err.code) {
    case grpc.status.UNAUTHENTICATED:
      return new ConnectorError(`Pravega controller refused the credentials on ${method} (check 'security.auth-type' and 'security.auth-token'): ${detail}`, { cause: err });
    case grpc.status.PERMISSION_DENIED:
      return new ConnectorError(`Pravega controller denied ${method}: the authenticated user lacks the permission (${detail})`, { cause: err });
    default:
      return new ConnectorError(`Pravega controller call ${method} failed: ${detail}`, { cause: err });
  }
}

/** Bounds the endpoint cache for long-running readers that pass through many segments (scaling, transactions). */
const MAX_CACHED_ENDPOINTS = 10_000;

function endpointKey(s: SegmentRef): string {
  return `${s.scope}/${s.stream}/${s.segmentId}`;
}
