// Where the Pravega Schema Registry under test is: the test setup (test/setup/servers.ts) starts it with
// `scripts/pravega-registry.sh start` on a free port and sets PRAVEGA_REGISTRY_URI.
import { randomUUID } from 'node:crypto';

import { serverAddress, serverMissing } from '../../setup/server-contract.js';

export const REGISTRY_URI = serverAddress('pravega-registry');

/**
 * True when PRAVEGA_REGISTRY_URI is set and the registry answers. Outside CI an unset variable skips the suite with
 * a message; in CI it is a failure, so a setup that forgot the registry can never pass silently. A set variable
 * with no registry behind it is a failure everywhere.
 */
export async function registryAvailable(): Promise<boolean> {
  if (REGISTRY_URI === undefined || REGISTRY_URI === '') return serverMissing('pravega-registry', 'Pravega Schema Registry tests');
  try {
    const res = await fetch(`${REGISTRY_URI.replace(/\/+$/, '')}/ping`, { signal: AbortSignal.timeout(3000) });
    if (res.ok) return true;
  } catch {
    // reported below
  }
  throw new Error(`PRAVEGA_REGISTRY_URI is ${REGISTRY_URI} but no Pravega Schema Registry answers there.`);
}

/** A group name no other test or earlier run uses (the registry keeps its groups in Pravega across runs). */
export function uniqueGroup(label: string): string {
  return `sluice${label}${randomUUID().slice(0, 8)}`;
}
