/** Deep copy without `pos` and `end` fields, so ASTs compare modulo source positions. */
export function stripPositions<T>(node: T): T {
  return JSON.parse(JSON.stringify(node, (key, value: unknown) => (key === 'pos' || (key === 'end' && isPosition(value)) ? undefined : value))) as T;
}

/** A node's `end` is a source position; an interval's or a frame's `end` is not. */
function isPosition(v: unknown): boolean {
  return typeof v === 'object' && v !== null && 'offset' in v && 'line' in v;
}
