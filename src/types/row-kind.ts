/**
 * The kind of change a row describes in a changelog, as Flink's `RowKind`.
 * The numeric values match Flink's byte values so they can be serialized as one byte.
 */
export const RowKind = {
  INSERT: 0,
  UPDATE_BEFORE: 1,
  UPDATE_AFTER: 2,
  DELETE: 3,
} as const;

export type RowKind = (typeof RowKind)[keyof typeof RowKind];

const SHORT = ['+I', '-U', '+U', '-D'] as const;

export type RowKindShortString = (typeof SHORT)[number];

/** `+I`, `-U`, `+U` or `-D`, as Flink prints them. */
export function rowKindShortString(kind: RowKind): RowKindShortString {
  return SHORT[kind];
}

export function rowKindFromShortString(text: string): RowKind | undefined {
  const i = (SHORT as readonly string[]).indexOf(text);
  return i < 0 ? undefined : (i as RowKind);
}

/** True for the kinds that add a row to the materialized result (+I, +U). */
export function isAccumulate(kind: RowKind): boolean {
  return kind === RowKind.INSERT || kind === RowKind.UPDATE_AFTER;
}
