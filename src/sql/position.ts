/**
 * Where a node or token starts in the text that was handed to the parser (a whole file, or one REPL
 * input). Line and column are 1-based; offset is the 0-based UTF-16 index into that text.
 */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/** The position of the first character of a text. */
export const START_POSITION: SourcePosition = { line: 1, column: 1, offset: 0 };
