// The environment variables through which the test setup (test/setup/servers.ts) tells the tests where their
// servers are, and what the tests do when one is missing. Test helpers (test/integration/*/broker.ts, pravega-env.ts,
// registry.ts) read the addresses only through serverAddress(); none falls back to a server's default port, since
// whatever answers there on a shared machine belongs to somebody else.
//
//   KAFKA_BOOTSTRAP          host:port of the Kafka broker        (KAFKA_PORT alone means 127.0.0.1:KAFKA_PORT)
//   PRAVEGA_CONTROLLER_URI   tcp://host:port of the Pravega controller
//   SCHEMA_REGISTRY_URL      Confluent-API base URL of the schema registry, e.g. http://127.0.0.1:<port>/apis/ccompat/v7
//                            (SCHEMA_REGISTRY_PORT alone means http://127.0.0.1:<port>/apis/ccompat/v7)
//   PRAVEGA_REGISTRY_URI     http://host:port of the Pravega Schema Registry
//   FLINK_GATEWAY_URL        http://host:port of a Flink cluster's SQL Gateway (scripts/flink.sh); FLINK_REST_URL is
//                            its JobManager's REST API, FLINK_TASKMANAGER_LOG the TaskManager's log (print sink rows)
//   SLUICE_CACHE             the jar cache of scripts/*.sh (default <repo>/.cache), e.g. for the Pravega Java client
//   SLUICE_RUN_DIR           this run's own folder for server data, pids and logs (removed at the end)
//   SLUICE_TEST_SKIP_KAFKA, SLUICE_TEST_SKIP_PRAVEGA, SLUICE_TEST_SKIP_SCHEMA_REGISTRY
//                            set by the setup to the reason a server was not started (e.g. "no java on PATH")
//
// A value set before the run (e.g. KAFKA_BOOTSTRAP of a broker the developer started on a port of their own) is
// used as is and that server is not started.

export type ServerName = 'kafka' | 'pravega' | 'schema-registry' | 'pravega-registry' | 'flink';

export const ADDRESS_VARIABLE: Readonly<Record<ServerName, string>> = {
  kafka: 'KAFKA_BOOTSTRAP',
  pravega: 'PRAVEGA_CONTROLLER_URI',
  'schema-registry': 'SCHEMA_REGISTRY_URL',
  'pravega-registry': 'PRAVEGA_REGISTRY_URI',
  flink: 'FLINK_GATEWAY_URL',
};

export const SKIP_VARIABLE: Readonly<Record<ServerName, string>> = {
  kafka: 'SLUICE_TEST_SKIP_KAFKA',
  pravega: 'SLUICE_TEST_SKIP_PRAVEGA',
  'schema-registry': 'SLUICE_TEST_SKIP_SCHEMA_REGISTRY',
  'pravega-registry': 'SLUICE_TEST_SKIP_PRAVEGA_REGISTRY',
  flink: 'SLUICE_TEST_SKIP_FLINK',
};

/** CI=true (as .ci/run sets it): a missing server is a failure there, never a skip. */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return !!env.CI && env.CI !== 'false' && env.CI !== '0';
}

/** The address the environment gives for `server`, or undefined. No default: see the file comment. */
export function serverAddress(server: ServerName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const explicit = env[ADDRESS_VARIABLE[server]];
  if (explicit) return explicit;
  if (server === 'kafka' && env.KAFKA_PORT) return `127.0.0.1:${env.KAFKA_PORT}`;
  if (server === 'schema-registry' && env.SCHEMA_REGISTRY_PORT) return `http://127.0.0.1:${env.SCHEMA_REGISTRY_PORT}/apis/ccompat/v7`;
  return undefined;
}

/**
 * Called by a suite whose server has no address: in CI that is a failure (a broken setup must never pass as a
 * skip); elsewhere the suite skips and says why. Returns false so callers can write `return serverMissing(...)`.
 */
export function serverMissing(server: ServerName, suites: string): false {
  const reason =
    process.env[SKIP_VARIABLE[server]] ??
    `${ADDRESS_VARIABLE[server]} is not set (run the tests through vitest, whose setup test/setup/servers.ts starts the ${server} server for the test files that need it)`;
  if (isCi()) throw new Error(`${suites} need a ${server} server, and CI must have one: ${reason}`);
  console.warn(`SKIPPING ${suites}: ${reason}`);
  return false;
}
