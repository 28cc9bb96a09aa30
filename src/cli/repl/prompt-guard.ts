import type { Interface } from 'node:readline';

/**
 * Keeps the prompt line whole while jobs print in the background (a print sink of an INSERT that runs
 * on, a warning): output arriving while the REPL waits for input first clears the prompt line, and the
 * prompt with what was typed so far is drawn again once the burst is written. Readline writes through
 * `readlineOutput()`, which bypasses the guard. Returns the function that removes it.
 */
export function guardPrompt(isIdle: () => boolean): { readonly readlineOutput: NodeJS.WriteStream; attach(rl: Interface): void; remove(): void } {
  const stdout = process.stdout;
  const raw = stdout.write.bind(stdout) as (...args: unknown[]) => boolean;
  // Readline's own echo and redraws go straight to the terminal.
  const readlineOutput = Object.create(stdout, { write: { value: raw } }) as NodeJS.WriteStream;
  let rl: Interface | undefined;
  let redraw: NodeJS.Immediate | undefined;
  const guarded = (...args: unknown[]): boolean => {
    if (rl === undefined || !isIdle()) return raw(...args);
    if (redraw === undefined) raw('\r\x1b[K');
    else clearImmediate(redraw);
    const ok = raw(...args);
    redraw = setImmediate(() => {
      redraw = undefined;
      rl?.prompt(true);
    });
    return ok;
  };
  return {
    readlineOutput,
    attach(r: Interface): void {
      rl = r;
      stdout.write = guarded as typeof stdout.write;
    },
    remove(): void {
      if (redraw !== undefined) clearImmediate(redraw);
      rl = undefined;
      stdout.write = raw as typeof stdout.write;
    },
  };
}
