import type { SourcePosition } from '../position.js';

/**
 * `word`: an unquoted identifier or keyword; `quoted-ident`: a backquoted name; `string`: '...' or
 * "..." literal; `binary-string`: X'..'; `hint-start` / `hint-end`: the `/*+` and `*\/` around hints.
 */
export type TokenType =
  | 'word'
  | 'quoted-ident'
  | 'string'
  | 'binary-string'
  | 'number'
  | 'symbol'
  | 'hint-start'
  | 'hint-end'
  | 'eof';

export interface Token {
  readonly type: TokenType;
  /** The token exactly as it appears in the source. */
  readonly text: string;
  /** Words as written, quoted names and strings unescaped, numbers and symbols as written. */
  readonly value: string;
  /** `value` upper-cased for words (keyword comparison); equal to `value` otherwise. */
  readonly upper: string;
  readonly pos: SourcePosition;
  /** Offset just past the token. */
  readonly end: number;
}
