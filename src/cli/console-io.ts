/** A key pressed while the REPL shows a live result (readline's keypress shape). */
export interface KeyPress {
  readonly name: string | undefined;
  readonly ctrl: boolean;
  /** The characters typed (`+`, `-`: keys readline gives no name). */
  readonly sequence?: string;
}

/** Where the CLI writes: stdout for results, stderr for status when results are machine-readable. */
export interface ConsoleIO {
  out(text: string): void;
  err(text: string): void;
  /** Whether stdout is a terminal. */
  readonly isTTY: boolean;
  /** Whether stderr is a terminal; undefined when not known (progress then stays off stderr). */
  readonly errIsTTY?: boolean;
  /** Terminal height, for paging a live table. */
  readonly rows?: number;
  /** Terminal width: a line redrawn in place never wraps, and a live table's lines are cut to it. */
  readonly columns?: number;
  /**
   * Calls `listener` for every key pressed until the returned function is called; absent when input is
   * not a terminal. The REPL's readline already turns stdin into keypress events.
   */
  onKeypress?(listener: (key: KeyPress) => void): () => void;
  /**
   * True while an `onKeypress` listener holds the keyboard (a full-screen result view): the REPL's line
   * editor then takes no keys, so a key meant for the view neither echoes nor becomes input.
   */
  readonly keyboardTaken?: boolean;
  /** Calls `listener` whenever the terminal is resized, until the returned function is called. */
  onResize?(listener: () => void): () => void;
}

/** How many `onKeypress` listeners of the process's stdin are active. */
let keyListeners = 0;

/**
 * Results go straight to the terminal: the REPL's prompt guard (prompt-guard.ts) replaces
 * `process.stdout.write` to manage output from elsewhere (a print sink), and a full-screen result view
 * must not be held back by it. Status and warnings (stderr) do go through the guard: a warning from a
 * job running in the background then keeps the prompt line whole, and waits while a view shows.
 */
const writeOut = process.stdout.write.bind(process.stdout);

export const processIO: ConsoleIO = {
  out: (t) => void writeOut(t),
  err: (t) => void process.stderr.write(t),
  isTTY: process.stdout.isTTY === true,
  errIsTTY: process.stderr.isTTY === true,
  get rows(): number | undefined {
    return process.stdout.rows;
  },
  get columns(): number | undefined {
    return process.stdout.columns;
  },
  onKeypress: process.stdin.isTTY
    ? (listener) => {
        const handler = (s: string | undefined, key: { name?: string; ctrl?: boolean; sequence?: string } | undefined): void =>
          listener({ name: key?.name, ctrl: key?.ctrl === true, sequence: key?.sequence ?? s ?? '' });
        process.stdin.on('keypress', handler);
        keyListeners++;
        let active = true;
        return () => {
          if (!active) return;
          active = false;
          keyListeners--;
          process.stdin.off('keypress', handler);
        };
      }
    : undefined,
  get keyboardTaken(): boolean {
    return keyListeners > 0;
  },
  onResize: process.stdout.isTTY
    ? (listener) => {
        process.stdout.on('resize', listener);
        return () => void process.stdout.off('resize', listener);
      }
    : undefined,
};
