import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePortGroups } from '../../setup/free-ports.js';
import { PRAVEGA_LIB } from './pravega-env.js';

/**
 * The secured Pravega of `PRAVEGA_SECURE=1 scripts/pravega.sh`: TLS on controller and segment store, auth with the
 * password handler. It runs on free ports of this test file's own (never the script's defaults, which another run
 * may use) with its folder, certificates included, in the run's folder the test setup made (SLUICE_RUN_DIR).
 */
const root = join(import.meta.dirname, '..', '..', '..');
const script = join(root, 'scripts', 'pravega.sh');
const run = promisify(execFile);
const runDir = process.env.SLUICE_RUN_DIR;
const [[controller], [segmentStore], [zk], [rest], [admin]] = await freePortGroups([1, 1, 1, 1, 1]);
const env = {
  ...process.env,
  PRAVEGA_SECURE: '1',
  PRAVEGA_CONTROLLER_PORT: String(controller),
  PRAVEGA_SEGMENTSTORE_PORT: String(segmentStore),
  PRAVEGA_ZK_PORT: String(zk),
  PRAVEGA_REST_PORT: String(rest),
  PRAVEGA_ADMIN_PORT: String(admin),
  PRAVEGA_START_TIMEOUT: '300',
};

export const SECURE_CONTROLLER_URI = `tls://127.0.0.1:${controller}`;
/** Where scripts/pravega.sh writes the instance's CA (its run folder is pravega-secure-<controller port>). */
export const SECURE_CA_FILE = join(runDir ?? '', `pravega-secure-${controller}`, 'tls', 'ca.pem');
export const SECURE_BASIC_TOKEN = Buffer.from('admin:1111_aaaa').toString('base64');

/** The setup's run folder and the jars scripts/pravega.sh fetched; without them starting would download (skip instead). */
export function secureStartPossible(): boolean {
  return runDir !== undefined && existsSync(join(PRAVEGA_LIB, '.complete'));
}

/** Starts the secured instance on this file's ports. */
export async function startSecurePravega(): Promise<void> {
  await run(script, ['start'], { env, timeout: 330_000 });
}

export async function stopSecurePravega(): Promise<void> {
  await run(script, ['stop'], { env, timeout: 60_000 });
}
