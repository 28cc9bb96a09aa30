import { Row } from '../../types/row.js';

/**
 * Error-path helpers of the state codec: the encoder does not track where it is (that would cost on every
 * checkpoint), so when it meets a value it cannot store, the tree is searched once more for its path.
 */

/** `an instance of class 'Foo'`, `a function 'f'`, `a symbol (Symbol(x))`. */
export function describeStateValue(v: unknown): string {
  if (typeof v === 'function') return `a function${v.name ? ` '${v.name}'` : ''}`;
  if (typeof v === 'symbol') return `a symbol (${String(v)})`;
  if (typeof v === 'object' && v !== null) {
    const name = (v as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? `an instance of class '${name}'` : 'an object of an unknown class';
  }
  return `a ${typeof v}`;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function keyText(k: unknown): string {
  if (typeof k === 'string') return JSON.stringify(k);
  if (typeof k === 'bigint') return `${k}n`;
  if (typeof k === 'number' || typeof k === 'boolean' || k === null || k === undefined) return String(k);
  return '…';
}

/**
 * The path from the root to the first occurrence of `target` (by identity), e.g.
 * `state.states[0].entries[12][1].fields[2]`, or undefined when it is not found (values produced by a
 * registered class's `toPlain` are not searched: they are built afresh on every call).
 */
export function findStatePath(root: unknown, target: unknown): string | undefined {
  const seen = new Set<object>();
  const walk = (v: unknown, path: string): string | undefined => {
    if (v === target) return path;
    if (typeof v !== 'object' || v === null || seen.has(v)) return undefined;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const p = walk(v[i], `${path}[${i}]`);
        if (p !== undefined) return p;
      }
    } else if (v instanceof Row) {
      return walk(v.fields, `${path}.fields`);
    } else if (v instanceof Map) {
      for (const [k, x] of v) {
        const p = walk(k, `${path}.keys(${keyText(k)})`) ?? walk(x, `${path}.get(${keyText(k)})`);
        if (p !== undefined) return p;
      }
    } else if (v instanceof Set) {
      let i = 0;
      for (const x of v) {
        const p = walk(x, `${path}.values()[${i++}]`);
        if (p !== undefined) return p;
      }
    } else if (!ArrayBuffer.isView(v)) {
      for (const k of Object.keys(v)) {
        const p = walk((v as Record<string, unknown>)[k], IDENT.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`);
        if (p !== undefined) return p;
      }
    }
    return undefined;
  };
  try {
    return walk(root, 'state');
  } catch {
    return undefined; // nested past the stack: the message goes without a path
  }
}
