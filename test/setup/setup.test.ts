import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePortGroups } from './free-ports.js';
import { serverAddress } from './server-contract.js';
import { needsServer, SERVERS } from './server-defs.js';

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen({ host: '127.0.0.1', port, exclusive: true }, () => s.close(() => resolve(true)));
  });
}

describe('free ports for the test servers', () => {
  it('gives groups of consecutive ports, none shared, all free once returned', async () => {
    const groups = await freePortGroups([2, 1, 1, 1, 1, 1, 1]);
    expect(groups.map((g) => g.length)).toEqual([2, 1, 1, 1, 1, 1, 1]);
    expect(groups[0]![1]).toBe(groups[0]![0]! + 1);
    const all = groups.flat();
    expect(new Set(all).size).toBe(all.length);
    for (const p of all) expect(await bindable(p)).toBe(true);
  });

  it('never picks a port that is in use', async () => {
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen({ host: '127.0.0.1', port: 0 }, () => r()));
    const taken = (busy.address() as net.AddressInfo).port;
    try {
      const groups = await freePortGroups(Array.from({ length: 50 }, () => 1));
      expect(groups.flat()).not.toContain(taken);
    } finally {
      busy.close();
    }
  });
});

describe('server addresses the tests read', () => {
  it('has no default: without the variables there is no address, so nothing on 9092/9090/8081 is used', () => {
    expect(serverAddress('kafka', {})).toBeUndefined();
    expect(serverAddress('pravega', {})).toBeUndefined();
    expect(serverAddress('schema-registry', {})).toBeUndefined();
  });

  it('takes the contract variables, and the port-only forms', () => {
    expect(serverAddress('kafka', { KAFKA_BOOTSTRAP: '127.0.0.1:40001' })).toBe('127.0.0.1:40001');
    expect(serverAddress('kafka', { KAFKA_PORT: '40002' })).toBe('127.0.0.1:40002');
    expect(serverAddress('pravega', { PRAVEGA_CONTROLLER_URI: 'tcp://127.0.0.1:40003' })).toBe('tcp://127.0.0.1:40003');
    expect(serverAddress('schema-registry', { SCHEMA_REGISTRY_PORT: '40004' })).toBe('http://127.0.0.1:40004/apis/ccompat/v7');
  });
});

describe('which test files need which server', () => {
  const needs = (path: string, text = ''): string[] => SERVERS.filter((d) => needsServer(d, path, text)).map((d) => d.name);
  // Built from pieces: written out whole, the texts would make the setup start servers for this very file.
  const importOf = (folder: string, helper: string): string => `import { x } from '../${folder}/${helper}.js';`;
  const envRead = (name: string): string => `const v = process.env.${name};`;

  it('the integration folders need their server; the registry tests that import the broker helper need Kafka too', () => {
    expect(needs('test/integration/kafka/x.test.ts')).toEqual(['kafka']);
    expect(needs('test/integration/pravega/x.test.ts')).toEqual(['pravega']);
    expect(needs('test/integration/pravega-registry/x.test.ts')).toEqual(['pravega-registry']);
    expect(needs('test/integration/schema-registry/x.test.ts', importOf('kafka', 'broker'))).toEqual(['kafka', 'schema-registry']);
  });

  it('a test elsewhere needs a server when it imports the helper or reads the variable, not when it only names it', () => {
    expect(needs('test/e2e/x.test.ts', importOf('integration/kafka', 'broker'))).toEqual(['kafka']);
    expect(needs('test/e2e/x.test.ts', importOf('integration/schema-registry', 'registry'))).toEqual(['schema-registry']);
    expect(needs('test/e2e/x.test.ts', envRead('PRAVEGA_CONTROLLER_URI'))).toEqual(['pravega']);
    expect(needs('test/e2e/x.test.ts', importOf('integration/pravega-registry', 'registry-env'))).toEqual(['pravega-registry']);
    expect(needs('test/e2e/x.test.ts', envRead('KAFKA_BOOTSTRAP'))).toEqual(['kafka']);
    expect(needs('test/setup/x.test.ts', "expect(serverAddress('kafka', { KAFKA_BOOTSTRAP: 'h:1' }))")).toEqual([]);
    expect(needs('test/sql/x.test.ts', "'properties.bootstrap.servers' = 'localhost:9092'")).toEqual([]);
  });
});
