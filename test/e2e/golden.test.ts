import { readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { FileCatalog } from '../../src/catalog/file-catalog.js';
import type { ConsoleIO } from '../../src/cli/console-io.js';
import { formatError } from '../../src/cli/error-format.js';
import { StatementRunner } from '../../src/cli/statement-runner.js';
import { parseStatement } from '../../src/sql/parse.js';
import { SourceText } from '../../src/sql/source-text.js';
import { splitStatements } from '../../src/sql/split-statements.js';

/**
 * SQL-client golden files in the shape of Flink's `.q` files: a statement (ending with `;` at the end of a
 * line), then the exact output the client prints, closed by `!ok` (plain output), `!info` (an [INFO]
 * message) or `!error` (the statement must fail; the expected lines must appear in the error text).
 * Lines starting with `#` outside a block are comments. `$TMP` is replaced by a fresh directory.
 */
interface Block {
  readonly statement: string;
  readonly expected: string;
  readonly kind: 'ok' | 'info' | 'error';
  readonly line: number;
}

function parseQ(text: string, tmp: string): Block[] {
  const lines = text.replaceAll('$TMP', tmp).split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const l = lines[i]!;
    if (l.trim() === '' || l.startsWith('#')) {
      i++;
      continue;
    }
    const start = i + 1;
    const stmt: string[] = [];
    // A statement ends at a line ending with `;`, unless it is inside a BEGIN ... END block.
    do stmt.push(lines[i++]!);
    while (i < lines.length && !isWholeStatement(stmt.join('\n')));
    const out: string[] = [];
    while (i < lines.length && !lines[i]!.startsWith('!')) out.push(lines[i++]!);
    const kind = lines[i++]!.slice(1).trim() as Block['kind'];
    blocks.push({ statement: stmt.join('\n'), expected: out.join('\n'), kind, line: start });
  }
  return blocks;
}

function isWholeStatement(text: string): boolean {
  if (!text.trimEnd().endsWith(';')) return false;
  try {
    return splitStatements(new SourceText(text)).length > 0;
  } catch {
    return false;
  }
}

const dir = join(import.meta.dirname, 'golden');
const files = readdirSync(dir).filter((f) => f.endsWith('.q'));

describe('SQL client golden files', () => {
  for (const file of files) {
    it(file, async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'sluice-q-'));
      const blocks = parseQ(readFileSync(join(dir, file), 'utf8'), tmp);
      let captured = '';
      const io: ConsoleIO = { out: (t) => void (captured += t), err: (t) => void (captured += t), isTTY: false };
      const env = TableEnvironment.create({ catalog: { name: 'default_catalog', catalog: new FileCatalog('default_catalog', join(tmp, 'catalog')) } });
      env.onWarning((m) => void (captured += `[WARNING] ${m}\n`));
      const runner = new StatementRunner(env, io, 'tableau');
      try {
        for (const b of blocks) {
          captured = '';
          let failed = false;
          try {
            await runner.run(parseStatement(b.statement));
          } catch (e) {
            failed = true;
            captured += formatError(e);
          }
          const where = `${file}:${b.line}: ${b.statement.split('\n')[0]}`;
          if (b.kind === 'error') {
            expect(failed, `${where} should fail`).toBe(true);
            for (const line of b.expected.split('\n').filter((x) => x.trim() !== '')) {
              expect(captured, where).toContain(line.trim());
            }
          } else {
            expect(failed ? captured : '', `${where} failed`).toBe('');
            expect(captured.trimEnd(), where).toBe(b.expected.trimEnd());
          }
        }
      } finally {
        await env.close();
      }
    });
  }
});
