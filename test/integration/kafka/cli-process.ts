// Runs the built `sluice` CLI (dist/bundle/bin.js) as a child process for the Kafka end-to-end tests.
// The CLI must be built (`npm run build`; `npm test` does it). Without dist/ the CI run fails, a local
// run skips with a message, as for a missing broker.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../../dist/bundle/bin.js', import.meta.url));

export function cliAvailable(): boolean {
  if (existsSync(CLI)) return true;
  if (process.env.CI) throw new Error(`${CLI} is missing; CI must run 'npm run build' before the tests.`);
  console.warn(`SKIPPING Kafka CLI tests: ${CLI} is missing (run 'npm run build').`);
  return false;
}

/** A running CLI process with its output so far. */
export interface CliRun {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  /** Resolves with the exit code (or the signal name) when the process has ended. */
  readonly exited: Promise<number | string>;
  /** Resolves when the CLI printed the id of the job it submitted. */
  readonly submitted: Promise<void>;
}

export function startCli(args: readonly string[], cwd: string): CliRun {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let markSubmitted: () => void = () => {};
  const submitted = new Promise<void>((resolve) => {
    markSubmitted = resolve;
  });
  const run: CliRun = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1))),
    submitted,
  };
  child.stdout?.on('data', (d: Buffer) => {
    run.stdout += d.toString();
    if (run.stdout.includes('Job ID:')) markSubmitted();
  });
  child.stderr?.on('data', (d: Buffer) => {
    run.stderr += d.toString();
  });
  void run.exited.then(() => markSubmitted());
  return run;
}

/** Runs the CLI to its end; rejects after `timeoutMs` (killing it). */
export async function runCli(args: readonly string[], cwd: string, timeoutMs = 60_000): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const run = startCli(args, cwd);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  const code = await run.exited;
  clearTimeout(timer);
  return { code, stdout: run.stdout, stderr: run.stderr };
}
