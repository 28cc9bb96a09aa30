import { connect } from 'node:net';

/** Controller URI of the Pravega that scripts/pravega.sh starts. */
export const CONTROLLER_URI = process.env.PRAVEGA_CONTROLLER_URI ?? 'tcp://127.0.0.1:9090';

/**
 * True when a controller listens. Outside CI a missing server skips the suite (run scripts/pravega.sh start);
 * in CI it is an error, so a broken setup can never pass silently.
 */
export async function pravegaAvailable(): Promise<boolean> {
  const m = /^tcp:\/\/([^:]+):(\d+)$/.exec(CONTROLLER_URI)!;
  const up = await new Promise<boolean>((resolve) => {
    const s = connect({ host: m[1]!, port: Number(m[2]) });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
  if (!up && process.env.CI) throw new Error(`Pravega is not reachable at ${CONTROLLER_URI}; run scripts/pravega.sh start before the tests`);
  return up;
}

export function uniqueName(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}
