/** Where the CLI writes: stdout for results, stderr for status when results are machine-readable. */
export interface ConsoleIO {
  out(text: string): void;
  err(text: string): void;
  readonly isTTY: boolean;
}

export const processIO: ConsoleIO = {
  out: (t) => void process.stdout.write(t),
  err: (t) => void process.stderr.write(t),
  isTTY: process.stdout.isTTY === true,
};
