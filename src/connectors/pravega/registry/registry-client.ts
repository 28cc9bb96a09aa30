import { PravegaRegistryError } from './registry-error.js';
import type {
  CodecType,
  CompatibilityPolicy,
  EncodingInfo,
  GroupProperties,
  SchemaInfo,
  SchemaWithVersion,
  SerializationFormat,
  VersionInfo,
} from './registry-model.js';

/** How to reach one Pravega Schema Registry. */
export interface PravegaRegistryConfig {
  /** Base URL without the API version, e.g. `http://127.0.0.1:9097` (what scripts/pravega-registry.sh prints). */
  readonly uri: string;
  /** Sent with every request (e.g. Authorization when the registry has auth enabled). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Per-request timeout; default 10 s. */
  readonly timeoutMs?: number;
  /** Tries per request when the registry cannot be reached or answers 5xx; default 4. */
  readonly attempts?: number;
  /** Wait before the first retry, doubled for each next one; default 200 ms. */
  readonly backoffMs?: number;
  /**
   * The registry namespace the groups live in (sent as `?namespace=` on every group request); Flink's Pravega
   * catalog and format use the Pravega scope. Unset: the registry's default namespace.
   */
  readonly namespace?: string;
}

/** What a new group is; defaults: one record type, no properties, compatibility as below. */
export interface NewGroup {
  readonly serializationFormat: SerializationFormat;
  /**
   * Default Backward for Avro, AllowAny for other formats: the 0.5 registry checks compatibility only for Avro
   * and refuses (HTTP 400) any rule but AllowAny or DenyAll for the others.
   */
  readonly compatibility?: CompatibilityPolicy;
  readonly allowMultipleTypes?: boolean;
  readonly properties?: Readonly<Record<string, string>>;
}

/** A schema to add: its text and its record's full name (`type`). */
export interface NewSchema {
  readonly type: string;
  readonly serializationFormat: SerializationFormat;
  readonly schema: string;
  readonly properties?: Readonly<Record<string, string>>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface WireSerializationFormat {
  serializationFormat: SerializationFormat;
  fullTypeName?: string;
}
interface WireGroupProperties {
  serializationFormat: WireSerializationFormat;
  compatibility: { policy: CompatibilityPolicy };
  allowMultipleTypes: boolean;
  properties?: Record<string, string>;
}
interface WireSchemaInfo {
  type: string;
  serializationFormat: WireSerializationFormat;
  schemaData: string;
  properties?: Record<string, string>;
}

/** A status the caller handles itself instead of getting an error. */
interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * A client of the Pravega Schema Registry's REST API (v1): groups, schemas, encoding ids, codecs and
 * compatibility. Every method is async and does one or a few HTTP requests; nothing here is meant for the
 * record path (a format resolves encoding ids once and caches them).
 *
 * Requests that get no answer or a 5xx answer are retried with exponential backoff, `attempts` times in all; a
 * 4xx answer is final and becomes a PravegaRegistryError that says what was asked and why it was refused.
 *
 * @example
 * const registry = new PravegaRegistryClient({ uri: 'http://127.0.0.1:9097' });
 * await registry.createGroup('users', { serializationFormat: 'Avro' });
 * const v = await registry.addSchema('users', { type: 'app.User', serializationFormat: 'Avro', schema });
 * const encodingId = await registry.getEncodingId('users', v);
 */
export class PravegaRegistryClient {
  private readonly base: string;
  private readonly attempts: number;

  constructor(private readonly config: PravegaRegistryConfig) {
    const uri = config.uri.trim().replace(/\/+$/, '');
    if (!/^https?:\/\/[^/]+/.test(uri)) {
      throw new PravegaRegistryError(
        `The schema registry URI '${config.uri}' is not an http:// or https:// URL.`,
        'connect to the schema registry',
        undefined,
      );
    }
    this.base = uri.endsWith('/v1') ? uri : `${uri}/v1`;
    this.attempts = Math.max(1, config.attempts ?? 4);
  }

