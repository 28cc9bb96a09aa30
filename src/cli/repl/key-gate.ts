import type { Interface } from 'node:readline';

/** The one method of readline's Interface this module wraps; internal to Node but stable since Node 10. */
interface TtyInterface {
  _ttyWrite(s: string | undefined, key: unknown): void;
}

/**
 * Keeps keys from readline's line editor while `closed()` holds (a full-screen result view has the
 * keyboard): otherwise each key pressed to page or select would echo over the view, Up would walk the
 * history and Enter would queue the typed letters as a statement to run afterwards.
 */
export function installKeyGate(rl: Interface, closed: () => boolean): void {
  const tty = rl as unknown as TtyInterface;
  if (typeof tty._ttyWrite !== 'function') return;
  const original = tty._ttyWrite.bind(rl);
  tty._ttyWrite = (s, key) => {
    if (!closed()) original(s, key);
  };
}
