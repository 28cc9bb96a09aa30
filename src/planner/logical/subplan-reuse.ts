import { scanPushDownDigests } from '../rules/scan-digest.js';
import type { PlanNode, ScanNode } from './plan-node.js';
import { inputsOf, withInputs } from './plan-node.js';

/**
 * `table.optimizer.reuse-sub-plan-enabled` and `table.optimizer.reuse-source-enabled` (both on by default, as in
 * Flink): whether identical sub-plans are planned once, and whether table source scans may be among them.
 */
export interface ReuseOptions {
  readonly subPlan: boolean;
  readonly source: boolean;
}

/** The plan node fields that hold inputs: their digest is the input's, computed separately. */
const INPUT_FIELDS = new Set(['input', 'inputs', 'left', 'right']);

/**
 * Structural digests of plan nodes: equal digests mean the same rows are computed, so the sub-plans may be
 * planned once. Plain data (expressions, types, keys) is compared by value; anything else (a lookup source,
 * a compiled function) by identity, so two nodes that merely look alike are never merged.
 */
export class PlanDigests {
  private readonly memo = new Map<PlanNode, string>();
  private readonly objectIds = new WeakMap<object, number>();
  /** Full digest text to a short id: a node's text names its inputs by id, so it stays short however deep the plan. */
  private readonly interned = new Map<string, string>();

  /** The digest of `n`, a short id equal for equal sub-plans. */
  of(n: PlanNode): string {
    const known = this.memo.get(n);
    if (known !== undefined) return known;
    // Inputs first, without recursion: a plan may be thousands of nodes deep (nested scalar subqueries).
    for (const x of postOrder([n], (m) => this.memo.has(m))) this.compute(x);
    return this.memo.get(n)!;
  }

  /** Digests `n`, whose inputs have theirs. */
  private compute(n: PlanNode): void {
    const text = n.kind === 'scan' ? this.scanDigest(n) : this.nodeDigest(n);
    let d = this.interned.get(text);
    if (d === undefined) {
      d = `@${this.interned.size}`;
      this.interned.set(text, d);
    }
    this.memo.set(n, d);
  }

  private nodeDigest(n: PlanNode): string {
    const own = Object.keys(n)
      .filter((k) => !INPUT_FIELDS.has(k))
      .sort()
      .map((k) => `${k}=${this.value((n as unknown as Record<string, unknown>)[k])}`);
    return `${n.kind}(${own.join(',')})[${inputsOf(n).map((i) => this.of(i)).join(';')}]`;
  }

  /**
   * A scan's identity is the table as this statement sees it (options hints included) and everything pushed
   * into its source; two scans of it are separate source instances, so the source object is left out.
   */
  private scanDigest(n: ScanNode): string {
    const id = n.identifier;
    return `scan(${this.value([
      id.catalog,
      id.database,
      id.object,
      n.table.options,
      scanPushDownDigests(n),
      n.acceptedFilters ?? null,
      n.partitions ?? null,
      n.physicalIndexes,
      n.limit ?? null,
      n.metadataKeys,
      n.watermark,
      n.fields,
    ])})`;
  }

  private value(v: unknown): string {
    switch (typeof v) {
      case 'undefined':
        return 'u';
      case 'boolean':
      case 'string':
        return JSON.stringify(v);
      case 'number':
        return Object.is(v, -0) ? '-0' : String(v);
      case 'bigint':
        return `${v}n`;
      case 'function':
        return this.identity(v);
      case 'symbol':
        return v.toString();
      case 'object':
        break;
    }
    if (v === null) return 'null';
    const o = v as object;
    if (Array.isArray(o)) return `[${o.map((x) => this.value(x)).join(',')}]`;
    if (o instanceof Map) return `Map{${[...o].map(([k, x]) => `${this.value(k)}:${this.value(x)}`).join(',')}}`;
    if (o instanceof Set) return `Set{${[...o].map((x) => this.value(x)).join(',')}}`;
    if (o instanceof Uint8Array) return `bytes(${Buffer.from(o).toString('hex')})`;
    const proto = Object.getPrototypeOf(o) as unknown;
    if (proto !== Object.prototype && proto !== null) return this.identity(o);
    const rec = o as Record<string, unknown>;
    return `{${Object.keys(rec)
      .sort()
      .map((k) => `${k}:${this.value(rec[k])}`)
      .join(',')}}`;
  }

  private identity(o: object): string {
    let id = this.objectIds.get(o);
    if (id === undefined) {
      id = nextObjectId++;
      this.objectIds.set(o, id);
    }
    return `#${id}`;
  }
}

let nextObjectId = 1;

/** Whether Flink's SubplanReuser may share `n`: never a sink, a source scan only with source reuse on. */
function reusable(n: PlanNode, options: ReuseOptions): boolean {
  if (n.kind === 'sink') return false;
  if (n.kind === 'scan') return options.source;
  return true;
}

/**
 * Flink's sub-plan reuse (SubplanReuser): sub-plans with the same digest, within one statement or across the
 * statements of a set, become one object, the first met in a depth-first walk of the roots in order; the rest
 * of the plan is rebuilt over it. Lowering a node once per object then computes it once and fans its rows out
 * (a self-join reads its table once), and EXPLAIN prints the shared node once (`reuse_id` / `Reused`).
 */
export function reuseSubplans(roots: readonly PlanNode[], options: ReuseOptions, digests: PlanDigests = new PlanDigests()): PlanNode[] {
  if (!options.subPlan) return [...roots];
  // Bottom-up, inputs before their node and left before right: the first node met with a digest is the same as
  // in Flink's top-down walk (two nodes with one digest never contain each other), and no recursion is needed.
  const first = new Map<string, PlanNode>();
  const rebuilt = new Map<PlanNode, PlanNode>();
  for (const n of postOrder(roots)) {
    const canReuse = reusable(n, options);
    const d = digests.of(n);
    const earlier = canReuse ? first.get(d) : undefined;
    if (earlier !== undefined) {
      rebuilt.set(n, earlier);
      continue;
    }
    const inputs = inputsOf(n);
    const next = inputs.map((x) => rebuilt.get(x)!);
    const out = next.every((x, i) => x === inputs[i]) ? n : withInputs(n, next);
    if (canReuse) first.set(d, out);
    rebuilt.set(n, out);
  }
  return roots.map((r) => rebuilt.get(r)!);
}

/**
 * Every node under `roots` once, each after its inputs, inputs left to right; iterative. `skip`: nodes left out
 * with everything under them.
 */
export function postOrder(roots: readonly PlanNode[], skip: (n: PlanNode) => boolean = () => false): PlanNode[] {
  const out: PlanNode[] = [];
  const seen = new Set<PlanNode>();
  const stack: [PlanNode, boolean][] = roots.map((r): [PlanNode, boolean] => [r, false]).reverse();
  while (stack.length > 0) {
    const [n, expanded] = stack.pop()!;
    if (expanded) {
      out.push(n);
      continue;
    }
    if (seen.has(n) || skip(n)) continue;
    seen.add(n);
    stack.push([n, true]);
    const inputs = inputsOf(n);
    for (let i = inputs.length - 1; i >= 0; i--) if (!seen.has(inputs[i]!)) stack.push([inputs[i]!, false]);
  }
  return out;
}
