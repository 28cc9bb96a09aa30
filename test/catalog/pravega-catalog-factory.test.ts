import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { ValidationError } from '../../src/errors/sluice-error.js';

// Option checks of CREATE CATALOG ... ('type' = 'pravega') that need no server; the catalog against Pravega and the
// registry is tested in test/integration/pravega-catalog.
describe("CREATE CATALOG ... WITH ('type' = 'pravega') options", () => {
  const env = TableEnvironment.create();
  afterAll(() => env.close());

  const create = (options: Record<string, string>): Promise<unknown> =>
    env.executeSql(
      `CREATE CATALOG p WITH (${Object.entries({ type: 'pravega', ...options })
        .map(([k, v]) => `'${k}' = '${v}'`)
        .join(', ')})`,
    );
  const good = { 'controller-uri': 'tcp://127.0.0.1:1', 'schema-registry-uri': 'http://127.0.0.1:1', 'default-database': 's' };

  it('lists the required options that are missing', async () => {
    await expect(create({ 'controller-uri': 'tcp://127.0.0.1:1' })).rejects.toThrow(ValidationError);
    await expect(create({ 'controller-uri': 'tcp://127.0.0.1:1' })).rejects.toThrow(/Missing required options are:\n\ndefault-database\nschema-registry-uri/);
  });

  it('refuses malformed URIs and a format it cannot write, naming the option', async () => {
    await expect(create({ ...good, 'controller-uri': 'localhost:9090x' })).rejects.toThrow("Option 'controller-uri' must look like tcp://host:port or tls://host:port, not 'localhost:9090x'.");
    await expect(create({ ...good, 'schema-registry-uri': 'localhost:9092' })).rejects.toThrow("Option 'schema-registry-uri' must be an http:// or https:// URL, not 'localhost:9092'.");
    await expect(create({ ...good, 'serialization.format': 'Protobuf' })).rejects.toThrow(/serialization\.format/);
    await expect(create({ ...good, 'security.auth-type': 'Basic' })).rejects.toThrow("'security.auth-type' and 'security.auth-token' go together; only 'security.auth-type' is set.");
  });

  it('suggests the key meant for an unknown option, json.* included', async () => {
    await expect(create({ ...good, 'schema-registry-url': 'http://x' })).rejects.toThrow(/'schema-registry-url': did you mean 'schema-registry-uri'\?/);
    await expect(create({ ...good, 'json.ignore-parse-error': 'true' })).rejects.toThrow(/'json.ignore-parse-error': did you mean 'json.ignore-parse-errors'\?/);
  });

  it('reports an unreachable controller with the catalog and the option', async () => {
    await expect(create(good)).rejects.toThrow(/Pravega catalog 'p' could not check the default database: the Pravega controller at 'tcp:\/\/127\.0\.0\.1:1' \('controller-uri'\) failed/);
  }, 60_000);
});
