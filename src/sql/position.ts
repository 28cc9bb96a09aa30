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

/**
 * The stretch a node covers as an error range (1-based, end inclusive): from `pos` to `end`, or just
 * the first character when the end is not known.
 */
export function rangeOf(node: { readonly pos: SourcePosition; readonly end?: SourcePosition | undefined }): {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
} {
  const end = node.end ?? node.pos;
  return { line: node.pos.line, column: node.pos.column, endLine: end.line, endColumn: end.column };
}

/** True for a SourcePosition (a node's `end`), false for other fields named `end` (an interval's, a frame's). */
export function isSourcePosition(v: unknown): v is SourcePosition {
  return typeof v === 'object' && v !== null && 'offset' in v && 'line' in v && 'column' in v;
}
