import { connect } from 'node:net';
import { join } from 'node:path';
import { serverAddress, serverMissing } from '../../setup/server-contract.js';

const address = serverAddress('pravega');
/**
 * Controller URI of this run's Pravega, started by the test setup (test/setup/servers.ts) on ports of the run's own;
 * empty when there is none (pravegaAvailable() is false then, or throws in CI). No default port: a Pravega someone
 * else runs on 9090 is never used.
 */
export const CONTROLLER_URI = address ?? '';

/** The jars scripts/pravega.sh fetched (they include the Java client), in the cache the setup gave the scripts. */
export const PRAVEGA_LIB = join(process.env.SLUICE_CACHE ?? join(import.meta.dirname, '..', '..', '..', '.cache'), 'pravega', 'lib');

/**
 * True when this run has a Pravega. Without one (no java, say) the suite skips and says why; in CI that is an error,
 * so a broken setup can never pass silently. A controller that was named but does not listen is always an error.
 */
export async function pravegaAvailable(): Promise<boolean> {
  if (!address) return serverMissing('pravega', 'Pravega integration tests');
  const m = /^tcp:\/\/([^:]+):(\d+)$/.exec(CONTROLLER_URI);
  if (!m) throw new Error(`PRAVEGA_CONTROLLER_URI must look like tcp://host:port, not ${CONTROLLER_URI}`);
  const up = await new Promise<boolean>((resolve) => {
    const s = connect({ host: m[1]!, port: Number(m[2]) });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
  if (!up) throw new Error(`Pravega is not reachable at PRAVEGA_CONTROLLER_URI=${CONTROLLER_URI}`);
  return true;
}

export function uniqueName(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}
