import type { Interface } from 'node:readline';

/** The key shape readline passes to its key handler. */
interface Key {
  readonly name?: string;
  readonly ctrl?: boolean;
  readonly meta?: boolean;
  readonly sequence?: string;
}

/** The parts of readline's Interface this module drives; internal to Node but stable since Node 10. */
interface TtyInterface {
  _ttyWrite(s: string | undefined, key: Key | undefined): void;
  _refreshLine(): void;
  readonly history: string[];
  line: string;
  cursor: number;
}

/** What the search shows, as bash does: `(reverse-i-search)'sel': SELECT 1;`. */
function searchPrompt(query: string, found: boolean): string {
  return `(${found ? '' : 'failed '}reverse-i-search)'${query}': `;
}

/**
 * Ctrl-R searches the history backwards, as in bash: typing narrows the search, Ctrl-R again finds the
 * next older entry holding the text, Enter runs the entry found, any other key (arrows, Escape, Tab)
 * keeps it on the line for editing, and Ctrl-G or Ctrl-C gives the line back as it was. Readline has no
 * search of its own, so this wraps its key handler; `restorePrompt` is the prompt to show afterwards.
 */
export function installHistorySearch(rl: Interface, restorePrompt: () => string): void {
  const tty = rl as unknown as TtyInterface;
  if (typeof tty._ttyWrite !== 'function') return;
  const original = tty._ttyWrite.bind(rl);
  let search: { query: string; index: number; savedLine: string; savedCursor: number } | null = null;

  /** The newest entry at or after `from` (0 is the newest) containing the query. */
  const find = (query: string, from: number): number => {
    for (let i = from; i < tty.history.length; i++) if (tty.history[i]!.includes(query)) return i;
    return -1;
  };
  const render = (found: boolean): void => {
    if (search === null) return;
    const entry = search.index >= 0 ? tty.history[search.index]! : '';
    rl.setPrompt(searchPrompt(search.query, found));
    tty.line = entry;
    tty.cursor = Math.max(0, entry.indexOf(search.query));
    tty._refreshLine();
  };
  const leave = (keepLine: boolean): void => {
    if (search === null) return;
    if (!keepLine) {
      tty.line = search.savedLine;
      tty.cursor = search.savedCursor;
    } else {
      tty.cursor = tty.line.length;
    }
    search = null;
    rl.setPrompt(restorePrompt());
    tty._refreshLine();
  };

  tty._ttyWrite = (s: string | undefined, key: Key | undefined): void => {
    const k = key ?? {};
    if (k.ctrl === true && k.name === 'r') {
      if (search === null) {
        search = { query: '', index: -1, savedLine: tty.line, savedCursor: tty.cursor };
        render(true);
      } else {
        const next = find(search.query, search.index + 1);
        if (next >= 0) search.index = next;
        render(next >= 0);
      }
      return;
    }
    if (search === null) {
      original(s, key);
      return;
    }
    if (k.ctrl === true && (k.name === 'g' || k.name === 'c')) {
      leave(false);
      return;
    }
    if (k.name === 'return' || k.name === 'enter') {
      leave(true);
      original(s, key);
      return;
    }
    if (k.name === 'backspace') {
      search.query = search.query.slice(0, -1);
      const at = search.query === '' ? -1 : find(search.query, 0);
      search.index = at;
      render(at >= 0 || search.query === '');
      return;
    }
    if (s !== undefined && s.length > 0 && k.ctrl !== true && k.meta !== true && !/[\x00-\x1f\x7f]/.test(s)) {
      search.query += s;
      const at = find(search.query, Math.max(0, search.index));
      if (at >= 0) search.index = at;
      render(at >= 0);
      return;
    }
    // Any other key keeps the entry found on the line and then does what it always does.
    leave(true);
    if (k.name !== 'escape') original(s, key);
  };
}
