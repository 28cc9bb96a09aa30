import { ExecutionError } from '../../../errors/sluice-error.js';
import { isJsonObject } from './json-text.js';

/** SQL/JSON path expressions (`lax $.a.b[0]`, `strict $['k'][*]`), compiled once per path text. */

type SimpleStep = { readonly kind: 'member'; readonly name: string } | { readonly kind: 'index'; readonly index: number } | { readonly kind: 'wildcard' };

/** `..x`: the step `x` applied to a value and every value nested in it (Jayway's deep scan, which Calcite uses). */
type Step = SimpleStep | { readonly kind: 'descendant'; readonly step: SimpleStep };

export interface JsonPath {
  readonly mode: 'lax' | 'strict';
  readonly steps: readonly Step[];
}

const cache = new Map<string, JsonPath>();

/** @throws ExecutionError for a malformed path. */
export function parseJsonPath(text: string): JsonPath {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  let s = text.trim();
  // Without a mode the path is strict, as in Calcite's JsonFunctions (which Flink runs): a real Flink 2.3 answers
  // JSON_VALUE('{}', '$.a' DEFAULT 'err' ON ERROR) with 'err' (differential harness, goldens/regressions.json).
  let mode: 'lax' | 'strict' = 'strict';
  const m = /^(lax|strict)\s+/i.exec(s);
  if (m !== null) {
    mode = m[1]!.toLowerCase() as 'lax' | 'strict';
    s = s.slice(m[0].length);
  }
  if (!s.startsWith('$')) throw new ExecutionError(`Illegal JSON path '${text}': it must start with '$'.`);
  const steps: Step[] = [];
  let i = 1;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '.' && s[i + 1] === '.') {
      const mm = /^\.\.(\*|[A-Za-z_$][\w$]*|"[^"]*"|\[\s*(?:\*|\d+|'[^']*'|"[^"]*")\s*\])/.exec(s.slice(i));
      if (mm === null) throw new ExecutionError(`Illegal JSON path '${text}' at position ${i}.`);
      steps.push({ kind: 'descendant', step: simpleStep(mm[1]!) });
      i += mm[0].length;
    } else if (c === '.' && s[i + 1] === '[') {
      // `$.['key']`: a bracketed member after a dot, as Calcite's (Jayway) path syntax allows.
      i++;
    } else if (c === '.') {
      const mm = /^\.(\*|[A-Za-z_$][\w$]*|"[^"]*")/.exec(s.slice(i));
      if (mm === null) throw new ExecutionError(`Illegal JSON path '${text}' at position ${i}.`);
      const name = mm[1]!;
      steps.push(name === '*' ? { kind: 'wildcard' } : { kind: 'member', name: name.startsWith('"') ? name.slice(1, -1) : name });
      i += mm[0].length;
    } else if (c === '[') {
      const mm = /^\[\s*(\*|\d+|'[^']*'|"[^"]*")\s*\]/.exec(s.slice(i));
      if (mm === null) throw new ExecutionError(`Illegal JSON path '${text}' at position ${i}.`);
      const v = mm[1]!;
      if (v === '*') steps.push({ kind: 'wildcard' });
      else if (/^\d+$/.test(v)) steps.push({ kind: 'index', index: Number(v) });
      else steps.push({ kind: 'member', name: v.slice(1, -1) });
      i += mm[0].length;
    } else if (c === ' ') {
      i++;
    } else {
      throw new ExecutionError(`Illegal JSON path '${text}' at position ${i}.`);
    }
  }
  const p: JsonPath = { mode, steps };
  if (cache.size > 1000) cache.clear();
  cache.set(text, p);
  return p;
}

/** A step from its text: `*`, a name, `"name"`, or a bracket `[*]` / `[3]` / `['k']`. */
function simpleStep(t: string): SimpleStep {
  const v = t.startsWith('[') ? t.slice(1, -1).trim() : t;
  if (v === '*') return { kind: 'wildcard' };
  if (t.startsWith('[') && /^\d+$/.test(v)) return { kind: 'index', index: Number(v) };
  return { kind: 'member', name: /^['"]/.test(v) ? v.slice(1, -1) : v };
}

/** True when the path can select several values (a wildcard or deep scan): it then selects a list. */
export function isIndefinite(path: JsonPath): boolean {
  return path.steps.some((st) => st.kind === 'wildcard' || st.kind === 'descendant');
}

function withDescendants(v: unknown, out: unknown[]): void {
  out.push(v);
  if (Array.isArray(v)) for (const x of v) withDescendants(x, out);
  else if (isJsonObject(v)) for (const x of Object.values(v)) withDescendants(x, out);
}

/**
 * The items a path selects. Lax mode: a missing member or index selects nothing; strict mode: it is an
 * error (ExecutionError). `wildcard` may select several items.
 */
export function evaluateJsonPath(doc: unknown, path: JsonPath): unknown[] {
  let items: unknown[] = [doc];
  // After a wildcard or deep scan a step that does not match skips the item, in either mode (Jayway fails only
  // while the path so far is definite).
  let definite = true;
  for (const step of path.steps) {
    if (step.kind === 'descendant') {
      const all: unknown[] = [];
      for (const item of items) withDescendants(item, all);
      // A deep scan never fails: it selects whatever matches, in either mode.
      items = applyStep(all, step.step, 'lax');
      definite = false;
      continue;
    }
    items = applyStep(items, step, definite ? path.mode : 'lax');
    if (step.kind === 'wildcard') definite = false;
  }
  return items;
}

/** One step on every item: lax mode skips what does not match, strict mode fails (ExecutionError). */
function applyStep(items: readonly unknown[], step: SimpleStep, mode: 'lax' | 'strict'): unknown[] {
  const next: unknown[] = [];
  for (const item of items) {
    switch (step.kind) {
      case 'member':
        if (isJsonObject(item) && Object.hasOwn(item, step.name)) {
          next.push(item[step.name]);
        } else if (mode === 'strict') {
          throw new ExecutionError(`No results for path: $['${step.name}']`);
        }
        break;
      case 'index':
        if (Array.isArray(item) && step.index < item.length) next.push(item[step.index]);
        else if (mode === 'strict') throw new ExecutionError(`Array index ${step.index} out of bounds.`);
        break;
      case 'wildcard':
        if (Array.isArray(item)) next.push(...item);
        else if (isJsonObject(item)) next.push(...Object.values(item));
        // On a scalar a wildcard selects nothing, in strict mode too (Jayway; a real Flink 2.3 answers
        // JSON_QUERY('"str"', '$[*]') with []).
        break;
      default: {
        const never: never = step;
        return never;
      }
    }
  }
  return next;
}
