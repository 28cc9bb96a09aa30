#!/usr/bin/env node
import { formatError } from './error-format.js';
import { main } from './main.js';

main(process.argv.slice(2)).then(
  (code) => {
    // Connectors may keep sockets open after their jobs ended; the command is done, so leave once
    // everything written to a pipe has been flushed.
    process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  },
  (e: unknown) => {
    process.stderr.write(formatError(e));
    process.exit(1);
  },
);