  /** All group names with their properties, following the server's continuation tokens. */
  async listGroups(): Promise<Map<string, GroupProperties>> {
    const out = new Map<string, GroupProperties>();
    let token = '';
    for (;;) {
      const query = this.query(token === '' ? {} : { continuationToken: token });
      const { body } = await this.request('GET', `/groups${query}`, undefined, 'list the groups');
      const page = body as { groups?: Record<string, WireGroupProperties>; continuationToken?: string };
      const groups = Object.entries(page.groups ?? {});
      for (const [name, props] of groups) out.set(name, fromWireGroup(props));
      // The server hands out a token even on the last page; an empty page ends the listing.
      if (groups.length === 0 || !page.continuationToken || page.continuationToken === token) return out;
      token = page.continuationToken;
    }
  }

  /** Creates the group; returns false (and changes nothing) when a group of that name exists. */
  async createGroup(group: string, props: NewGroup): Promise<boolean> {
    const compatibility = props.compatibility ?? (props.serializationFormat === 'Avro' ? 'Backward' : 'AllowAny');
    const body: { groupName: string; groupProperties: WireGroupProperties } = {
      groupName: group,
      groupProperties: {
        serializationFormat: { serializationFormat: props.serializationFormat },
        compatibility: { policy: compatibility },
        allowMultipleTypes: props.allowMultipleTypes ?? false,
        properties: { ...(props.properties ?? {}) },
      },
    };
    const what = `create group '${group}'`;
    const res = await this.request('POST', `/groups${this.query({})}`, body, what, [400, 409]);
    if (res.status === 400) {
      // The server answers an empty 400; the usual cause is a rule it cannot check for the format.
      const hint =
        props.serializationFormat !== 'Avro' && compatibility !== 'AllowAny' && compatibility !== 'DenyAll'
          ? `; the registry checks compatibility only for Avro, so a ${props.serializationFormat} group takes 'AllowAny' or 'DenyAll'`
          : '';
      throw new PravegaRegistryError(
        `Could not ${what}: the registry refused serialization format '${props.serializationFormat}' with compatibility '${compatibility}'${hint}.`,
        what,
        400,
      );
    }
    return res.status !== 409;
  }

  /** The group's properties; throws a PravegaRegistryError with status 404 when there is no such group. */
  async getGroupProperties(group: string): Promise<GroupProperties> {
    const { body } = await this.request('GET', this.groupPath(group), undefined, `read group '${group}'`);
    return fromWireGroup(body as WireGroupProperties);
  }

  /** Deletes the group and its schemas. Deleting a group that does not exist succeeds: the server answers 204 too. */
  async deleteGroup(group: string): Promise<void> {
    await this.request('DELETE', this.groupPath(group), undefined, `delete group '${group}'`);
  }

  /**
   * Adds a schema to the group (or finds it there) and returns where it sits. A schema the group's compatibility
   * rule refuses fails with an error that names the rule.
   */
  async addSchema(group: string, schema: NewSchema): Promise<VersionInfo> {
    const what = `add a ${schema.serializationFormat} schema of type '${schema.type}' to group '${group}'`;
    const res = await this.request('POST', this.groupPath(group, '/schemas'), toWireSchema(schema), what, [409]);
    if (res.status === 409) {
      const rule = await this.getGroupProperties(group).then(
        (p) => p.compatibility,
        () => 'unknown',
      );
      throw new PravegaRegistryError(
        `Could not ${what}: the schema is not compatible with the group's schemas under its compatibility rule '${rule}'.`,
        what,
        409,
      );
    }
    return res.body as VersionInfo;
  }

  /** The group's schemas with their versions, oldest first; `type` narrows to one record type. */
  async getSchemas(group: string, type?: string): Promise<SchemaWithVersion[]> {
    const path = this.groupPath(group, '/schemas/versions', type === undefined ? {} : { type });
    const { body } = await this.request('GET', path, undefined, `list the schemas of group '${group}'`);
    const list = (body as { schemas?: { schemaInfo: WireSchemaInfo; versionInfo: VersionInfo }[] }).schemas ?? [];
    return list.map((s) => ({ schemaInfo: fromWireSchema(s.schemaInfo), versionInfo: s.versionInfo }));
  }

