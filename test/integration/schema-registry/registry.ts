// Shared by the schema-registry integration tests: where the registry is and whether it runs.
// The registry is started by the test setup (test/setup/servers.ts) on a port of this run's own and named in
// SCHEMA_REGISTRY_URL; there is no default, so a registry someone else runs on 8081 is never used.
import { randomUUID } from 'node:crypto';
import { serverAddress, serverMissing } from '../../setup/server-contract.js';

const address = serverAddress('schema-registry');
/** Confluent-API base URL of this run's registry; empty when there is none (registryAvailable() is false then). */
export const REGISTRY_URL = address ?? '';

/**
 * True when this run has a registry. Without one (no java, say) the caller skips its suite and we say why; in CI
 * that is a failure, never a silent skip. A registry that was named but does not answer is always a failure.
 */
export async function registryAvailable(): Promise<boolean> {
  if (!address) return serverMissing('schema-registry', 'schema-registry integration tests');
  try {
    const res = await fetch(`${REGISTRY_URL}/subjects`, { signal: AbortSignal.timeout(3000) });
    if (res.ok) return true;
  } catch {
    // fall through
  }
  throw new Error(`Schema registry not reachable at SCHEMA_REGISTRY_URL=${REGISTRY_URL}`);
}

/** A subject no other test (or earlier run: the registry may live across runs) uses. */
export function uniqueSubject(label: string): string {
  return `sluice-test-${label}-${randomUUID().slice(0, 8)}`;
}

/** Registers `schema` under `subject` with plain fetch (not the client under test) and returns its id. */
export async function registerSchema(subject: string, schema: object): Promise<number> {
  const res = await fetch(`${REGISTRY_URL}/subjects/${encodeURIComponent(subject)}/versions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify({ schema: JSON.stringify(schema) }),
  });
  if (!res.ok) throw new Error(`register under ${subject}: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: number }).id;
}

/** The schema texts registered under `subject`, oldest first. */
export async function subjectSchemas(subject: string): Promise<string[]> {
  const versions = (await (await fetch(`${REGISTRY_URL}/subjects/${encodeURIComponent(subject)}/versions`)).json()) as number[];
  const out: string[] = [];
  for (const v of versions) {
    const res = await fetch(`${REGISTRY_URL}/subjects/${encodeURIComponent(subject)}/versions/${v}`);
    out.push(((await res.json()) as { schema: string }).schema);
  }
  return out;
}
