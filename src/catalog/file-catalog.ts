import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSecretKey } from '../config/secrets.js';
import { ValidationError } from '../errors/sluice-error.js';
import type { CatalogBaseTable, CatalogFunction } from './catalog-table.js';
import {
  databaseFromJson,
  databaseToJson,
  functionFromJson,
  functionToJson,
  tableFromJson,
  tableToJson,
  type TableJson,
} from './catalog-json.js';
import { InMemoryCatalog } from './in-memory-catalog.js';

const DATABASE_FILE = '_database.json';

/**
 * A catalog persisted as human-readable JSON files, one per object, so tables created by one
 * `sluice` run are there for the next (docs/catalog-format.md):
 *
 * ```
 * <dir>/<database>/_database.json
 * <dir>/<database>/tables/<table or view>.json
 * <dir>/<database>/functions/<function>.json
 * ```
 *
 * Every change rewrites only the files of the database it touched, each through a temporary file and a
 * rename, so a crash leaves either the old or the new file, never half of one.
 *
 * Option values are stored as given, secrets too (a Kafka table's `properties.sasl.jaas.config`, a
 * password), because the next run needs them. A file holding any secret option (config/secrets.ts) is
 * therefore written with mode 0600, readable by its owner only; one found with wider permissions when
 * the catalog opens or rewrites it is narrowed to 0600.
 */
export class FileCatalog extends InMemoryCatalog {
  constructor(
    name: string,
    readonly dir: string,
    defaultDatabase = 'default_database',
  ) {
    super(name, defaultDatabase);
  }

  override async open(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const entries = await readdir(this.dir, { withFileTypes: true });
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const dbName = decodeName(e.name);
      const dbDir = join(this.dir, e.name);
      const dbJson = await readJson(join(dbDir, DATABASE_FILE));
      if (dbJson === undefined) continue;
      await restrictIfSecret(join(dbDir, DATABASE_FILE), dbJson);
      const entry = {
        info: databaseFromJson(dbJson as { comment?: string; properties?: Record<string, string> }),
        tables: new Map<string, CatalogBaseTable>(),
        functions: new Map<string, CatalogFunction>(),
      };
      for (const [file, json] of await readJsonDir(join(dbDir, 'tables'))) {
        await restrictIfSecret(join(dbDir, 'tables', file + '.json'), json);
        entry.tables.set(decodeName(file), tableFromJson(json as TableJson, join(dbDir, 'tables', file + '.json')));
      }
      for (const [file, json] of await readJsonDir(join(dbDir, 'functions'))) {
        entry.functions.set(decodeName(file), functionFromJson(json as { identifier: string }));
      }
      this.databases.set(dbName, entry);
    }
    if (!this.databases.has(this.defaultDatabase)) {
      await this.createDatabase(this.defaultDatabase, { properties: {} }, true);
    } else {
      await this.onChange(this.defaultDatabase);
    }
  }

  protected override async onChange(database: string | undefined): Promise<void> {
    if (database === undefined) return;
    const dbDir = join(this.dir, encodeName(database));
    const entry = this.databases.get(database);
    if (!entry) {
      await rm(dbDir, { recursive: true, force: true });
      return;
    }
    await mkdir(join(dbDir, 'tables'), { recursive: true });
    await mkdir(join(dbDir, 'functions'), { recursive: true });
    await writeJsonAtomic(join(dbDir, DATABASE_FILE), databaseToJson(entry.info));
    await syncFolder(join(dbDir, 'tables'), [...entry.tables].map(([n, t]) => [n, tableToJson(t)]));
    await syncFolder(join(dbDir, 'functions'), [...entry.functions].map(([n, f]) => [n, functionToJson(f)]));
  }
}

async function syncFolder(dir: string, objects: [string, object][]): Promise<void> {
  const wanted = new Set(objects.map(([n]) => encodeName(n) + '.json'));
  for (const [name, json] of objects) await writeJsonAtomic(join(dir, encodeName(name) + '.json'), json);
  for (const file of await readdir(dir)) {
    if (file.endsWith('.json') && !wanted.has(file)) await rm(join(dir, file), { force: true });
  }
}

const OWNER_ONLY = 0o600;

/** True when `json` holds a secret option anywhere (`{"options": {"password": "..."}}`, at any depth). */
export function holdsSecret(json: unknown): boolean {
  if (Array.isArray(json)) return json.some(holdsSecret);
  if (json === null || typeof json !== 'object') return false;
  for (const [k, v] of Object.entries(json)) {
    if (typeof v === 'string' && isSecretKey(k)) return true;
    if (typeof v === 'object' && holdsSecret(v)) return true;
  }
  return false;
}

/** Narrows an existing file that holds secrets to mode 0600 (files written before this rule, or copied). */
async function restrictIfSecret(path: string, json: unknown): Promise<void> {
  if (!holdsSecret(json)) return;
  const mode = await stat(path).then((st) => st.mode & 0o777, () => undefined);
  if (mode !== undefined && mode !== OWNER_ONLY) await chmod(path, OWNER_ONLY);
}

async function writeJsonAtomic(path: string, json: object): Promise<void> {
  const text = JSON.stringify(json, null, 2) + '\n';
  const secret = holdsSecret(json);
  const existing = await readFile(path, 'utf8').catch(() => undefined);
  if (existing === text) {
    if (secret) await restrictIfSecret(path, json);
    return;
  }
  const tmp = `${path}.tmp-${process.pid}`;
  // The mode is set when the temporary file is created (a leftover one is removed first, as writeFile
  // keeps an existing file's mode), so the secret is never readable by others, not even briefly.
  if (secret) await rm(tmp, { force: true });
  await writeFile(tmp, text, secret ? { mode: OWNER_ONLY } : {});
  if (secret) await chmod(tmp, OWNER_ONLY);
  await rename(tmp, path);
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ValidationError(`Catalog file ${path} is not valid JSON: ${(e as Error).message}`);
  }
}

async function readJsonDir(dir: string): Promise<[string, unknown][]> {
  let files: string[];
  try {
    files = await readdir(dir);
  } catch {
    return [];
  }
  const out: [string, unknown][] = [];
  for (const f of files.sort()) {
    if (!f.endsWith('.json')) continue;
    out.push([f.slice(0, -'.json'.length), await readJson(join(dir, f))]);
  }
  return out;
}

/** Object names may hold any character; file names get the URI-encoded form (`a%2Fb`). */
function encodeName(name: string): string {
  return encodeURIComponent(name);
}

function decodeName(file: string): string {
  return decodeURIComponent(file);
}
