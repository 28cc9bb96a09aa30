import { SqlParseError } from '../errors/sluice-error.js';
import type { SourcePosition } from './position.js';

/**
 * The whole text being parsed, with its line starts, so any offset (also one inside the third
 * statement of a file) turns into the file's line and column and the line can be shown under an error.
 */
export class SourceText {
  private readonly lineStarts: number[];

  constructor(readonly text: string) {
    this.lineStarts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.lineStarts.push(i + 1);
      else if (c === 13 && text.charCodeAt(i + 1) !== 10) this.lineStarts.push(i + 1);
    }
  }

  /** Line and column (1-based) of an offset; offsets past the end map to the end. */
  positionAt(offset: number): SourcePosition {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: o - this.lineStarts[lo]! + 1, offset: o };
  }

  /** The text of a 1-based line without its line break. */
  lineText(line: number): string {
    const start = this.lineStarts[line - 1] ?? this.text.length;
    const next = this.lineStarts[line] ?? this.text.length;
    return this.text.slice(start, next).replace(/\r?\n$|\r$/, '');
  }

  /** A SqlParseError pointing at `offset`; `message` should already name the position when useful. */
  errorAt(offset: number, message: string): SqlParseError {
    const pos = this.positionAt(offset);
    return new SqlParseError(message, pos.line, pos.column, this.lineText(pos.line));
  }
}
