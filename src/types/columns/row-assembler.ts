import { Row } from '../row.js';
import { RowKind } from '../row-kind.js';
import { decodeText, vectorSignature } from './column-vector.js';
import type { ColumnVector } from './column-vector.js';

/** Builds `n` +I rows whose field `c` of row `j` is value `j` of `sources[c]`. */
const MAX_SHAPES = 256;

export type RowAssembler = (sources: readonly ColumnVector[], n: number) => Row[];

/**
 * The expression reading row `j` of source `c`, given the locals `columnLocals` declares. Buffers are
 * read in the row loop itself: a column of timestamps or strings never exists as an array of its own.
 */
function cellExpression(sig: string, c: number): string {
  const kind = sig[0];
  let e: string;
  switch (kind) {
    case 't':
      e = `v${c}[j]`;
      break;
    case 'm':
    case 'u':
    case 's': {
      // Two int32 halves: Number(bigint) would allocate a bigint per cell first. Exact below 2^53.
      const ms = `(w${c}[2 * j + 1] * 4294967296 + (w${c}[2 * j] >>> 0))`;
      e = kind === 'm' ? ms : kind === 'u' ? `Math.floor(${ms} / 1000)` : `${ms} * 1000`;
      break;
    }
    case 'a':
      e = `t${c}.substring(o${c}[j] - b${c}, o${c}[j + 1] - b${c})`;
      break;
    case 'b':
      e = `(v${c}[(b${c} + j) >> 3] & (1 << ((b${c} + j) & 7))) !== 0`;
      break;
    case 'c':
      return `k${c}`;
    default:
      return `v${c}[j]`;
  }
  return sig.endsWith('?') ? `((m${c}[(k${c} + j) >> 3] & (1 << ((k${c} + j) & 7))) !== 0 ? ${e} : null)` : e;
}

function columnLocals(sig: string, c: number): string {
  const s = `s${c}`;
  const nulls = sig.endsWith('?') ? `const m${c} = ${s}.validity.bitmap, k${c} = ${s}.validity.offset;` : '';
  switch (sig[0]) {
    case 'm':
    case 'u':
    case 's':
      return `const w${c} = ${s}.words; ${nulls}`;
    case 'a':
      return `const t${c} = ${s}.text, o${c} = ${s}.offsets, b${c} = ${s}.base; ${nulls}`;
    case 'b':
      return `const v${c} = ${s}.bits, b${c} = ${s}.offset; ${nulls}`;
    case 'c':
      return `const k${c} = ${s}.value;`;
    default:
      return `const v${c} = ${s}.values; ${nulls}`;
  }
}

/**
 * The row loop is generated per shape of the sources: each row's fields are one array literal of constant
 * size (a packed array allocated in one step; `new Array(arity)` filled column by column is holey and cost
 * more than all the reading), and each cell is read straight from its buffer at its own call site.
 */
function createRowAssembler(signatures: readonly string[]): RowAssembler {
  const locals = signatures.map((sig, c) => `const s${c} = sources[${c}]; ${columnLocals(sig, c)}`).join('\n');
  const cells = signatures.map((sig, c) => cellExpression(sig, c)).join(',\n      ');
  const source = `return function assembleRows(sources, n) {
    ${locals}
    const rows = new Array(n);
    for (let j = 0; j < n; j++) rows[j] = new Row(INSERT, [
      ${cells}
    ]);
    return rows;
  };`;
  return new Function('Row', 'INSERT', source)(Row, RowKind.INSERT) as RowAssembler;
}

/**
 * Compiled assemblers, one per shape of sources met (NULLs or none, ASCII or not, per column): a table has
 * a handful at most, and each is compiled once.
 */
export class RowAssemblers {
  private readonly byShape = new Map<string, RowAssembler>();

  /** Called once per batch of rows built; returns the rows of `sources`, `n` of them. */
  assemble(vectors: readonly ColumnVector[], n: number): Row[] {
    // Text still in UTF-8 is decoded here, once per batch, where every value is about to be read.
    const sources = vectors.some((v) => v.kind === 'utf8') ? vectors.map((v) => decodeText(v, n)) : vectors;
    const signatures = sources.map(vectorSignature);
    const key = signatures.join(',');
    let a = this.byShape.get(key);
    if (a === undefined) {
      a = createRowAssembler(signatures);
      // Shapes are few per table; a long session reading many tables starts over rather than grow forever.
      if (this.byShape.size >= MAX_SHAPES) this.byShape.clear();
      this.byShape.set(key, a);
    }
    return a(sources, n);
  }
}

/**
 * The process's assemblers. Shapes are few (a letter per column kind), so one cache serves every table;
 * bounded all the same, since a long session may read many different tables.
 */
const shared = new RowAssemblers();

/** `n` +I rows from `sources`, through the shared cache of compiled assemblers. */
export function assembleRows(sources: readonly ColumnVector[], n: number): Row[] {
  return shared.assemble(sources, n);
}