  /** The newest schema of the group (of `type` if given), or undefined when it has none. */
  async getLatestSchema(group: string, type?: string): Promise<SchemaWithVersion | undefined> {
    const all = await this.getSchemas(group, type);
    return all.length === 0 ? undefined : all.reduce((a, b) => (b.versionInfo.id > a.versionInfo.id ? b : a));
  }

  /** The schema with the given id in the group. */
  async getSchemaById(group: string, schemaId: number): Promise<SchemaInfo> {
    const { body } = await this.request('GET', this.groupPath(group, `/schemas/schema/${schemaId}`), undefined, `read schema ${schemaId} of group '${group}'`);
    return fromWireSchema(body as WireSchemaInfo);
  }

  /**
   * The encoding id for writing with schema version `version` and codec `codecType` ('' for none), created on
   * first request; the same pair always gets the same id.
   */
  async getEncodingId(group: string, version: VersionInfo, codecType = ''): Promise<number> {
    const body = { versionInfo: version, codecType };
    const what = `get the encoding id of schema ${version.id} (codec '${codecType}') in group '${group}'`;
    const res = await this.request('PUT', this.groupPath(group, '/encodings'), body, what);
    const id = (res.body as { encodingId?: unknown }).encodingId;
    if (typeof id !== 'number') throw new PravegaRegistryError(`Could not ${what}: the registry answered no encoding id.`, what, res.status);
    return id;
  }

  /** What an encoding id stands for: the writer's schema and codec. */
  async getEncodingInfo(group: string, encodingId: number): Promise<EncodingInfo> {
    const { body } = await this.request('GET', this.groupPath(group, `/encodings/${encodingId}`), undefined, `read encoding id ${encodingId} of group '${group}'`);
    const info = body as { schemaInfo: WireSchemaInfo; versionInfo: VersionInfo; codecType: CodecType };
    return { schemaInfo: fromWireSchema(info.schemaInfo), versionInfo: info.versionInfo, codecType: info.codecType };
  }

  /** The codecs registered for the group's writers. */
  async getCodecTypes(group: string): Promise<CodecType[]> {
    const { body } = await this.request('GET', this.groupPath(group, '/codecTypes'), undefined, `list the codecs of group '${group}'`);
    return (body as { codecTypes?: CodecType[] }).codecTypes ?? [];
  }

  /** Registers a codec writers of the group may use. */
  async addCodecType(group: string, codec: CodecType): Promise<void> {
    await this.request('POST', this.groupPath(group, '/codecTypes'), codec, `add codec '${codec.name}' to group '${group}'`);
  }

  /** Changes the group's compatibility rule. */
  async updateCompatibility(group: string, policy: CompatibilityPolicy): Promise<void> {
    const what = `set the compatibility of group '${group}' to '${policy}'`;
    await this.request('PUT', this.groupPath(group, '/compatibility'), { compatibility: { policy } }, what);
  }

  /**
   * True when `compatibility` (default: the group's own rule) would accept the schema into the group; nothing is
   * registered.
   */
  async validateSchema(group: string, schema: NewSchema, compatibility?: CompatibilityPolicy): Promise<boolean> {
    const what = `validate a schema of type '${schema.type}' against group '${group}'`;
    // The server needs the rule spelled out (it fails with a 500 without one).
    const policy = compatibility ?? (await this.getGroupProperties(group)).compatibility;
    const request = { schemaInfo: toWireSchema(schema), compatibility: { policy } };
    const { body } = await this.request('POST', this.groupPath(group, '/schemas/versions/validate'), request, what);
    return (body as { valid?: unknown }).valid === true;
  }

  /** `/groups/<group><rest>` with the namespace, if any, as the query. */
  private groupPath(group: string, rest = '', params: Readonly<Record<string, string>> = {}): string {
    return `/groups/${encodeURIComponent(group)}${rest}${this.query(params)}`;
  }

