// Shared by the schema-registry integration tests: where the registry is and whether it runs.
// The registry is started by `scripts/schema-registry.sh start` (CI does it); tests never start it themselves.
import { randomUUID } from 'node:crypto';

export const REGISTRY_URL =
  process.env.SCHEMA_REGISTRY_URL ?? `http://127.0.0.1:${process.env.SCHEMA_REGISTRY_PORT ?? '8081'}/apis/ccompat/v7`;

/**
 * True when the registry answers. In CI a missing registry is a failure, never a silent skip; locally the
 * caller skips its suite and we say why.
 */
export async function registryAvailable(): Promise<boolean> {
  try {
    const res = await fetch(`${REGISTRY_URL}/subjects`, { signal: AbortSignal.timeout(3000) });
    if (res.ok) return true;
  } catch {
    // fall through
  }
  if (process.env.CI) {
    throw new Error(`Schema registry not reachable at ${REGISTRY_URL}; CI must run 'scripts/schema-registry.sh start' before the tests.`);
  }
  console.warn(`SKIPPING schema-registry integration tests: no registry at ${REGISTRY_URL} (run 'scripts/schema-registry.sh start').`);
  return false;
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
