import type { ControllerClient, PravegaSecurity } from '../../connectors/pravega/client/index.js';
import { PravegaRegistryClient } from '../../connectors/pravega/registry/registry-client.js';
import { PravegaRegistryError } from '../../connectors/pravega/registry/registry-error.js';
import type { SchemaWithVersion } from '../../connectors/pravega/registry/registry-model.js';
import { ConnectorError, ObjectAlreadyExistsError, ObjectNotFoundError, SluiceError, ValidationError } from '../../errors/sluice-error.js';
import type { RegistryFormat } from '../../formats/pravega-registry/pravega-registry-options.js';
import { SchemaMappingError, avroRecordNameOf, rowTypeOfSchema, schemaOfRowType } from '../../formats/pravega-registry/registry-schema-types.js';
import { ResolvedSchema } from '../../types/schema.js';
import type { Catalog, ObjectPath } from '../catalog.js';
import type { CatalogBaseTable, CatalogDatabase, CatalogFunction, CatalogTable } from '../catalog-table.js';

/** What a Pravega catalog connects to and what its tables carry. */
export interface PravegaCatalogConfig {
  readonly name: string;
  readonly defaultDatabase: string;
  readonly controllerUri: string;
  readonly registryUri: string;
  readonly serializationFormat: RegistryFormat;
  readonly security: PravegaSecurity;
  /** Options every table of the catalog gets besides those naming its stream (security, json.*), as table options. */
  readonly tableOptions: Readonly<Record<string, string>>;
}

/**
 * Pravega streams as tables (Flink's PravegaCatalog): scopes are databases, a stream whose name is a group of the
 * Pravega Schema Registry (in the namespace named after the scope) is a table, and its columns are the group's newest
 * schema. Tables need no WITH clause: the catalog gives them the pravega connector and the `pravega-registry` format.
 *
 * CREATE TABLE creates the stream (one segment, fixed scaling) and the group (AllowAny, several types allowed, as
 * Flink's catalog does) and registers the table's physical columns as its first schema; ALTER TABLE registers the new
 * columns as the next schema, under the group's compatibility rule; DROP TABLE seals and deletes the stream and the
 * group. Views and functions are not kept (the registry has no place for them).
 *
 * Every call goes to Pravega or the registry; nothing is cached, so other applications' changes show at once.
 */
export class PravegaCatalog implements Catalog {
  private controller: ControllerClient | undefined;
  private readonly registries = new Map<string, PravegaRegistryClient>();

  constructor(private readonly config: PravegaCatalogConfig) {}

  get defaultDatabase(): string {
    return this.config.defaultDatabase;
  }

  async open(): Promise<void> {
    // The gRPC client is loaded only when a Pravega catalog is actually created, so `sluice` starts fast.
    const { ControllerClient } = await import('../../connectors/pravega/client/controller-client.js');
    this.controller = new ControllerClient(this.config.controllerUri, { security: this.config.security, deadlineMs: 15_000 });
    try {
      const exists = await this.pravega('check the default database', (c) => c.scopeExists(this.config.defaultDatabase));
      if (!exists) {
        throw new ObjectNotFoundError(
          `Configured default database '${this.config.defaultDatabase}' ('default-database') doesn't exist in catalog '${this.config.name}': there is no Pravega scope of that name. Create the scope first.`,
        );
      }
      // Reach the registry now, so a wrong 'schema-registry-uri' fails CREATE CATALOG rather than the first query.
      await this.registry('reach the schema registry', this.config.defaultDatabase, (r) => r.listGroups());
    } catch (e) {
      // A catalog that failed to open is never registered, so nobody else would close its channel.
      await this.close();
      throw e;
    }
  }

  async close(): Promise<void> {
    this.controller?.close();
    this.controller = undefined;
  }

  // ---- databases (scopes) ----

  async listDatabases(): Promise<string[]> {
    const scopes = await this.pravega('list the databases', (c) => c.listScopes());
    return scopes.filter((s) => !s.startsWith('_')).sort();
  }

  async getDatabase(name: string): Promise<CatalogDatabase> {
    await this.requireDatabase(name);
    return { properties: {} };
  }

  async databaseExists(name: string): Promise<boolean> {
    return this.pravega(`look up database '${name}'`, (c) => c.scopeExists(name));
  }

