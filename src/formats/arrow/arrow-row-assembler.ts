import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import { sourceSignature } from './arrow-column-source.js';
import type { ColumnSource } from './arrow-column-source.js';

/** Builds `n` +I rows whose field `c` of row `j` is row `j` of `sources[c]`. */
export type RowAssembler = (sources: readonly ColumnSource[], n: number) => Row[];

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
    default:
      return `const v${c} = ${s}.values; ${nulls}`;
  }
}

/**
 * The row loop is generated per shape of the sources: each row's fields are one array literal of constant
 * size (a packed array allocated in one step; `new Array(arity)` filled column by column is holey and cost
 * more than all the reading), and each cell is read straight from its Arrow buffer at its own call site.
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
 * The assemblers of one decoder, one per shape of sources met (NULLs or none, ASCII or not, per column):
 * a file has a handful at most, and each is compiled once.
 */
export class RowAssemblers {
  private readonly byShape = new Map<string, RowAssembler>();

  /** Called once per range of rows read; returns the rows of `sources`, `n` of them. */
  assemble(sources: readonly ColumnSource[], n: number): Row[] {
    const signatures = sources.map(sourceSignature);
    const key = signatures.join(',');
    let a = this.byShape.get(key);
    if (a === undefined) {
      a = createRowAssembler(signatures);
      this.byShape.set(key, a);
    }
    return a(sources, n);
  }
}