  /** A query string of `params` plus the namespace; '' when both are empty. */
  private query(params: Readonly<Record<string, string>>): string {
    const all = this.config.namespace === undefined ? params : { ...params, namespace: this.config.namespace };
    const parts = Object.entries(all).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
    return parts.length === 0 ? '' : `?${parts.join('&')}`;
  }

  /**
   * One request with retries. `expected` lists non-2xx statuses the caller handles (returned, not thrown).
   * Bodies are JSON both ways; an empty body reads as undefined.
   */
  private async request(method: Method, path: string, body: unknown, what: string, expected: readonly number[] = []): Promise<Answer> {
    const url = this.base + path;
    let lastProblem = '';
    let lastStatus: number | undefined;
    let lastCause: unknown;
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      if (attempt > 1) await sleep((this.config.backoffMs ?? 200) * 2 ** (attempt - 2));
      let res: Response;
      let text: string;
      try {
        res = await fetch(url, {
          method,
          headers: {
            Accept: 'application/json',
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
            ...(this.config.headers ?? {}),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(this.config.timeoutMs ?? 10_000),
        });
        text = await res.text();
      } catch (e) {
        lastStatus = undefined;
        lastCause = e;
        lastProblem = `no answer from ${this.base} (${describeFetchFailure(e)})`;
        continue;
      }
      if (res.status >= 500) {
        lastStatus = res.status;
        lastProblem = `HTTP ${res.status}${text === '' ? '' : `: ${text.slice(0, 300)}`}`;
        continue;
      }
      let parsed: unknown;
      if (text !== '') {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      if ((res.status >= 200 && res.status < 300) || expected.includes(res.status)) return { status: res.status, body: parsed };
      throw new PravegaRegistryError(`Could not ${what} in the schema registry at ${this.base}: ${refusal(res.status, text)}.`, what, res.status);
    }
    throw new PravegaRegistryError(
      `Could not ${what} in the schema registry: ${lastProblem} after ${this.attempts} attempt${this.attempts === 1 ? '' : 's'}.`,
      what,
      lastStatus,
      { cause: lastCause },
    );
  }
}


function toWireSchema(s: NewSchema): WireSchemaInfo {
  return {
    type: s.type,
    serializationFormat: { serializationFormat: s.serializationFormat },
    schemaData: Buffer.from(s.schema, 'utf8').toString('base64'),
    properties: { ...(s.properties ?? {}) },
  };
}

function fromWireSchema(w: WireSchemaInfo): SchemaInfo {
  return {
    type: w.type,
    serializationFormat: w.serializationFormat.serializationFormat,
    schema: Buffer.from(w.schemaData, 'base64').toString('utf8'),
    properties: w.properties ?? {},
  };
}

function fromWireGroup(w: WireGroupProperties): GroupProperties {
  return {
    serializationFormat: w.serializationFormat.serializationFormat,
    ...(w.serializationFormat.fullTypeName === undefined ? {} : { fullTypeName: w.serializationFormat.fullTypeName }),
    compatibility: w.compatibility.policy,
    allowMultipleTypes: w.allowMultipleTypes,
    properties: w.properties ?? {},
  };
}

/** The server sends most refusals with an empty body, so the status is spelled out. */
function refusal(status: number, text: string): string {
  const meaning: Record<number, string> = {
    400: 'the request was malformed',
    401: 'authentication is required',
    403: 'permission denied',
    404: 'not found',
    409: 'conflict',
    412: 'a concurrent update won; try again',
    417: 'the schema is not valid for its serialization format',
  };
  const words = meaning[status] ?? 'refused';
  return `HTTP ${status} (${words})${text === '' ? '' : `: ${text.slice(0, 300)}`}`;
}

/** Node's fetch hides the reason (ECONNREFUSED, timeout) in `cause`; bring it to the surface. */
function describeFetchFailure(e: unknown): string {
  if (e instanceof Error) {
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timed out';
    const cause = (e as { cause?: unknown }).cause;
    const code = (cause as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') return code;
    if (cause instanceof Error) return cause.message;
    return e.message;
  }
  return String(e);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