  async createDatabase(name: string, _db: CatalogDatabase, ignoreIfExists: boolean): Promise<void> {
    checkPravegaName(name, 'database', 'scope');
    const created = await this.pravega(`create database '${name}'`, (c) => c.createScope(name));
    if (!created && !ignoreIfExists) throw new ObjectAlreadyExistsError(`Database ${name} already exists in Catalog ${this.config.name}.`);
  }

  async dropDatabase(name: string, ignoreIfNotExists: boolean, cascade: boolean): Promise<void> {
    if (!(await this.databaseExists(name))) {
      if (ignoreIfNotExists) return;
      throw this.noDatabase(name);
    }
    const tables = await this.listTables(name);
    if (tables.length > 0) {
      if (!cascade) throw new ValidationError(`Database ${name} in catalog ${this.config.name} is not empty.`);
      for (const t of tables) await this.registry(`drop table '${name}.${t}'`, name, (r) => r.deleteGroup(t));
    }
    await this.pravega(`drop database '${name}'`, (c) => c.deleteScopeRecursive(name));
  }

  async alterDatabase(name: string): Promise<void> {
    throw new ValidationError(`ALTER DATABASE is not supported by the Pravega catalog '${this.config.name}' (database '${name}'): a scope has no properties.`);
  }

  // ---- tables (streams with a schema group) ----

  async listTables(database: string): Promise<string[]> {
    await this.requireDatabase(database);
    const streams = await this.pravega(`list the tables of database '${database}'`, (c) => c.listStreams(database));
    const groups = await this.registry(`list the tables of database '${database}'`, database, (r) => r.listGroups());
    return streams.filter((s) => !s.startsWith('_') && groups.has(s)).sort();
  }

  async listViews(): Promise<string[]> {
    return [];
  }

  async tableExists(path: ObjectPath): Promise<boolean> {
    return this.pravega(`look up table '${path.database}.${path.object}'`, (c) => c.streamExists(path.database, path.object));
  }

  async getTable(path: ObjectPath): Promise<CatalogBaseTable> {
    const { database: scope, object: stream } = path;
    if (!(await this.tableExists(path))) throw this.noTable(path);
    let latest: SchemaWithVersion | undefined;
    try {
      latest = await this.registryClient(scope).getLatestSchema(stream);
    } catch (e) {
      if (e instanceof PravegaRegistryError && e.status === 404) latest = undefined;
      else throw this.registryFailure(`read the schema of table '${scope}.${stream}'`, e);
    }
    if (latest === undefined) {
      throw new ValidationError(
        `Table '${scope}.${stream}' of catalog '${this.config.name}': Pravega stream '${scope}/${stream}' has no schema in the schema registry ` +
          `(no group '${stream}' with a schema in namespace '${scope}'). Register one (or create the table with CREATE TABLE) to query it.`,
      );
    }
    let schema: ResolvedSchema;
    try {
      schema = ResolvedSchema.fromRowType(rowTypeOfSchema(latest.schemaInfo));
    } catch (e) {
      if (e instanceof SchemaMappingError) {
        throw new ValidationError(`Table '${scope}.${stream}' of catalog '${this.config.name}': its registered schema (version ${latest.versionInfo.version}) has no table form: ${e.message}`);
      }
      throw e;
    }
    // Writers use the group's own format when it is one the format writes, so a Json group in an Avro catalog works.
    const format = latest.schemaInfo.serializationFormat;
    const writeAs: RegistryFormat = format === 'Avro' || format === 'Json' ? format : this.config.serializationFormat;
    const table: CatalogTable = { kind: 'table', schema, partitionKeys: [], options: this.optionsOf(scope, stream, writeAs) };
    return table;
  }

