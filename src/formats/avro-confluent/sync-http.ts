import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';

/** One HTTP request, as the registry client builds it. */
export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** PEM CA certificates to trust for https (the registry's `ssl.truststore.location`). */
  readonly ca?: string;
  /** A PKCS#12 client certificate and key, base64 (the registry's `ssl.keystore.location`). */
  readonly pfx?: string;
  readonly passphrase?: string;
  readonly timeoutMs: number;
}

export interface HttpResponse {
  readonly status: number;
  readonly body: string;
}

/**
 * Sends one request and blocks the calling thread until the answer (or a transport failure) is there.
 * Why blocking: format decoders and encoders are synchronous (they run on the hot path without awaiting);
 * the registry is only asked once per schema id or subject, after which answers come from the cache,
 * just as Flink's registry client blocks its task thread on the first lookup.
 */
export interface SyncHttpTransport {
  /** @throws Error when the server cannot be reached or does not answer within `timeoutMs`. */
  request(req: HttpRequest): HttpResponse;
}

// Runs in a worker: does the I/O with node:http(s) and wakes the blocked caller through the shared flag.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { port, flag } = workerData;
const signal = new Int32Array(flag);
port.on('message', ({ id, req }) => {
  let done = false;
  const reply = (res) => {
    if (done) return;
    done = true;
    port.postMessage({ id, ...res });
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  };
  try {
    const u = new URL(req.url);
    const mod = require(u.protocol === 'https:' ? 'node:https' : 'node:http');
    const r = mod.request(u, {
      method: req.method, headers: req.headers, ca: req.ca, timeout: req.timeoutMs,
      pfx: req.pfx === undefined ? undefined : Buffer.from(req.pfx, 'base64'), passphrase: req.passphrase,
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => reply({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (e) => reply({ error: String(e && e.message || e) }));
    });
    r.on('timeout', () => r.destroy(new Error('timed out after ' + req.timeoutMs + ' ms')));
    r.on('error', (e) => reply({ error: String(e && e.message || e) }));
    if (req.body !== undefined) r.write(req.body);
    r.end();
  } catch (e) {
    reply({ error: String(e && e.message || e) });
  }
});
`;

interface Reply {
  readonly id: number;
  readonly status?: number;
  readonly body?: string;
  readonly error?: string;
}

/**
 * A SyncHttpTransport over a worker thread: the caller posts the request and waits on a shared flag with
 * `Atomics.wait`; the worker does the asynchronous I/O. The worker is unref'd, so it never keeps the
 * process alive, and is started on the first request only.
 */
export class WorkerHttpTransport implements SyncHttpTransport {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private signal: Int32Array | undefined;
  private nextId = 0;

  request(req: HttpRequest): HttpResponse {
    const { port, signal } = this.start();
    const id = ++this.nextId;
    port.postMessage({ id, req });
    const deadline = Date.now() + req.timeoutMs + 1000;
    for (;;) {
      // Clear the flag before looking at the port: a reply that lands after the look sets it again, so the
      // wait below returns at once instead of missing the wake-up.
      Atomics.store(signal, 0, 0);
      // Replies of requests that timed out earlier may still be queued: drop them.
      for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
        const reply = m.message as Reply;
        if (reply.id !== id) continue;
        if (reply.error !== undefined) throw new Error(reply.error);
        return { status: reply.status ?? 0, body: reply.body ?? '' };
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no answer from ${req.url} within ${req.timeoutMs} ms`);
      Atomics.wait(signal, 0, 0, left);
    }
  }

  /** Stops the worker; a later request starts a new one. */
  close(): void {
    void this.worker?.terminate();
    this.port?.close();
    this.worker = undefined;
    this.port = undefined;
  }

  private start(): { port: MessagePort; signal: Int32Array } {
    if (this.worker && this.port && this.signal) return { port: this.port, signal: this.signal };
    const flag = new SharedArrayBuffer(4);
    const { port1, port2 } = new MessageChannel();
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { port: port2, flag }, transferList: [port2] });
    this.worker.unref();
    port1.unref();
    this.port = port1;
    this.signal = new Int32Array(flag);
    return { port: port1, signal: this.signal };
  }
}
