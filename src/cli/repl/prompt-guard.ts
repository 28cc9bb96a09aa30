import type { Interface } from 'node:readline';

/** What the REPL is doing, as far as output from elsewhere is concerned. */
export type PromptState =
  /** Waiting for input: the prompt line is on screen. */
  | 'idle'
  /** Running a statement that prints as it goes (tableau rows): output from elsewhere goes along. */
  | 'running'
  /** A full-screen result view shows: output from elsewhere waits until it closes. */
  | 'viewing';

/** How much held output is kept while a view shows; the oldest goes first beyond it. */
const MAX_HELD_CHARS = 1 << 20;

/**
 * Keeps the prompt line whole while jobs print in the background (a print sink of an INSERT that runs
 * on, to stdout or stderr): output arriving while the REPL waits for input first clears the prompt
 * line, and the prompt with what was typed so far is drawn again once the burst is written. While a
 * full-screen result view shows, such output is held and written when the view closes (`flush`), so it
 * neither scribbles over the view nor vanishes with its screen. Results (ConsoleIO.out) and
 * readline's (`readlineOutput`) bypass the guard.
 */
export function guardPrompt(state: () => PromptState): {
  readonly readlineOutput: NodeJS.WriteStream;
  attach(rl: Interface): void;
  flush(): void;
  remove(): void;
} {
  const streams: NodeJS.WriteStream[] = [process.stdout, process.stderr].filter((s) => s.isTTY === true);
  const raws = new Map<NodeJS.WriteStream, (...args: unknown[]) => boolean>(streams.map((s) => [s, s.write.bind(s) as (...args: unknown[]) => boolean]));
  const stdoutRaw = process.stdout.write.bind(process.stdout) as (...args: unknown[]) => boolean;
  // Readline's own echo and redraws go straight to the terminal.
  const readlineOutput = Object.create(process.stdout, { write: { value: stdoutRaw } }) as NodeJS.WriteStream;
  let rl: Interface | undefined;
  let redraw: NodeJS.Immediate | undefined;
  const held: [NodeJS.WriteStream, string][] = [];
  let heldChars = 0;
  let dropped = 0;

  const guarded =
    (stream: NodeJS.WriteStream, raw: (...args: unknown[]) => boolean) =>
    (...args: unknown[]): boolean => {
      const now = rl === undefined ? 'running' : state();
      if (now === 'viewing') {
        const [chunk, encodingOrCallback, callback] = args;
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
        held.push([stream, text]);
        heldChars += text.length;
        while (heldChars > MAX_HELD_CHARS && held.length > 1) {
          const [, old] = held.shift()!;
          heldChars -= old.length;
          dropped += old.length;
        }
        const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
        if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
        return true;
      }
      flush();
      if (now === 'running') return raw(...args);
      if (redraw === undefined) stdoutRaw('\r\x1b[K');
      else clearImmediate(redraw);
      const ok = raw(...args);
      redraw = setImmediate(() => {
        redraw = undefined;
        rl?.prompt(true);
      });
      return ok;
    };

  /** Writes what was held while a view showed, in the order it came. */
  function flush(): void {
    if (held.length === 0) return;
    if (dropped > 0) stdoutRaw(`[WARNING] ${dropped} characters of output from running jobs were dropped while the result view showed.\n`);
    dropped = 0;
    for (const [stream, text] of held.splice(0)) raws.get(stream)?.(text);
    heldChars = 0;
  }

  return {
    readlineOutput,
    attach(r: Interface): void {
      rl = r;
      for (const [s, raw] of raws) s.write = guarded(s, raw) as typeof s.write;
    },
    flush,
    remove(): void {
      if (redraw !== undefined) clearImmediate(redraw);
      flush();
      rl = undefined;
      for (const [s, raw] of raws) s.write = raw as typeof s.write;
    },
  };
}