  async createTable(path: ObjectPath, table: CatalogBaseTable, ignoreIfExists: boolean): Promise<void> {
    const { database: scope, object: stream } = path;
    if (table.kind === 'view') throw new ValidationError(`The Pravega catalog '${this.config.name}' does not keep views ('${scope}.${stream}'); create a temporary view instead.`);
    checkPravegaName(stream, 'table', 'stream');
    const schema = this.registrableSchema(path, table, this.config.serializationFormat);
    await this.requireDatabase(scope);
    if (await this.tableExists(path)) {
      if (ignoreIfExists) return;
      throw new ObjectAlreadyExistsError(`Table (or view) ${scope}.${stream} already exists in Catalog ${this.config.name}.`);
    }
    await this.pravega(`create table '${scope}.${stream}'`, (c) => c.createStream(scope, stream, { scaling: { kind: 'fixed', segments: 1 } }));
    try {
      await this.registry(`create table '${scope}.${stream}'`, scope, async (r) => {
        await r.createGroup(stream, { serializationFormat: this.config.serializationFormat, compatibility: 'AllowAny', allowMultipleTypes: true });
        await r.addSchema(stream, { type: schema.type, serializationFormat: this.config.serializationFormat, schema: schema.schema });
      });
    } catch (e) {
      // Leave nothing half made: a stream without its group would be invisible to SHOW TABLES yet block the name.
      await this.controller!.sealStream(scope, stream).catch(() => undefined);
      await this.controller!.deleteStream(scope, stream).catch(() => undefined);
      throw e;
    }
  }

  async alterTable(path: ObjectPath, table: CatalogBaseTable, ignoreIfNotExists: boolean): Promise<void> {
    if (!(await this.tableExists(path))) {
      if (ignoreIfNotExists) return;
      throw this.noTable(path);
    }
    if (table.kind === 'view') throw new ValidationError(`'${path.database}.${path.object}' is a table of the Pravega catalog '${this.config.name}', not a view.`);
    const what = `alter table '${path.database}.${path.object}'`;
    await this.registry(what, path.database, async (r) => {
      // The new schema is in the group's own format, whatever the catalog's 'serialization.format'.
      const props = await r.getGroupProperties(path.object);
      const format: RegistryFormat = props.serializationFormat === 'Json' ? 'Json' : props.serializationFormat === 'Avro' ? 'Avro' : this.config.serializationFormat;
      const latest = await r.getLatestSchema(path.object);
      const schema = this.registrableSchema(path, table, format, avroRecordNameOf(latest?.schemaInfo));
      // A JSON schema's type is its writer's class name (or ''): keep it, so the group keeps one type.
      const type = format === 'Json' && latest !== undefined ? latest.schemaInfo.type : schema.type;
      await r.addSchema(path.object, { type, serializationFormat: format, schema: schema.schema });
    });
  }

  async renameTable(path: ObjectPath): Promise<void> {
    throw new ValidationError(`Renaming is not supported by the Pravega catalog '${this.config.name}' ('${path.database}.${path.object}'): Pravega streams cannot be renamed.`);
  }

  async dropTable(path: ObjectPath, ignoreIfNotExists: boolean): Promise<void> {
    const { database: scope, object: stream } = path;
    if (!(await this.tableExists(path))) {
      if (ignoreIfNotExists) return;
      throw this.noTable(path);
    }
    await this.pravega(`drop table '${scope}.${stream}'`, async (c) => {
      await c.sealStream(scope, stream);
      await c.deleteStream(scope, stream);
    });
    await this.registry(`drop table '${scope}.${stream}'`, scope, (r) => r.deleteGroup(stream));
  }

  // ---- functions: not kept ----

  async listFunctions(): Promise<string[]> {
    return [];
  }

  async getFunction(path: ObjectPath): Promise<CatalogFunction> {
    throw new ObjectNotFoundError(`Function ${path.database}.${path.object} does not exist in Catalog ${this.config.name}.`);
  }

  async functionExists(): Promise<boolean> {
    return false;
  }

  async createFunction(path: ObjectPath): Promise<void> {
    throw new ValidationError(`The Pravega catalog '${this.config.name}' does not keep functions ('${path.database}.${path.object}'); create a temporary function instead.`);
  }

  async dropFunction(path: ObjectPath, ignoreIfNotExists: boolean): Promise<void> {
    if (!ignoreIfNotExists) throw new ObjectNotFoundError(`Function ${path.database}.${path.object} does not exist in Catalog ${this.config.name}.`);
  }

  // ---- helpers ----

  /** The connector and format options of a table: the stream to read and write and the group of its schemas. */
  private optionsOf(scope: string, stream: string, format: RegistryFormat): Record<string, string> {
    return {
      connector: 'pravega',
      'controller-uri': this.config.controllerUri,
      scope,
      'scan.streams': stream,
      'sink.stream': stream,
      format: 'pravega-registry',
      'pravega-registry.uri': this.config.registryUri,
      'pravega-registry.namespace': scope,
      'pravega-registry.group-id': stream,
      'pravega-registry.format': format,
      ...this.config.tableOptions,
    };
  }

