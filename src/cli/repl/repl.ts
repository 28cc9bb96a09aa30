import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { TableEnvironment } from '../../api/table-environment.js';
import { parseSplitStatement } from '../../sql/parse.js';
import { SourceText } from '../../sql/source-text.js';
import { splitStatements } from '../../sql/split-statements.js';
import type { ConsoleIO } from '../console-io.js';
import { formatError } from '../error-format.js';
import type { StatementRunner } from '../statement-runner.js';
import { complete } from './completer.js';
import { HELP_TEXT } from './help-text.js';
import { installHistorySearch } from './history-search.js';
import { installKeyGate } from './key-gate.js';
import { guardPrompt } from './prompt-guard.js';

const PROMPT = 'Sluice SQL> ';
const CONTINUATION = '> ';
const HISTORY_LIMIT = 1000;

/** `~/.sluice/history`, or `SLUICE_HISTORY_FILE`. */
function historyFile(): string {
  return process.env['SLUICE_HISTORY_FILE'] ?? join(homedir(), '.sluice', 'history');
}

/**
 * The interactive SQL client: reads until a statement ends with `;`, runs it, prints the result in the
 * session's result mode, and keeps going after errors with the session intact. Ctrl-C stops a running
 * query (or clears the input); Ctrl-D or QUIT leaves. Resolves with the exit code.
 */
export async function startRepl(env: TableEnvironment, runner: StatementRunner, io: ConsoleIO): Promise<number> {
  runner.interactive = true;
  const history = await loadHistory();
  let running = false;
  const tty = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const guard = tty ? guardPrompt(() => (!running ? 'idle' : io.keyboardTaken === true ? 'viewing' : 'running')) : undefined;
  const rl = createInterface({
    input: process.stdin,
    output: guard?.readlineOutput ?? process.stdout,
    terminal: process.stdin.isTTY === true,
    history,
    historySize: HISTORY_LIMIT,
    removeHistoryDuplicates: true,
    completer: (line: string, callback: (err: Error | null, result: [string[], string]) => void) => {
      complete(env, buffer, line).then(
        (r) => callback(null, r),
        () => callback(null, [[], line]),
      );
    },
  });
  let buffer = '';
  guard?.attach(rl);
  if (process.stdin.isTTY === true) {
    installHistorySearch(rl, () => (buffer === '' ? PROMPT : CONTINUATION));
    // Outermost, so that no key reaches the search or the line while a result view has the keyboard.
    installKeyGate(rl, () => io.keyboardTaken === true);
  }
  io.out(`Welcome to Sluice, Flink SQL for Node.js. Type HELP; for the commands, QUIT; to leave.\n\n`);
  rl.setPrompt(PROMPT);
  rl.prompt();

  rl.on('SIGINT', () => {
    if (running) {
      void runner.interrupt();
      io.out('\n[INFO] Query cancelled.\n');
      return;
    }
    buffer = '';
    // Clear what readline holds of the current line too, as a shell does on Ctrl-C.
    rl.write(null, { ctrl: true, name: 'e' });
    rl.write(null, { ctrl: true, name: 'u' });
    io.out('^C\n');
    rl.setPrompt(PROMPT);
    rl.prompt();
  });

  return new Promise<number>((resolve) => {
    let quitting = false;
    let inputClosed = false;
    const queue: string[] = [];
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      guard?.remove();
      io.out('\nShutting down the session...\ndone.\n');
      resolve(0);
    };
    /** Runs `text`, its statements one by one; true if one asked to quit. */
    const run = async (text: string): Promise<boolean> => {
      running = true;
      try {
        return await runText(runner, text, io);
      } finally {
        running = false;
      }
    };
    const pump = async (): Promise<void> => {
      if (running) return;
      while (queue.length > 0 && !quitting) {
        const line = queue.shift()!;
        buffer += (buffer ? '\n' : '') + line;
        if (!isComplete(buffer)) {
          rl.setPrompt(CONTINUATION);
          continue;
        }
        const text = buffer;
        buffer = '';
        const entry = historyEntry(text);
        collapseHistory(rl, text, entry);
        void appendFile(historyFile(), entry + '\n').catch(() => undefined);
        quitting = await run(text);
        // What running jobs printed while a result view showed, before the prompt comes back.
        guard?.flush();
        rl.setPrompt(PROMPT);
      }
      if (quitting) {
        rl.close();
        finish();
        return;
      }
      // Input piped in may end before its statements have run; finish them first. An unfinished statement left at
      // the end (an unterminated comment or string) is run, so that its error shows instead of nothing.
      if (inputClosed) {
        if (buffer.trim() !== '') {
          const text = buffer;
          buffer = '';
          await run(text);
        }
        finish();
        return;
      }
      rl.prompt();
    };
    rl.on('line', (line) => {
      queue.push(line);
      void pump();
    });
    rl.on('close', () => {
      inputClosed = true;
      if (quitting) finish();
      else if (!running) void pump();
    });
  });
}

/** A statement as one history line: its lines joined by spaces, so Up recalls it whole. */
function historyEntry(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join(' ');
}

/**
 * Readline keeps each line of a multi-line statement as its own history entry; replace them with the
 * one entry of the whole statement, so Up recalls the statement, not its last line.
 */
function collapseHistory(rl: Interface, text: string, entry: string): void {
  const history = (rl as unknown as { history?: string[] }).history;
  if (!Array.isArray(history)) return;
  const lines = text.split('\n');
  if (lines.length < 2) return;
  for (let k = lines.length - 1; k >= 0; k--) {
    const line = lines[k]!;
    if (line.trim() === '') continue;
    if (history[0] === line) history.shift();
  }
  const dup = history.indexOf(entry);
  if (dup >= 0) history.splice(dup, 1);
  history.unshift(entry);
}

/**
 * True when `text` holds whole statements: its last statement ends at a `;` outside strings, comments and
 * BEGIN...END blocks (`SELECT --;` goes on: that `;` is in a comment).
 */
function isComplete(text: string): boolean {
  if (!/;\s*$/.test(text)) return false;
  try {
    const parts = splitStatements(new SourceText(text));
    const last = parts[parts.length - 1];
    return last !== undefined && text.slice(last.end).trimStart().startsWith(';');
  } catch {
    return false;
  }
}

/** Runs every statement in `text`; true if one of them asked to quit. */
async function runText(runner: StatementRunner, text: string, io: ConsoleIO): Promise<boolean> {
  const source = new SourceText(text);
  let parts;
  try {
    parts = splitStatements(source);
  } catch (e) {
    io.out(formatError(e));
    return false;
  }
  for (const part of parts) {
    try {
      const stmt = parseSplitStatement(source, part);
      const outcome = await runner.run(stmt, part.text);
      if (outcome === 'quit') return true;
      if (outcome === 'help') io.out(HELP_TEXT);
      if (outcome === 'clear') io.out('\x1b[2J\x1b[H');
    } catch (e) {
      io.out(formatError(e, undefined, source));
      return false;
    }
  }
  return false;
}

async function loadHistory(): Promise<string[]> {
  try {
    const lines = (await readFile(historyFile(), 'utf8')).split('\n').filter((l) => l.trim() !== '');
    return lines.slice(-HISTORY_LIMIT).reverse();
  } catch {
    await mkdir(dirname(historyFile()), { recursive: true }).catch(() => undefined);
    return [];
  }
}
