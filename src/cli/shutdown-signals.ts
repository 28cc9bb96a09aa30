import type { ConsoleIO } from './console-io.js';

/** How long the first SIGINT / SIGTERM waits for the jobs to stop before the process ends anyway. */
export const CANCEL_GRACE_MS = 10_000;

/** Exit code of a run ended by SIGINT or SIGTERM, clean or forced (128 + SIGINT, as shells report Ctrl-C). */
export const INTERRUPTED_EXIT_CODE = 130;

export interface ShutdownSignals {
  /** True once a signal arrived. */
  readonly interrupted: boolean;
  /** Removes the handlers. A grace timer already armed stays armed, so a hang after the jobs ended is bounded too. */
  dispose(): void;
}

export interface ShutdownOptions {
  readonly graceMs?: number;
  /** Ends the process (tests replace it). */
  readonly exit?: (code: number) => void;
}

/**
 * While jobs run: the first SIGINT or SIGTERM calls `cancel` and arms a timer that ends the process after
 * `graceMs` if the jobs have not stopped by then (a connector call stuck on an unreachable server must not keep
 * the process alive); a second signal ends it at once. Either way the user is told why.
 */
export function handleShutdownSignals(io: ConsoleIO, cancel: () => void, options: ShutdownOptions = {}): ShutdownSignals {
  const graceMs = options.graceMs ?? CANCEL_GRACE_MS;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupted) {
      io.err(`[ERROR] ${signal} again: exiting without waiting for the jobs to stop.\n`);
      exit(INTERRUPTED_EXIT_CODE);
      return;
    }
    interrupted = true;
    io.err(`\n[INFO] Cancelling the running jobs... (${signal} again to exit at once)\n`);
    const timer = setTimeout(() => {
      io.err(`[ERROR] The jobs did not stop within ${Math.round(graceMs / 1000)} s after ${signal}; exiting anyway (a connector call may be hanging).\n`);
      exit(INTERRUPTED_EXIT_CODE);
    }, graceMs);
    // Never the reason the process stays alive; it only bounds how long something else can.
    timer.unref();
    cancel();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    get interrupted() {
      return interrupted;
    },
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
