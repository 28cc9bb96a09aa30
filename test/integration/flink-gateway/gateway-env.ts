// Shared by the Flink gateway tests: where this run's Flink cluster and SQL Gateway are (started by
// test/setup/servers.ts on ports of the run's own, named in FLINK_GATEWAY_URL), and the CLI runner.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serverAddress, serverMissing } from '../../setup/server-contract.js';

export const GATEWAY_URL = serverAddress('flink') ?? '';
export const REST_URL = process.env.FLINK_REST_URL ?? '';
export const TASKMANAGER_LOG = process.env.FLINK_TASKMANAGER_LOG ?? '';
export const CLI = fileURLToPath(new URL('../../../dist/bundle/bin.js', import.meta.url));

/** True when this run has a cluster and a built CLI; otherwise the suite skips (CI: fails) and says why. */
export function gatewayAvailable(): boolean {
  if (!GATEWAY_URL) return serverMissing('flink', 'Flink SQL Gateway tests');
  if (!existsSync(CLI)) {
    if (process.env.CI) throw new Error(`${CLI} is missing; CI must run 'npm run build' before the tests.`);
    console.warn(`SKIPPING Flink SQL Gateway tests: ${CLI} is missing (run 'npm run build').`);
    return false;
  }
  return true;
}

export interface CliRun {
  readonly code: number | string;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `sluice <args>` from `cwd`. `interruptWhen`: sends SIGINT once stdout matches it (a running query
 * printed rows). Killed after `timeoutMs`.
 */
export async function runCli(args: readonly string[], options: { cwd?: string; interruptWhen?: RegExp; timeoutMs?: number } = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let interrupted = false;
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (options.interruptWhen && !interrupted && options.interruptWhen.test(stdout)) {
      interrupted = true;
      child.kill('SIGINT');
    }
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 150_000);
  const code = await new Promise<number | string>((resolve) => child.once('exit', (c, s) => resolve(c ?? s ?? -1)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** The JobManager's view of the cluster's jobs (id and status). */
export async function clusterJobs(): Promise<{ id: string; status: string }[]> {
  const r = await fetch(`${REST_URL}/jobs`);
  return ((await r.json()) as { jobs: { id: string; status: string }[] }).jobs;
}
