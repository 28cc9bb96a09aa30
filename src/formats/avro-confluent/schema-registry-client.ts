import { ConnectorError } from '../../errors/sluice-error.js';
import type { HttpRequest, SyncHttpTransport } from './sync-http.js';
import { WorkerHttpTransport } from './sync-http.js';

/** How to reach one registry: its base URL(s) and what to send with every request. */
export interface SchemaRegistryConfig {
  /** One base URL, or several separated by commas (tried in order when one cannot be reached). */
  readonly url: string;
  /** Authorization and other headers sent with every request. */
  readonly headers: Readonly<Record<string, string>>;
  readonly ca?: string;
  readonly pfx?: string;
  readonly passphrase?: string;
  readonly timeoutMs?: number;
}

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

let defaultTransport: WorkerHttpTransport | undefined;

/**
 * A client of Confluent's schema-registry REST API (also served by Apicurio under /apis/ccompat/v7), with
 * the two calls a format needs and a cache for each, as Confluent's CachedSchemaRegistryClient: a schema id
 * never changes its schema, and registering the same schema under the same subject again returns the same
 * id, so each is asked once per client.
 *
 * Calls block the calling thread until the registry answers (see SyncHttpTransport); they happen when a
 * decoder meets a schema id for the first time and when an encoder writes its first row.
 */
export class SchemaRegistryClient {
  private readonly byId = new Map<number, string>();
  private readonly registered = new Map<string, number>();
  private readonly urls: readonly string[];

  constructor(
    private readonly config: SchemaRegistryConfig,
    private readonly transport: SyncHttpTransport = (defaultTransport ??= new WorkerHttpTransport()),
  ) {
    this.urls = config.url
      .split(',')
      .map((u) => u.trim().replace(/\/+$/, ''))
      .filter((u) => u !== '');
    if (this.urls.length === 0) throw new ConnectorError("The schema registry 'url' is empty.");
  }

  /**
   * The schema text (Avro JSON) registered under `id`; `GET /schemas/ids/{id}`. Cached.
   * @throws ConnectorError when the registry has no such id or cannot be reached.
   */
  getSchemaById(id: number): string {
    const cached = this.byId.get(id);
    if (cached !== undefined) return cached;
    const res = this.call('GET', `/schemas/ids/${id}`, undefined, `fetch the schema with id ${id}`);
    const { schema, schemaType } = res as { schema?: unknown; schemaType?: unknown };
    if (typeof schema !== 'string') throw new ConnectorError(`The schema registry answered no schema for id ${id}.`);
    if (schemaType !== undefined && schemaType !== 'AVRO') {
      throw new ConnectorError(`The schema with id ${id} is a ${String(schemaType)} schema, not Avro.`);
    }
    this.byId.set(id, schema);
    return schema;
  }

  /**
   * Registers `schema` under `subject` (or finds it registered) and returns its id;
   * `POST /subjects/{subject}/versions`. Cached per subject and schema text.
   * @throws ConnectorError when the registry rejects the schema (e.g. incompatible) or cannot be reached.
   */
  register(subject: string, schema: string): number {
    const key = `${subject}\u0000${schema}`;
    const cached = this.registered.get(key);
    if (cached !== undefined) return cached;
    const res = this.call('POST', `/subjects/${encodeURIComponent(subject)}/versions`, JSON.stringify({ schema }), `register a schema under subject '${subject}'`);
    const id = (res as { id?: unknown }).id;
    if (typeof id !== 'number') throw new ConnectorError(`The schema registry answered no id when registering under subject '${subject}'.`);
    this.registered.set(key, id);
    this.byId.set(id, schema);
    return id;
  }

  private call(method: HttpRequest['method'], path: string, body: string | undefined, what: string): unknown {
    const failures: string[] = [];
    for (const base of this.urls) {
      const req: HttpRequest = {
        method,
        url: base + path,
        headers: { Accept: CONTENT_TYPE, ...(body === undefined ? {} : { 'Content-Type': CONTENT_TYPE }), ...this.config.headers },
        ...(body === undefined ? {} : { body }),
        ...(this.config.ca === undefined ? {} : { ca: this.config.ca }),
        ...(this.config.pfx === undefined ? {} : { pfx: this.config.pfx, passphrase: this.config.passphrase ?? '' }),
        timeoutMs: this.config.timeoutMs ?? 30_000,
      };
      let status: number;
      let text: string;
      try {
        ({ status, body: text } = this.transport.request(req));
      } catch (e) {
        failures.push(`${base}: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (status >= 200 && status < 300 && parsed !== undefined) return parsed;
      const message = (parsed as { message?: unknown } | undefined)?.message;
      const code = (parsed as { error_code?: unknown } | undefined)?.error_code;
      throw new ConnectorError(
        `Could not ${what} in the schema registry at ${base}: HTTP ${status}` +
          (code === undefined ? '' : ` (error code ${String(code)})`) +
          `: ${typeof message === 'string' ? message : text.slice(0, 300)}`,
      );
    }
    throw new ConnectorError(`Could not ${what}: no schema registry answered (${failures.join('; ')}).`);
  }
}
