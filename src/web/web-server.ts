import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JobRegistry } from '../api/job-registry.js';
import { ExecutionError, ValidationError } from '../errors/sluice-error.js';
import { DashboardAssets } from './dashboard-assets.js';
import { RestOptions } from './rest-options.js';
import { RestHandler } from './rest-handler.js';

/** Request bodies are small JSON documents; anything larger is refused rather than buffered. */
const MAX_BODY_BYTES = 64 * 1024;
const RATE_SAMPLE_MS = 1000;

/** The dashboard may load only what this server serves: no inline script, nothing from elsewhere. */
const DASHBOARD_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

/** The dashboard, the REST API and `/metrics` of one session over `node:http`. */
export class WebServer {
  private readonly server: Server;
  private readonly handler: RestHandler;
  private readonly dashboard = new DashboardAssets();
  private readonly sampler: NodeJS.Timeout;

  private constructor(jobs: JobRegistry, config: () => Readonly<Record<string, string>>) {
    this.handler = new RestHandler(jobs, config);
    this.server = createServer((req, res) => void this.serve(req, res));
    // Rates need counters sampled while nobody asks; unref'd, it never keeps the process alive.
    this.sampler = setInterval(() => this.handler.sample(), RATE_SAMPLE_MS);
    this.sampler.unref();
  }

  /** Listens on `host:port` (port 0 picks a free one); rejects with an ExecutionError naming the option if it cannot. */
  static async start(jobs: JobRegistry, config: () => Readonly<Record<string, string>>, port: number, host: string): Promise<WebServer> {
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new ValidationError(`'${RestOptions.PORT.key}' must be a port number between 0 and 65535, but is ${port}.`);
    }
    const web = new WebServer(jobs, config);
    await new Promise<void>((resolve, reject) => {
      web.server.once('error', (e: NodeJS.ErrnoException) => {
        clearInterval(web.sampler);
        const why = e.code === 'EADDRINUSE' ? 'the port is in use' : e.code === 'EADDRNOTAVAIL' ? 'the address is not on this machine' : e.code === 'EACCES' ? 'permission denied' : (e.code ?? 'unknown error');
        reject(new ExecutionError(`Could not start the REST API on ${host}:${port} (${why}); choose another with 'rest.port' or 'rest.bind-address'.`));
      });
      web.server.listen(port, host, () => resolve());
    });
    // Idle keep-alive connections must not hold the process open after close().
    web.server.unref();
    return web;
  }

  /** `http://host:port`, with the port actually bound. */
  get url(): string {
    const a = this.server.address() as AddressInfo;
    const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
    return `http://${host}:${a.port}`;
  }

  close(): Promise<void> {
    clearInterval(this.sampler);
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const c of req) {
        size += (c as Buffer).length;
        if (size > MAX_BODY_BYTES) {
          send(res, 413, 'application/json; charset=utf-8', JSON.stringify({ errors: ['The request body is too large.'] }));
          return;
        }
        chunks.push(c as Buffer);
      }
      const method = req.method ?? 'GET';
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const asset = method === 'GET' || method === 'HEAD' ? this.dashboard.serve(path) : undefined;
      if (asset !== undefined) {
        send(res, asset.status, asset.contentType, asset.body, { 'content-security-policy': DASHBOARD_CSP, 'x-content-type-options': 'nosniff' });
        return;
      }
      const r = await this.handler.handle({ method, url: req.url ?? '/', body: Buffer.concat(chunks).toString('utf8') });
      send(res, r.status, r.contentType, r.body);
    } catch (e) {
      send(res, 500, 'application/json; charset=utf-8', JSON.stringify({ errors: [e instanceof Error ? e.message : String(e)] }));
    }
  }
}

function send(res: ServerResponse, status: number, contentType: string, body: string, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}
