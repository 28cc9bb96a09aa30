/** One line of an EXPLAIN tree and the lines under it; `suffix` is appended after the node text (costs). */
export interface ExplainTree {
  readonly text: string;
  readonly children: readonly ExplainTree[];
  /** The exec node this line prints, in the physical plan: equal keys are one node, read by several parents. */
  readonly key?: string;
}

/** A node of an EXPLAIN tree. */
export function node(text: string, children: readonly ExplainTree[] = []): ExplainTree {
  return { text, children };
}

/**
 * Renders a tree the way Flink's RelTreeWriterImpl does (the AST since Flink 1.15 and both optimized
 * plans): the last child under `+- `, earlier ones under `:- `, their subtrees indented by `   ` or `:  `.
 */
export function renderTree(root: ExplainTree): string {
  const out: string[] = [];
  const walk = (n: ExplainTree, lead: string, continuation: string): void => {
    out.push(lead + n.text);
    n.children.forEach((c, i) => {
      const last = i === n.children.length - 1;
      walk(c, continuation + (last ? '+- ' : ':- '), continuation + (last ? '   ' : ':  '));
    });
  };
  walk(root, '', '');
  return out.join('\n');
}