  /** The registry schema of a table's physical columns; anything the registry cannot hold is refused, not dropped. */
  private registrableSchema(path: ObjectPath, table: CatalogTable, format: RegistryFormat, recordName = 'record'): { type: string; schema: string } {
    const s = table.schema;
    const what = `Table '${path.database}.${path.object}' of the Pravega catalog '${this.config.name}'`;
    const extra = s.columns.filter((c) => c.kind !== 'physical').map((c) => c.name);
    if (extra.length > 0) {
      throw new ValidationError(`${what} can only have physical columns: its schema lives in the schema registry, which has no place for computed or metadata columns (${extra.join(', ')}).`);
    }
    if (s.watermarkSpecs.length > 0 || s.primaryKey !== undefined) {
      throw new ValidationError(`${what} cannot declare ${s.primaryKey !== undefined ? 'a PRIMARY KEY' : 'a WATERMARK'}: the schema registry keeps only the columns.`);
    }
    if (table.partitionKeys.length > 0) throw new ValidationError(`${what} cannot be partitioned.`);
    const derived = schemaOfRowType(s.toPhysicalRowType(), format, recordName);
    return { type: derived.type, schema: derived.schema };
  }

  private async requireDatabase(name: string): Promise<void> {
    if (!(await this.databaseExists(name))) throw this.noDatabase(name);
  }

  private noDatabase(name: string): ObjectNotFoundError {
    return new ObjectNotFoundError(`Database ${name} does not exist in Catalog ${this.config.name}.`);
  }

  private noTable(path: ObjectPath): ObjectNotFoundError {
    return new ObjectNotFoundError(`Table (or view) ${path.database}.${path.object} does not exist in Catalog ${this.config.name}.`);
  }

  private registryClient(namespace: string): PravegaRegistryClient {
    let r = this.registries.get(namespace);
    if (r === undefined) {
      const auth = this.config.security.auth;
      r = new PravegaRegistryClient({
        uri: this.config.registryUri,
        namespace,
        ...(auth === undefined ? {} : { headers: { Authorization: `${auth.type} ${auth.token}` } }),
      });
      this.registries.set(namespace, r);
    }
    return r;
  }

  /** Runs a controller call; failures name the catalog and its 'controller-uri'. */
  private async pravega<T>(what: string, call: (c: ControllerClient) => Promise<T>): Promise<T> {
    const c = this.controller;
    if (c === undefined) throw new ConnectorError(`The Pravega catalog '${this.config.name}' is not open.`);
    try {
      return await call(c);
    } catch (e) {
      if (e instanceof SluiceError && !(e instanceof ConnectorError)) throw e;
      throw new ConnectorError(
        `Pravega catalog '${this.config.name}' could not ${what}: the Pravega controller at '${this.config.controllerUri}' ('controller-uri') failed: ${(e as Error).message}`,
        { cause: e },
      );
    }
  }

  /** Runs registry calls in `namespace`; failures name the catalog and its 'schema-registry-uri'. */
  private async registry<T>(what: string, namespace: string, call: (r: PravegaRegistryClient) => Promise<T>): Promise<T> {
    try {
      return await call(this.registryClient(namespace));
    } catch (e) {
      throw this.registryFailure(what, e);
    }
  }

  private registryFailure(what: string, e: unknown): SluiceError {
    if (e instanceof SluiceError && !(e instanceof ConnectorError)) return e;
    return new ConnectorError(
      `Pravega catalog '${this.config.name}' could not ${what}: the schema registry at '${this.config.registryUri}' ('schema-registry-uri') failed: ${(e as Error).message}`,
      { cause: e },
    );
  }
}

/** Pravega's rule for user scope and stream names (NameUtils): letters, digits, '.' and '-'. */
function checkPravegaName(name: string, what: 'database' | 'table', pravegaWhat: 'scope' | 'stream'): void {
  if (!/^[\p{L}\p{N}.-]+$/u.test(name)) {
    throw new ValidationError(
      `Invalid ${what} name '${name}' for the Pravega catalog: it names a Pravega ${pravegaWhat}, whose name may hold only letters, digits, '.' and '-'.`,
    );
  }
}
