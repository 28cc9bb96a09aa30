/** Deep copy without `pos` fields, so ASTs compare modulo source positions. */
export function stripPositions<T>(node: T): T {
  return JSON.parse(JSON.stringify(node, (key, value: unknown) => (key === 'pos' ? undefined : value))) as T;
}
