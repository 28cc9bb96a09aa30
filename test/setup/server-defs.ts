// The servers a test run can start, how (which script, which ports, which variables), and which test files
// need each. Used by test/setup/servers.ts; the variables the tests read are described in server-contract.ts.
import type { ServerName } from './server-contract.js';

export interface ServerDef {
  readonly name: ServerName;
  /** scripts/<script> start|stop|fetch */
  readonly script: string;
  /** Port groups to reserve: each number is a count of consecutive ports. */
  readonly portGroups: readonly number[];
  /** Tools the server needs at run time besides what the script fetches (java, curl). */
  readonly tools: readonly string[];
  /** Environment for the script, from the reserved ports (start and stop get the same). */
  scriptEnv(ports: readonly number[][]): Record<string, string>;
  /** Variables the tests read, from the reserved ports. */
  testEnv(ports: readonly number[][]): Record<string, string>;
  /** Test files under this folder need the server ... */
  readonly folder: string;
  /**
   * ... and so does any test file whose text matches this: it reads the variable (`process.env.KAFKA_BOOTSTRAP`) or
   * imports the folder's helper (`../integration/kafka/broker.js`). A mere mention of the name does not count.
   */
  readonly marker: RegExp;
}

const HOST = '127.0.0.1';

export const SERVERS: readonly ServerDef[] = [
  {
    name: 'kafka',
    script: 'kafka.sh',
    // The client port and, at client port + 1, the KRaft controller port.
    portGroups: [2],
    tools: ['java'],
    scriptEnv: ([[port]]) => ({ KAFKA_PORT: String(port), KAFKA_READY_TIMEOUT: '240' }),
    testEnv: ([[port]]) => ({ KAFKA_BOOTSTRAP: `${HOST}:${port}`, KAFKA_PORT: String(port) }),
    folder: 'test/integration/kafka/',
    marker: /\.KAFKA_BOOTSTRAP\b|kafka\/broker\.js/,
  },
  {
    name: 'pravega',
    script: 'pravega.sh',
    // controller, segment store, ZooKeeper, and the REST and admin ports (disabled, but the emulator reads them).
    portGroups: [1, 1, 1, 1, 1],
    tools: ['java'],
    scriptEnv: ([[controller], [segmentStore], [zk], [rest], [admin]]) => ({
      PRAVEGA_CONTROLLER_PORT: String(controller),
      PRAVEGA_SEGMENTSTORE_PORT: String(segmentStore),
      PRAVEGA_ZK_PORT: String(zk),
      PRAVEGA_REST_PORT: String(rest),
      PRAVEGA_ADMIN_PORT: String(admin),
      PRAVEGA_START_TIMEOUT: '300',
    }),
    testEnv: ([[controller]]) => ({ PRAVEGA_CONTROLLER_URI: `tcp://${HOST}:${controller}` }),
    folder: 'test/integration/pravega/',
    marker: /\.PRAVEGA_CONTROLLER_URI\b|pravega\/pravega-env\.js/,
  },
  {
    name: 'schema-registry',
    script: 'schema-registry.sh',
    portGroups: [1],
    tools: ['java', 'curl'],
    scriptEnv: ([[port]]) => ({ SCHEMA_REGISTRY_PORT: String(port), SCHEMA_REGISTRY_READY_TIMEOUT: '240' }),
    testEnv: ([[port]]) => ({
      SCHEMA_REGISTRY_URL: `http://${HOST}:${port}/apis/ccompat/v7`,
      SCHEMA_REGISTRY_PORT: String(port),
    }),
    folder: 'test/integration/schema-registry/',
    marker: /\.SCHEMA_REGISTRY_URL\b|schema-registry\/registry\.js/,
  },
  {
    name: 'pravega-registry',
    script: 'pravega-registry.sh',
    portGroups: [1],
    tools: ['java', 'curl'],
    // Its own in-memory store: the registry's REST API is what the tests use, and it need not wait for Pravega.
    scriptEnv: ([[port]]) => ({ PRAVEGA_REGISTRY_PORT: String(port), PRAVEGA_REGISTRY_STORE: 'InMemory' }),
    testEnv: ([[port]]) => ({ PRAVEGA_REGISTRY_URI: `http://${HOST}:${port}` }),
    folder: 'test/integration/pravega-registry/',
    marker: /\.PRAVEGA_REGISTRY_URI\b|pravega-registry\/registry-env\.js/,
  },
  {
    name: 'flink',
    script: 'flink.sh',
    // SQL Gateway, JobManager REST, JobManager RPC, blob server, TaskManager RPC.
    portGroups: [1, 1, 1, 1, 1],
    tools: ['java', 'curl'],
    // Two slots and a 512m heap per JVM: enough for the example jobs, modest on a shared machine.
    scriptEnv: ([[gateway], [rest], [rpc], [blob], [tm]]) => ({
      FLINK_GATEWAY_PORT: String(gateway),
      FLINK_REST_PORT: String(rest),
      FLINK_RPC_PORT: String(rpc),
      FLINK_BLOB_PORT: String(blob),
      FLINK_TM_RPC_PORT: String(tm),
      FLINK_TM_SLOTS: '2',
      FLINK_HEAP: '512m',
      // C1 only: the endpoint suite's three JVMs took 109 CPU s with C2 compiling, 55 s without (its test time
      // 128 -> 103 s, load 6-7), CPU the other test files share on two cores. Small test jobs never repay C2.
      FLINK_JAVA_OPTS: '-XX:TieredStopAtLevel=1',
      FLINK_READY_TIMEOUT: '240',
    }),
    testEnv: ([[gateway], [rest]]) => ({
      FLINK_GATEWAY_URL: `http://${HOST}:${gateway}`,
      FLINK_REST_URL: `http://${HOST}:${rest}`,
      // flink.sh keeps each JVM's output under $SLUICE_RUN_DIR/flink-<gateway port>/.
      FLINK_TASKMANAGER_LOG: `${process.env.SLUICE_RUN_DIR ?? ''}/flink-${gateway}/taskmanager.log`,
    }),
    folder: 'test/integration/flink-gateway/',
    marker: /\.FLINK_GATEWAY_URL\b|flink-gateway\/gateway-env\.js/,
  },
];

/** Whether the test file at `relPath` (relative to the repository, with `/`) whose source is `text` needs `def`. */
export function needsServer(def: ServerDef, relPath: string, text: string): boolean {
  return relPath.startsWith(def.folder) || def.marker.test(text);
}
