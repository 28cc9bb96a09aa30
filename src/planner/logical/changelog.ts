import { PlanningError } from '../../errors/sluice-error.js';
import { ChangelogMode } from '../../factories/changelog-mode.js';
import { RowKind } from '../../types/row-kind.js';
import { timeBoundedJoinBounds } from './interval-bounds.js';
import { deduplicationOf, isInsertOnlyFirstRow, isProctimeFirstRow, isRowtimeInsertOnlyFirstRow } from './deduplicate.js';
import { physicalNodeText } from './explain-plan.js';
import { inputsOf, type PlanNode, type RankNode } from './plan-node.js';
import { rankStrategy } from './rank-strategy.js';

/**
 * A streaming Top-1 (`ROW_NUMBER() ... <= 1`, or `ORDER BY ... LIMIT 1`) over an insert-only input: Flink runs it as
 * FastTop1Function, whose partition key is the output's unique key, so a better row replaces the held one as
 * -U old / +U new rather than -D / +I, and nothing is ever deleted. (With the rank number in the output every
 * Top-N already updates by position.)
 */
export function replacesTop1InPlace(n: RankNode, input: ChangelogMode): boolean {
  const start = n.sortLimit === undefined ? 1 : n.sortLimit.offset + 1;
  return n.limit === 1 && start === 1 && (n.rankType ?? 'ROW_NUMBER') === 'ROW_NUMBER' && input.isInsertOnly() && !isInsertOnlyFirstRow(n, true);
}

/**
 * Changelog inference: which row kinds each node emits. Memoized per node object; plans are immutable.
 */
export class ChangelogInference {
  private readonly modes = new Map<PlanNode, ChangelogMode>();
  /** The node that first turned an insert-only stream into an updating one, per updating node. */
  private readonly origins = new Map<PlanNode, PlanNode>();

  constructor(private readonly mode: 'streaming' | 'batch') {}

  of(n: PlanNode): ChangelogMode {
    let m = this.modes.get(n);
    if (m === undefined) {
      if (!this.warming) this.warm(n);
      m = this.modes.get(n) ?? this.compute(n);
      this.modes.set(n, m);
    }
    return m;
  }

  private warming = false;

  /**
   * Computes the modes of `root`'s inputs bottom-up in a loop before `root`'s own, so every recursive
   * `of` inside `compute` is a cache hit: a plan thousands of nodes deep (nested scalar subqueries)
   * then costs no stack here.
   */
  private warm(root: PlanNode): void {
    this.warming = true;
    try {
      const stack: [PlanNode, boolean][] = [[root, false]];
      while (stack.length > 0) {
        const [node, expanded] = stack.pop()!;
        if (this.modes.has(node)) continue;
        if (expanded) {
          if (node !== root) this.modes.set(node, this.compute(node));
          continue;
        }
        stack.push([node, true]);
        for (const input of inputsOf(node)) if (!this.modes.has(input)) stack.push([input, false]);
      }
    } finally {
      this.warming = false;
    }
  }

  /** The node to blame for updates reaching `n` (for the sink error message). */
  originOf(n: PlanNode): PlanNode {
    this.of(n);
    return this.origins.get(n) ?? n;
  }

