// Helpers of the Pravega catalog tests. Each test file imports pravega-env.js and registry-env.js itself: that is
// how the test setup (test/setup/servers.ts) sees that it needs Pravega and the Pravega Schema Registry.
import { TableEnvironment } from '../../../src/api/table-environment.js';
import type { Row } from '../../../src/types/row.js';
import { CONTROLLER_URI, uniqueName } from '../pravega/pravega-env.js';
import { REGISTRY_URI } from '../pravega-registry/registry-env.js';

export { CONTROLLER_URI, REGISTRY_URI, uniqueName };

/** The CREATE CATALOG statement of a Pravega catalog over this run's servers. */
export function createCatalogSql(name: string, defaultDatabase: string, extra: Record<string, string> = {}): string {
  const options = {
    type: 'pravega',
    'controller-uri': CONTROLLER_URI,
    'schema-registry-uri': REGISTRY_URI ?? '',
    'default-database': defaultDatabase,
    ...extra,
  };
  return `CREATE CATALOG ${name} WITH (${Object.entries(options)
    .map(([k, v]) => `'${k}' = '${v}'`)
    .join(', ')})`;
}

export async function run(env: TableEnvironment, sql: string): Promise<void> {
  await (await env.executeSql(sql)).await();
}

export async function rowsOf(env: TableEnvironment, sql: string): Promise<Row[]> {
  const out: Row[] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push(r);
  return out;
}

/** The rows' fields only, for comparisons. */
export async function valuesOf(env: TableEnvironment, sql: string): Promise<unknown[][]> {
  return (await rowsOf(env, sql)).map((r) => [...r.fields]);
}

export function newEnv(envs: TableEnvironment[]): TableEnvironment {
  const e = TableEnvironment.create();
  envs.push(e);
  return e;
}
