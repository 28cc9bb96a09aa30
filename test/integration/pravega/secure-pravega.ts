import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The secured Pravega of `PRAVEGA_SECURE=1 scripts/pravega.sh`: TLS on controller and segment store, auth with the
 * password handler. Its ports and credentials are the script's defaults.
 */
const root = join(import.meta.dirname, '..', '..', '..');
const script = join(root, 'scripts', 'pravega.sh');
const run = promisify(execFile);
const env = { ...process.env, PRAVEGA_SECURE: '1' };

export const SECURE_CONTROLLER_URI = 'tls://127.0.0.1:9190';
export const SECURE_CA_FILE = join(root, '.cache', 'pravega', 'run-secure', 'tls', 'ca.pem');
export const SECURE_BASIC_TOKEN = Buffer.from('admin:1111_aaaa').toString('base64');

/** The jars scripts/pravega.sh fetched for the plain instance; without them starting would download (skip instead). */
export function secureStartPossible(): boolean {
  return existsSync(join(root, '.cache', 'pravega', 'lib', '.complete'));
}

/** Starts the secured instance unless it already runs; resolves true when this call started it (and should stop it). */
export async function startSecurePravega(): Promise<boolean> {
  const running = await run(script, ['status'], { env }).then(
    (r) => r.stdout.includes('ready'),
    () => false,
  );
  if (running) return false;
  await run(script, ['start'], { env, timeout: 240_000 });
  return true;
}

export async function stopSecurePravega(): Promise<void> {
  await run(script, ['stop'], { env, timeout: 60_000 });
}
