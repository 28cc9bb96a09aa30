import type { SourcePosition } from '../position.js';

/** One simple name (column, alias, catalog), case preserved, without quotes. */
export interface Name {
  readonly value: string;
  readonly pos: SourcePosition;
}

/** A possibly qualified object name `cat.db.t`; `parts` has 1 to 3 entries for tables. */
export interface ObjectName {
  readonly parts: readonly string[];
  readonly pos: SourcePosition;
  /** The name's last character (inclusive), for an error's range. */
  readonly end?: SourcePosition;
}

/** A `'key' = 'value'` pair of a WITH, SET or OPTIONS clause. */
export interface Property {
  readonly key: string;
  readonly value: string;
  readonly pos: SourcePosition;
}

/**
 * A hint `/*+ NAME(args) *\/`. Flink hints take either `'k'='v'` pairs (OPTIONS) or a list of
 * names/literals (BROADCAST(t), LOOKUP('table'='d', ...)).
 */
export interface Hint {
  readonly name: string;
  readonly kvOptions: readonly Property[];
  readonly listOptions: readonly string[];
  readonly pos: SourcePosition;
}