  private compute(n: PlanNode): ChangelogMode {
    switch (n.kind) {
      case 'scan':
        return this.mode === 'batch' ? ChangelogMode.insertOnly() : n.source.getChangelogMode();
      case 'values':
        return ChangelogMode.insertOnly();
      case 'calc':
      case 'sink':
      case 'unnest':
      case 'lookup-join':
        return this.inherit(n, n.input);
      case 'window-tvf': {
        const input = this.of(n.input);
        if (!input.isInsertOnly()) {
          throw new PlanningError(`${physicalNodeText(n, this.mode)} doesn't support consuming update and delete changes which is produced by node ${physicalNodeText(this.originOf(n.input), this.mode)}`);
        }
        return input;
      }
      case 'aggregate': {
        if (this.mode === 'batch' || n.window !== undefined) {
          this.of(n.input);
          return ChangelogMode.insertOnly();
        }
        const input = this.of(n.input);
        this.origins.set(n, input.isInsertOnly() ? n : this.originOf(n.input));
        if (n.generateUpdateBefore === false) return input.isInsertOnly() ? ChangelogMode.of(RowKind.INSERT, RowKind.UPDATE_AFTER) : ChangelogMode.upsert();
        return input.isInsertOnly() ? ChangelogMode.of(RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER) : ChangelogMode.all();
      }
      case 'union': {
        const kinds: RowKind[] = [];
        for (const i of n.inputs) {
          const m = this.of(i);
          for (const k of [RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE] as const) {
            if (m.contains(k) && !kinds.includes(k)) kinds.push(k);
          }
          if (!m.isInsertOnly() && !this.origins.has(n)) this.origins.set(n, this.originOf(i));
        }
        return ChangelogMode.of(...kinds);
      }
      case 'join': {
        const l = this.of(n.left);
        const r = this.of(n.right);
        if (this.mode === 'batch') return ChangelogMode.insertOnly();
        // A temporal join emits each left row once, whatever the versioned side does.
        if (n.temporal !== undefined && l.isInsertOnly()) return ChangelogMode.insertOnly();
        if (l.isInsertOnly() && r.isInsertOnly() && (n.joinType === 'INNER' || n.joinType === 'SEMI')) return ChangelogMode.insertOnly();
        // Outer interval and window joins pad an unmatched row once, when time passes its bound: insert-only.
        if (l.isInsertOnly() && r.isInsertOnly() && timeBoundedJoinBounds(n) !== undefined) return ChangelogMode.insertOnly();
        this.origins.set(n, n.joinType !== 'INNER' && n.joinType !== 'SEMI' ? n : !l.isInsertOnly() ? this.originOf(n.left) : this.originOf(n.right));
        return ChangelogMode.all();
      }
      case 'over': {
        const input = this.of(n.input);
        if (!input.isInsertOnly()) {
          throw new PlanningError(`${physicalNodeText(n, this.mode)} doesn't support consuming update and delete changes which is produced by node ${physicalNodeText(this.originOf(n.input), this.mode)}`);
        }
        return ChangelogMode.insertOnly();
      }
      case 'match': {
        const input = this.of(n.input);
        if (!input.isInsertOnly()) {
          throw new PlanningError(`Match Recognize doesn't support consuming update changes which is produced by node ${physicalNodeText(this.originOf(n.input), this.mode)}`);
        }
        return ChangelogMode.insertOnly();
      }
      case 'rank': {
        const input = this.of(n.input);
        if (this.mode === 'batch') return ChangelogMode.insertOnly();
        if (n.window !== undefined) {
          // A window Top-N / deduplication emits each window's rows once, when the window closes.
          const type = n.rankType ?? 'ROW_NUMBER';
          if (n.window.proctime === true) throw new PlanningError(`Processing time Window ${deduplicationOf(n) === undefined ? 'TopN' : 'Deduplication'} is not supported yet.`);
          if (type !== 'ROW_NUMBER') throw new PlanningError(`${type}() function is not supported on Window TopN currently, only ROW_NUMBER() is supported.`);
          return ChangelogMode.insertOnly();
        }
        if (isProctimeFirstRow(n)) {
          // Flink's Deduplicate consumes insert-only input only.
          if (!input.isInsertOnly()) {
            throw new PlanningError(`${physicalNodeText(n, this.mode)} doesn't support consuming update and delete changes which is produced by node ${physicalNodeText(this.originOf(n.input), this.mode)}`);
          }
          return ChangelogMode.insertOnly();
        }
        if (isRowtimeInsertOnlyFirstRow(n, input.isInsertOnly())) return ChangelogMode.insertOnly();
        this.origins.set(n, n);
        // Every other Deduplicate may replace its row: Flink declares all changes.
        if (deduplicationOf(n) !== undefined) return ChangelogMode.all();
        if (n.outputRankNumber) return ChangelogMode.all();
        if (rankStrategy(n, this).kind === 'update-fast') {
          // An update of a top row is -U / +U of it; a Top-1 (FastTop1Function) never deletes.
          const top1 = n.limit === 1 && (n.sortLimit?.offset ?? 0) === 0;
          return top1 ? ChangelogMode.of(RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER) : ChangelogMode.all();
        }
        return replacesTop1InPlace(n, input) ? ChangelogMode.of(RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER) : ChangelogMode.of(RowKind.INSERT, RowKind.DELETE);
      }
      case 'sort': {
        const input = this.of(n.input);
        if (this.mode === 'streaming' && !input.isInsertOnly()) {
          throw new PlanningError(`${physicalNodeText(n, this.mode)} doesn't support consuming update and delete changes which is produced by node ${physicalNodeText(this.originOf(n.input), this.mode)}`);
        }
        return ChangelogMode.insertOnly();
      }
      case 'local-window-aggregate': {
        // The window TVF the local phase replaces takes inserts only.
        const input = this.of(n.input);
        if (!input.isInsertOnly()) {
          throw new PlanningError(`${physicalNodeText(n, this.mode)} doesn't support consuming update and delete changes which is produced by node ${physicalNodeText(this.originOf(n.input), this.mode)}`);
        }
        return input;
      }
      case 'global-window-aggregate':
        this.of(n.input);
        return ChangelogMode.insertOnly();
      case 'changelog-normalize': {
        this.of(n.input);
        this.origins.set(n, n);
        return n.generateUpdateBefore ? ChangelogMode.all() : ChangelogMode.upsert();
      }
      default: {
        const never: never = n;
        return never;
      }
    }
  }

  private inherit(n: PlanNode, input: PlanNode): ChangelogMode {
    const m = this.of(input);
    if (!m.isInsertOnly()) this.origins.set(n, this.originOf(input));
    return m;
  }
}
