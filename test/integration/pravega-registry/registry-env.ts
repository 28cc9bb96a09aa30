// Where the Pravega Schema Registry under test is. It is started by `scripts/pravega-registry.sh start` (after
// `scripts/pravega.sh start`), which prints the URL to put in PRAVEGA_REGISTRY_URI; tests never start it.
import { randomUUID } from 'node:crypto';

export const REGISTRY_URI = process.env.PRAVEGA_REGISTRY_URI;

/**
 * True when PRAVEGA_REGISTRY_URI is set and the registry answers. Outside CI an unset variable skips the suite with
 * a message; in CI it is a failure, so a setup that forgot the registry can never pass silently. A set variable
 * with no registry behind it is a failure everywhere.
 */
export async function registryAvailable(): Promise<boolean> {
  if (REGISTRY_URI === undefined || REGISTRY_URI === '') {
    if (process.env.CI) {
      throw new Error("PRAVEGA_REGISTRY_URI is not set; CI must run 'scripts/pravega-registry.sh start' and export the URL it prints.");
    }
    console.warn(
      "SKIPPING Pravega Schema Registry tests: PRAVEGA_REGISTRY_URI is not set (run 'scripts/pravega.sh start', then " +
        "'scripts/pravega-registry.sh start', and set PRAVEGA_REGISTRY_URI to the URL it prints).",
    );
    return false;
  }
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
