import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { TableEnvironment } from '../api/table-environment.js';
import { FileCatalog } from '../catalog/file-catalog.js';
import { CheckpointingOptions } from '../config/options/checkpointing-options.js';
import type { JobClient, JobExecutionResult } from '../runtime/job-client.js';
import { parseCliArgs, USAGE, type CliCommand } from './args.js';
import { listConnectors } from './connectors-command.js';
import { processIO, type ConsoleIO } from './console-io.js';
import { formatError } from './error-format.js';
import { runScript, type RunOptions } from './file-runner.js';
import { showProgress } from './progress.js';
import { handleShutdownSignals, INTERRUPTED_EXIT_CODE } from './shutdown-signals.js';
import { StatementRunner } from './statement-runner.js';
import { startRepl } from './repl/repl.js';
import { VERSION } from './version.js';

/** The `sluice` command. Returns the process exit code: 0 only if every statement succeeded. */
export async function main(argv: readonly string[], io: ConsoleIO = processIO): Promise<number> {
  let command: CliCommand;
  try {
    command = parseCliArgs(argv);
  } catch (e) {
    io.err(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  switch (command.kind) {
    case 'help':
      io.out(USAGE);
      return 0;
    case 'version':
      io.out(`sluice ${VERSION}\n`);
      return 0;
    case 'connectors':
      return listConnectors(command.name, io);
    case 'run':
      break;
  }
  const config: Record<string, string> = { ...command.config };
  if (command.resume !== undefined) {
    try {
      config[CheckpointingOptions.SAVEPOINT_PATH.key] = await (await import('./resume.js')).newestCheckpoint(resolve(command.resume), (m) => io.err(`[WARNING] ${m}\n`));
    } catch (e) {
      io.err(formatError(e));
      return 1;
    }
  }
  // As Flink's SQL client: the default catalog lives in memory, so a run writes nothing unless told to;
  // --catalog-dir keeps its permanent objects as files in that directory between runs.
  const remote = command.endpoint !== undefined;
  const env = TableEnvironment.create({
    config,
    ...(remote ? { endpoint: command.endpoint } : {}),
    ...(command.web ? { web: {} } : {}),
    ...(command.catalogDir === undefined
      ? {}
      : { catalog: { name: 'default_catalog', catalog: new FileCatalog('default_catalog', resolve(command.catalogDir)) } }),
  });
  env.onWarning((m) => io.err(`[WARNING] ${m}\n`));
  const runner = new StatementRunner(env, io, command.output);
  try {
    if (command.web) {
      try {
        io.err(`[INFO] Dashboard, REST API and Prometheus metrics at ${await env.getWebUrl()}\n`);
      } catch (e) {
        io.err(formatError(e));
        return 1;
      }
    }
    if (command.file !== undefined || command.init !== undefined) {
      const path = (command.file ?? command.init)!;
      let script: string;
      try {
        script = await readFile(path, 'utf8');
      } catch (e) {
        io.err(`[ERROR] Could not read SQL file '${path}': ${readFailure(e)}.\n`);
        return 1;
      }
      if (remote) return await runOnCluster(env, runner, script, io, { file: path, output: command.output, initOnly: command.init !== undefined }, config, command.endpoint!);
      const ok = await runScript(runner, script, io, { file: path, output: command.output, initOnly: command.init !== undefined });
      if (!ok) {
        await cancelAll(runner.jobs);
        return 1;
      }
      if (command.init !== undefined) return await startRepl(env, runner, io);
      const code = await waitForJobs(runner.jobs, io);
      // An open dashboard asks every second: let it see how the jobs ended (a stop's savepoint) before the
      // server goes with the process.
      if (command.web && runner.jobs.length > 0) await new Promise((r) => setTimeout(r, DASHBOARD_LAST_LOOK_MS));
      return code;
    }
    return await startRepl(env, runner, io);
  } finally {
    await env.close();
  }
}

/**
 * `-e URL -f FILE` (or `-i`): every statement is first checked by Sluice in a throwaway shadow session (nothing
 * reaches the cluster if one fails), then they run on the cluster. As Flink's SQL client against a gateway,
 * the run ends once the last statement was submitted: INSERT jobs keep running on the cluster (SET
 * 'table.dml-sync' = 'true' waits for each). Ctrl-C cancels the statement being read and ends the run.
 */
async function runOnCluster(
  env: TableEnvironment,
  runner: StatementRunner,
  script: string,
  io: ConsoleIO,
  options: RunOptions,
  config: Record<string, string>,
  endpoint: string,
): Promise<number> {
  const checker = TableEnvironment.create({ config, endpoint });
  checker.onWarning(() => undefined);
  const signals = handleShutdownSignals(io, () => void runner.interrupt());
  try {
    const ok = await runScript(runner, script, io, { ...options, precheck: (stmt) => checker.validateForCluster(stmt), interrupted: () => signals.interrupted });
    if (signals.interrupted) return INTERRUPTED_EXIT_CODE;
    if (!ok) return 1;
  } finally {
    signals.dispose();
    await checker.close();
  }
  if (options.initOnly) return await startRepl(env, runner, io);
  return 0;
}

/**
 * At the end of a file, as Flink's client in embedded mode: bounded jobs run to their end; unbounded ones
 * run until SIGINT or SIGTERM, which cancels them (committed output stays committed). The process ends
 * within CANCEL_GRACE_MS of the signal even if a job cannot stop, and at once on a second signal.
 */
/** How long `sluice -f --web` keeps serving after its last job ended: a dashboard's poll interval and then some. */
const DASHBOARD_LAST_LOOK_MS = 1500;

async function waitForJobs(jobs: readonly JobClient[], io: ConsoleIO): Promise<number> {
  if (jobs.length === 0) return 0;
  const signals = handleShutdownSignals(io, () => void cancelAll(jobs));
  const stopProgress = showProgress(jobs, io);
  // How each job ended, by index; a failed one has none. The progress display closes with them.
  const results: (JobExecutionResult | undefined)[] = [];
  try {
    let failed = false;
    for (const job of jobs) {
      try {
        results.push(await job.waitForCompletion());
      } catch (e) {
        results.push(undefined);
        if (!signals.interrupted) {
          failed = true;
          io.err(`[ERROR] Job ${job.jobId} (${job.jobName}) failed.\n${formatError(e)}`);
        }
      }
    }
    return failed ? 1 : signals.interrupted ? INTERRUPTED_EXIT_CODE : 0;
  } finally {
    stopProgress(results);
    // Stopped from outside (the dashboard, the REST API): where the savepoint went, as `flink stop` says.
    results.forEach((r, i) => {
      if (r?.savepointPath !== undefined) io.err(`[INFO] Job ${jobs[i]!.jobId} stopped with a savepoint at ${r.savepointPath}\n`);
    });
    signals.dispose();
  }
}

async function cancelAll(jobs: readonly JobClient[]): Promise<void> {
  await Promise.all(jobs.map((j) => j.cancel().catch(() => undefined)));
}

/** Why a file could not be read, in words (Node's error codes are not a user's). */
function readFailure(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'there is no such file';
    case 'EISDIR':
      return 'it is a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return typeof code === 'string' ? `the system refused (${code})` : 'it could not be read';
  }
}
