import { GatewayConnectionError, gatewayErrorFrom } from './gateway-error.js';
import { parseJsonExact } from '../formats/json/json-tree.js';
import type { ResultPageJson } from './result-page.js';

/** The page with its `data` re-read exactly, when it has rows; its column types stay plain numbers. */
function withExactRows(page: ResultPageJson, text: string): ResultPageJson {
  if (!page.results?.data?.length) return page;
  const exact = parseJsonExact(text) as unknown as ResultPageJson;
  return { ...page, results: { ...page.results, data: exact.results?.data ?? [] } };
}


/**
 * The REST API of Flink's SQL Gateway (`sql-gateway.sh`, endpoint type `rest`), version v2: the first with
 * `rowFormat=JSON` and row kinds, served by Flink 1.17 and later. Only what Sluice's client needs: sessions,
 * statements, result pages, cancelling and closing operations.
 *
 * Authentication: the gateway has none of its own; deployments put it behind a proxy. Credentials in the
 * endpoint URL (`https://user:secret@host`) are sent as HTTP basic auth, and SLUICE_GATEWAY_TOKEN as a bearer token.
 */
export class GatewayClient {
  private readonly base: string;
  private readonly headers: Record<string, string>;

  constructor(endpoint: string, token: string | undefined = process.env.SLUICE_GATEWAY_TOKEN) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new GatewayConnectionError(`--endpoint must be an http(s) URL such as http://127.0.0.1:8083, got '${endpoint}'.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new GatewayConnectionError(`--endpoint must be an http(s) URL such as http://127.0.0.1:8083, got '${endpoint}'.`);
    }
    this.headers = { 'content-type': 'application/json' };
    if (url.username !== '') {
      const creds = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      this.headers.authorization = `Basic ${Buffer.from(creds).toString('base64')}`;
    } else if (token) {
      this.headers.authorization = `Bearer ${token}`;
    }
    url.username = '';
    url.password = '';
    this.base = url.toString().replace(/\/+$/, '');
  }

  /** The endpoint without credentials, for messages. */
  get endpoint(): string {
    return this.base;
  }

  /** `GET /v2/info`: product name and version; checks that the endpoint is a SQL Gateway. */
  async info(): Promise<{ productName: string; version: string }> {
    return (await this.call('GET', '/v2/info')) as { productName: string; version: string };
  }

  /** Opens a session whose configuration starts from `properties` (`-D` options). */
  async openSession(properties: Readonly<Record<string, string>>, sessionName = 'sluice'): Promise<string> {
    const r = (await this.call('POST', '/v2/sessions', { properties, sessionName })) as { sessionHandle: string };
    return r.sessionHandle;
  }

  async closeSession(session: string): Promise<void> {
    await this.call('DELETE', `/v2/sessions/${session}`);
  }

  /** Keeps an idle session from expiring (`sql-gateway.session.idle-timeout`, 10 minutes by default). */
  async heartbeat(session: string): Promise<void> {
    await this.call('POST', `/v2/sessions/${session}/heartbeat`, {});
  }

  /** Submits one statement; returns its operation handle. Errors of the statement come with its first result page. */
  async executeStatement(session: string, statement: string): Promise<string> {
    const r = (await this.call('POST', `/v2/sessions/${session}/statements`, { statement })) as { operationHandle: string };
    return r.operationHandle;
  }

  /** One result page; `uri` is the previous page's `nextResultUri`, or undefined for the first page. */
  async fetchPage(session: string, operation: string, uri: string | undefined): Promise<ResultPageJson> {
    return (await this.call('GET', uri ?? `/v2/sessions/${session}/operations/${operation}/result/0?rowFormat=JSON`, undefined, true)) as ResultPageJson;
  }

  async cancelOperation(session: string, operation: string): Promise<void> {
    await this.call('POST', `/v2/sessions/${session}/operations/${operation}/cancel`, {});
  }

  async closeOperation(session: string, operation: string): Promise<void> {
    await this.call('DELETE', `/v2/sessions/${session}/operations/${operation}/close`);
  }

  /** `exactRows`: a result page, whose row values are read keeping every digit (BIGINT beyond 2^53, DECIMAL). */
  private async call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, exactRows = false): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(this.base + path, { method, headers: this.headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    } catch (e) {
      const cause = e instanceof Error && e.cause instanceof Error ? e.cause.message : String(e);
      throw new GatewayConnectionError(`Could not reach the Flink SQL Gateway at ${this.base} (${cause}). Is it running? (scripts/flink.sh start)`);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? {} : JSON.parse(text);
      if (exactRows && response.ok) json = withExactRows(json as ResultPageJson, text);
    } catch {
      throw new GatewayConnectionError(`${this.base}${path.split('?')[0]} answered HTTP ${response.status} with something that is not JSON: is ${this.base} a Flink SQL Gateway REST endpoint?`);
    }
    if (!response.ok) {
      const errors = (json as { errors?: unknown }).errors;
      if (Array.isArray(errors) && errors.every((e) => typeof e === 'string')) throw gatewayErrorFrom(errors);
      throw new GatewayConnectionError(`${this.base} answered HTTP ${response.status} to ${method} ${path.split('?')[0]}.`);
    }
    return json;
  }
}
