import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { ConnectorError } from '../../../errors/sluice-error.js';
import { segmentStoreTlsOptions, type TlsSettings } from './security.js';
import {
  decodeCommand,
  encodeCommand,
  FRAME_HEADER_SIZE,
  MAX_FRAME_PAYLOAD,
  OLDEST_COMPATIBLE_VERSION,
  WIRE_VERSION,
  type IncomingCommand,
  type OutgoingCommand,
} from './wire-commands.js';

/** Where a segment store listens, as the controller's getURI reports it. */
export interface Endpoint {
  readonly host: string;
  readonly port: number;
}

/**
 * Receives the replies of a long-lived exchange on a connection (an append session): everything addressed to its
 * request id or its writer id. Called synchronously from the socket's data handler, in arrival order; must not throw.
 */
export interface SessionListener {
  onReply(cmd: IncomingCommand): void;
  /** The connection is gone; pending work must be retried elsewhere or failed. Called at most once. */
  onConnectionLost(error: Error): void;
}

interface Pending {
  resolve(cmd: IncomingCommand): void;
  reject(err: Error): void;
  /** Offset of a ReadSegment request: see the AuthTokenCheckFailed routing in `dispatch`. */
  readonly readOffset?: number;
}

let requestCounter = 1;
/** Request ids are unique per process so a reply can never reach the wrong waiter after a reconnect. */
export function nextRequestId(): number {
  return requestCounter++;
}

const KEEP_ALIVE_MS = 10_000;

/** Read connections per segment store besides the shared one; more segments than this share them round robin. */
export const READ_LANES = 4;

/** The pool lane a segment's reads use: by segment number, so a fixed stream's segments each get their own socket. */
export function readLane(segmentNumber: number): number {
  return 1 + (segmentNumber % READ_LANES);
}

/**
 * One TCP connection to a segment store, shared by every segment it serves. Frames are decoded as they arrive and
 * routed to a one-shot waiter (by request id) or to a session (by request id or writer id).
 */
export class SegmentStoreConnection {
  private readonly pending = new Map<number, Pending>();
  private readonly sessionsByRequest = new Map<number, SessionListener>();
  private readonly sessionsByWriter = new Map<string, SessionListener>();
  private chunks: Buffer[] = [];
  private buffered = 0;
  private closedError: Error | undefined;
  private readonly keepAlive: NodeJS.Timeout;

  private constructor(
    readonly endpoint: Endpoint,
    private readonly socket: Socket,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => this.onData(d));
    socket.on('error', (e) => this.fail(new ConnectorError(`Pravega segment store ${endpoint.host}:${endpoint.port} failed: ${e.message}`, { cause: e })));
    socket.on('close', () => this.fail(new ConnectorError(`Pravega segment store ${endpoint.host}:${endpoint.port} closed the connection`)));
    this.keepAlive = setInterval(() => this.send({ kind: 'KeepAlive' }), KEEP_ALIVE_MS);
    this.keepAlive.unref();
  }

  /**
   * Connects (over TLS when `tls` is given: handshake and certificate check before any frame) and negotiates the wire
   * version; rejects with ConnectorError if the server is unreachable, untrusted or incompatible.
   */
  static async open(endpoint: Endpoint, timeoutMs = 10_000, tls?: TlsSettings): Promise<SegmentStoreConnection> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s =
        tls === undefined ? connect({ host: endpoint.host, port: endpoint.port }) : connectTls({ ...segmentStoreTlsOptions(tls, endpoint.host), port: endpoint.port });
      const timer = setTimeout(() => {
        s.destroy();
        reject(new ConnectorError(`timed out connecting to Pravega segment store ${endpoint.host}:${endpoint.port}`));
      }, timeoutMs);
      s.once(tls === undefined ? 'connect' : 'secureConnect', () => {
        clearTimeout(timer);
        resolve(s);
      });
      s.once('error', (e) => {
        clearTimeout(timer);
        const what = tls === undefined ? 'connect to' : 'open a TLS connection to';
        reject(new ConnectorError(`cannot ${what} Pravega segment store ${endpoint.host}:${endpoint.port}: ${e.message}`, { cause: e }));
      });
    });
    const conn = new SegmentStoreConnection(endpoint, socket);
    // A peer that accepts the connection but never answers must not hold the caller forever.
    const silent = setTimeout(
      () => conn.fail(new ConnectorError(`Pravega segment store ${endpoint.host}:${endpoint.port} did not answer the handshake within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    const hello = await new Promise<IncomingCommand>((resolve, reject) => {
      conn.helloWaiter = { resolve, reject };
      conn.send({ kind: 'Hello', highVersion: WIRE_VERSION, lowVersion: OLDEST_COMPATIBLE_VERSION });
    }).finally(() => clearTimeout(silent));
    if (hello.kind !== 'Hello' || hello.lowVersion > WIRE_VERSION || hello.highVersion < OLDEST_COMPATIBLE_VERSION) {
      conn.close();
      throw new ConnectorError(`Pravega segment store ${endpoint.host}:${endpoint.port} speaks an incompatible wire protocol (${JSON.stringify(hello)})`);
    }
    return conn;
  }

  private helloWaiter: Pending | undefined;

  get isClosed(): boolean {
    return this.closedError !== undefined;
  }

  /** Writes a frame; never blocks (the socket buffers). Throws if the connection is already closed. */
  send(cmd: OutgoingCommand): void {
    this.sendRaw(encodeCommand(cmd));
  }

  sendRaw(frame: Buffer): void {
    if (this.closedError !== undefined) throw this.closedError;
    this.socket.write(frame);
  }

  /** Sends a command and resolves with the first reply carrying the same request id. */
  request(cmd: OutgoingCommand & { readonly requestId: number }): Promise<IncomingCommand> {
    if (this.closedError !== undefined) return Promise.reject(this.closedError);
    return new Promise((resolve, reject) => {
      this.pending.set(cmd.requestId, cmd.kind === 'ReadSegment' ? { resolve, reject, readOffset: cmd.offset } : { resolve, reject });
      try {
        this.send(cmd);
      } catch (e) {
        this.pending.delete(cmd.requestId);
        reject(e as Error);
      }
    });
  }

  /** Routes every later reply with this request id or writer id to `listener` until `removeSession`. */
  addSession(requestId: number, writerId: string, listener: SessionListener): void {
    if (this.closedError !== undefined) throw this.closedError;
    this.sessionsByRequest.set(requestId, listener);
    this.sessionsByWriter.set(writerId, listener);
  }

  removeSession(requestId: number, writerId: string): void {
    this.sessionsByRequest.delete(requestId);
    this.sessionsByWriter.delete(writerId);
  }

  close(): void {
    this.fail(new ConnectorError(`connection to Pravega segment store ${this.endpoint.host}:${this.endpoint.port} was closed by the client`));
  }

  private fail(err: Error): void {
    if (this.closedError !== undefined) return;
    this.closedError = err;
    clearInterval(this.keepAlive);
    this.socket.destroy();
    this.helloWaiter?.reject(err);
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    const sessions = new Set([...this.sessionsByRequest.values(), ...this.sessionsByWriter.values()]);
    this.sessionsByRequest.clear();
    this.sessionsByWriter.clear();
    for (const s of sessions) s.onConnectionLost(err);
  }

  private onData(d: Buffer): void {
    this.chunks.push(d);
    this.buffered += d.length;
    while (this.buffered >= FRAME_HEADER_SIZE) {
      // Join chunks only for a complete frame (or a header split across chunks): joining on every arriving chunk
      // copied a 1 MB SegmentRead some 16 times over as its 64 KB pieces came in.
      const head = this.chunks[0]!.length >= FRAME_HEADER_SIZE ? this.chunks[0]! : this.flatten();
      const type = head.readInt32BE(0);
      const len = head.readInt32BE(4);
      if (len < 0 || len > MAX_FRAME_PAYLOAD) {
        this.fail(new ConnectorError(`Pravega segment store sent a frame with invalid length ${len}`));
        return;
      }
      if (this.buffered < FRAME_HEADER_SIZE + len) return;
      const all = this.chunks.length === 1 ? head : this.flatten();
      const payload = all.subarray(FRAME_HEADER_SIZE, FRAME_HEADER_SIZE + len);
      const rest = all.subarray(FRAME_HEADER_SIZE + len);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
      let cmd: IncomingCommand;
      try {
        cmd = decodeCommand(type, payload);
      } catch (e) {
        this.fail(e as Error);
        return;
      }
      this.dispatch(cmd);
    }
  }

  /** To the one-shot waiter of the request id, else to the session that owns it. */
  private routeByRequestId(cmd: IncomingCommand & { readonly requestId: number }): void {
    const p = this.pending.get(cmd.requestId);
    if (p !== undefined) {
      this.pending.delete(cmd.requestId);
      p.resolve(cmd);
      return;
    }
    this.sessionsByRequest.get(cmd.requestId)?.onReply(cmd);
  }

  private flatten(): Buffer {
    const b = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [b];
    return b;
  }

  private dispatch(cmd: IncomingCommand): void {
    switch (cmd.kind) {
      case 'Hello': {
        const w = this.helloWaiter;
        this.helloWaiter = undefined;
        w?.resolve(cmd);
        return;
      }
      case 'KeepAlive':
      case 'Unknown':
        return;
      case 'DataAppended':
      case 'ConditionalCheckFailed':
      case 'InvalidEventNumber': {
        const s = this.sessionsByWriter.get(cmd.writerId) ?? this.sessionsByRequest.get(cmd.requestId);
        s?.onReply(cmd);
        return;
      }
      case 'AuthTokenCheckFailed': {
        // Pravega 0.13 answers a refused ReadSegment with the read's offset where the request id belongs
        // (PravegaRequestProcessor.readSegment passes getOffset() to verifyToken). Without this the read would wait
        // forever; the oldest read at that offset is the best match, as the store handles a connection's requests in order.
        if (!this.pending.has(cmd.requestId) && !this.sessionsByRequest.has(cmd.requestId)) {
          for (const [id, p] of this.pending) {
            if (p.readOffset !== cmd.requestId) continue;
            this.pending.delete(id);
            p.resolve(cmd);
            return;
          }
        }
        this.routeByRequestId(cmd);
        return;
      }
      case 'AppendSetup':
      case 'SegmentRead':
      case 'StreamSegmentInfo':
      case 'WrongHost':
      case 'SegmentIsSealed':
      case 'SegmentAlreadyExists':
      case 'NoSuchSegment':
      case 'SegmentIsTruncated':
      case 'OperationUnsupported':
      case 'ErrorMessage':
        this.routeByRequestId(cmd);
        return;
      default: {
        const never: never = cmd;
        void never;
      }
    }
  }
}

/**
 * Connections per segment-store endpoint, by lane: lane 0 (the default) is the one shared by writers and metadata
 * requests; segment readers spread over a few more lanes (`readLane`) so that two segments' 1 MB replies do not queue
 * behind each other on one socket, as the Java client opens a connection per segment reader. A closed connection is
 * replaced on the next `get`. Plaintext unless `tls` is given (take `ControllerClient.segmentStoreTls`: the stores
 * speak TLS exactly when the controller does).
 */
export class SegmentStoreConnectionPool {
  private readonly connections = new Map<string, Promise<SegmentStoreConnection>>();

  constructor(private readonly tls?: TlsSettings) {}

  /**
   * Returns the open connection to `endpoint` on `lane`, connecting if needed. Concurrent callers share one attempt.
   * Called per request (cheap when connected: one map look-up and an await).
   */
  async get(endpoint: Endpoint, lane = 0): Promise<SegmentStoreConnection> {
    const key = `${endpoint.host}:${endpoint.port}#${lane}`;
    const existing = this.connections.get(key);
    if (existing !== undefined) {
      const conn = await existing.catch(() => undefined);
      if (conn !== undefined && !conn.isClosed) return conn;
      if (this.connections.get(key) === existing) this.connections.delete(key);
      return this.get(endpoint, lane);
    }
    const attempt = SegmentStoreConnection.open(endpoint, undefined, this.tls);
    this.connections.set(key, attempt);
    attempt.catch(() => {
      if (this.connections.get(key) === attempt) this.connections.delete(key);
    });
    return attempt;
  }

  /** Closes every connection; in-flight work fails with ConnectorError. */
  async close(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    for (const c of all) (await c.catch(() => undefined))?.close();
  }
}
