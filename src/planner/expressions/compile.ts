import { assertNever, typesEqualIgnoringNullability } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import { Row } from '../../types/row.js';
import type { BoundExpr, CallExpr, CaseExpr, CastExpr } from './bound-expr.js';
import { makeCaster, makeTryCaster } from './cast.js';
import type { CodegenScope, CompileOptions } from './codegen-scope.js';
import { foldLiteralCasts } from './fold-literal-casts.js';
import { runtime } from './runtime.js';

/**
 * Compiles bound expressions to JavaScript once per query with `new Function`: the per-row code is
 * straight-line JS with no tree walking. Runtime helpers (`rt`) and hoisted constants (`k`) are
 * parameters of the generated factory, so generated code looks nothing up globally but JS built-ins.
 */

/** One generated function body under construction. Implements the scope function code generators see. */
class Generator implements CodegenScope {
  readonly rt = 'rt';
  private readonly constants: unknown[] = [];
  private readonly vars: string[] = [];
  private lines: string[] = [];
  private counter = 0;
  private readonly fieldsVar: string;

  constructor(readonly options: CompileOptions, fieldsVar = 'f') {
    this.fieldsVar = fieldsVar;
  }

  fresh(prefix = 'v'): string {
    const name = `${prefix}${this.counter++}`;
    this.vars.push(name);
    return name;
  }

  constant(value: unknown): string {
    let i = this.constants.indexOf(value);
    if (i < 0) {
      i = this.constants.length;
      this.constants.push(value);
    }
    return `k${i}`;
  }

  emit(statement: string): void {
    this.lines.push(statement);
  }

  block(body: () => void): string {
    const saved = this.lines;
    this.lines = [];
    body();
    const out = this.lines.join('\n');
    this.lines = saved;
    return out;
  }

  gen(expr: BoundExpr): string {
    switch (expr.kind) {
      case 'input-ref':
        return `${this.fieldsVar}[${expr.index}]`;
      case 'local-ref':
        return `l${expr.index}`;
      case 'literal':
        return this.literal(expr.value);
      case 'symbol':
        return JSON.stringify(expr.value);
      case 'call':
        return this.call(expr);
      case 'cast':
        return this.cast(expr);
      case 'case':
        return this.caseExpr(expr);
      case 'field-access': {
        const o = this.gen(expr.operand);
        const v = this.fresh();
        this.emit(`if (${o} !== null) { ${v} = ${o}[${expr.index}]; if (${v} === undefined) ${v} = null; }`);
        return v;
      }
      case 'item-access': {
        const o = this.gen(expr.operand);
        const key = this.gen(expr.key);
        const v = this.fresh();
        const fn = expr.operand.type.kind === 'ARRAY' ? 'arrayItem' : 'mapGet';
        this.emit(`if (${o} !== null && ${key} !== null) ${v} = rt.${fn}(${o}, ${key});`);
        return v;
      }
      default:
        return assertNever(expr, 'bound expression');
    }
  }

  private literal(value: unknown): string {
    if (value === null || value === undefined) return 'null';
    if (typeof value === 'boolean') return String(value);
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0) ? String(value) : this.constant(value);
    if (typeof value === 'string') return JSON.stringify(value);
    return this.constant(value);
  }

  private call(expr: CallExpr): string {
    const cg = expr.fn.codegen;
    switch (cg.kind) {
      case 'custom':
        return cg.gen(expr, this);
      case 'runtime': {
        const args = expr.operands.map((o) => this.gen(o));
        const v = this.fresh();
        this.emit(`${v} = ${this.constant(cg.fn)}(${args.join(', ')});`);
        return v;
      }
      case 'strict':
      case 'runtime-strict': {
        const args = expr.operands.map((o) => this.gen(o));
        const body = cg.kind === 'strict' ? cg.expr(args, expr, this) : `${this.constant(cg.fn)}(${args.join(', ')})`;
        const checks = expr.operands.flatMap((o, i) => (o.type.nullable && o.kind !== 'symbol' ? [`${args[i]} !== null`] : []));
        const v = this.fresh();
        this.emit(checks.length === 0 ? `${v} = ${body};` : `if (${checks.join(' && ')}) ${v} = ${body};`);
        return v;
      }
      default:
        return assertNever(cg, 'codegen');
    }
  }

  private cast(expr: CastExpr): string {
    const from = expr.operand.type;
    const to = expr.type;
    const o = this.gen(expr.operand);
    if (from.kind === 'NULL') return 'null';
    const inline = inlineCast(from, to, o);
    if (inline !== undefined && !expr.tryCast) {
      const v = this.fresh();
      this.emit(from.nullable ? `if (${o} !== null) ${v} = ${inline};` : `${v} = ${inline};`);
      return v;
    }
    const tz = this.options.timeZone ?? 'UTC';
    const caster = expr.tryCast ? makeTryCaster(from, to, tz) : makeCaster(from, to, tz);
    const v = this.fresh();
    this.emit(`if (${o} !== null) ${v} = ${this.constant(caster)}(${o});`);
    return v;
  }

  private caseExpr(expr: CaseExpr): string {
    const v = this.fresh();
    const emitFrom = (i: number): void => {
      if (i === expr.whens.length) {
        const e = this.gen(expr.elseExpr);
        if (e !== 'null') this.emit(`${v} = ${e};`);
        return;
      }
      const w = expr.whens[i]!;
      const c = this.gen(w.when);
      const thenCode = this.block(() => {
        const t = this.gen(w.then);
        if (t !== 'null') this.emit(`${v} = ${t};`);
      });
      const elseCode = this.block(() => emitFrom(i + 1));
      this.emit(`if (${c} === true) {\n${thenCode}\n} else {\n${elseCode}\n}`);
    };
    emitFrom(0);
    return v;
  }

  /** Assemble the batch loop of `compileCalc`: locals, then the filter, then the projection, per row. */
  buildLoop(filterCode: string, projCode: string, locals: readonly BoundExpr[]): unknown {
    const localLines = this.block(() => {
      locals.forEach((l, i) => this.emit(`const l${i} = ${this.gen(l)};`));
    });
    const decl = this.vars.length > 0 ? `let ${this.vars.join(', ')};` : '';
    const reset = resetCode(this.vars);
    const consts = this.constants.map((_, i) => `const k${i} = k[${i}];`).join('\n');
    const source = `"use strict";\n${consts}\nreturn function (rows, out) {\n${decl}\nfor (let i = 0; i < rows.length; i++) {\nconst row = rows[i];\nconst f = row.fields;\n${reset}\n${localLines}\n${filterCode}\n${projCode}\n}\n};`;
    const factory = new Function('rt', 'k', 'rt_Row', source) as (rt: unknown, k: unknown[], r: unknown) => unknown;
    return factory(runtime, this.constants, Row);
  }

  /** Assemble `factory(rt, k)` returning the per-row function with `params` and `body` around the emitted code. */
  build(params: string, prologue: string, epilogue: string, locals: readonly BoundExpr[] = []): { source: string; fn: unknown } {
    const localLines = this.block(() => {
      locals.forEach((l, i) => {
        const code = this.gen(l);
        this.emit(`const l${i} = ${code};`);
      });
    });
    const body = this.lines.join('\n');
    const decl = this.vars.length > 0 ? `let ${this.vars.join(', ')};` : '';
    const reset = resetCode(this.vars);
    const consts = this.constants.map((_, i) => `const k${i} = k[${i}];`).join('\n');
    const source = `"use strict";\n${consts}\nreturn function (${params}) {\n${decl}\n${prologue}\n${reset}\n${localLines}\n${body}\n${epilogue}\n};`;
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    const factory = new Function('rt', 'k', source) as (rt: unknown, k: unknown[]) => unknown;
    return { source, fn: factory(runtime, this.constants) };
  }
}

/**
 * `a = b = c = null;` in chained groups of 100: one chain over thousands of temporaries would be an
 * assignment nested thousands deep, which overflows V8's own parser.
 */
function resetCode(vars: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < vars.length; i += 100) out.push(`${vars.slice(i, i + 100).join(' = ')} = null;`);
  return out.join('\n');
}

/** A cast simple enough to write inline (numeric widening); undefined for the general caster. */
function inlineCast(from: LogicalType, to: LogicalType, v: string): string | undefined {
  if (typesEqualIgnoringNullability(from, to)) return v;
  const small = from.kind === 'TINYINT' || from.kind === 'SMALLINT' || from.kind === 'INT';
  if (small && (to.kind === 'INT' || to.kind === 'DOUBLE' || (to.kind === 'SMALLINT' && from.kind === 'TINYINT'))) return v;
  if (small && to.kind === 'FLOAT') return `Math.fround(${v})`;
  if (small && to.kind === 'BIGINT') return `BigInt(${v})`;
  if (from.kind === 'BIGINT' && to.kind === 'DOUBLE') return `Number(${v})`;
  if (from.kind === 'FLOAT' && to.kind === 'DOUBLE') return v;
  return undefined;
}

function rowPrologue(options: CompileOptions): { params: string; prologue: string } {
  return options.input === 'fields' ? { params: 'f', prologue: '' } : { params: 'row', prologue: 'const f = row.fields;' };
}

function fold(e: BoundExpr, o: CompileOptions): BoundExpr {
  return foldLiteralCasts(e, o.timeZone ?? 'UTC');
}

function conjuncts(e: BoundExpr): BoundExpr[] {
  return e.kind === 'call' && e.fn.name === 'AND' ? e.operands.flatMap(conjuncts) : [e];
}

/** `options` with its local expressions' literal casts folded (see fold-literal-casts.ts). */
function prepared(options: CompileOptions): CompileOptions {
  return options.locals === undefined ? options : { ...options, locals: options.locals.map((l) => fold(l, options)) };
}

/** The input a compiled function takes, per `CompileOptions.input`. */
export type CompiledInput = Row | unknown[];

/**
 * Compile one expression to `(row) => value` (value null for SQL NULL).
 * @example compileExpression(bindCall(plus, [inputRef(0, INT), literal(1, INT)]))(Row.insert(41)) // 42
 */
export function compileExpression(expr: BoundExpr, options: CompileOptions = {}): (row: Row) => unknown {
  const o = prepared(options);
  const g = new Generator(o);
  const { params, prologue } = rowPrologue(o);
  const r = g.gen(fold(expr, o));
  return g.build(params, prologue, `return ${r};`, o.locals).fn as (row: Row) => unknown;
}

/** Compile a condition to `(row) => boolean`: true only when the condition is TRUE (NULL and FALSE reject). */
export function compilePredicate(expr: BoundExpr, options: CompileOptions = {}): (row: Row) => boolean {
  const o = prepared(options);
  const g = new Generator(o);
  const { params, prologue } = rowPrologue(o);
  const r = g.gen(fold(expr, o));
  return g.build(params, prologue, `return ${r} === true;`, o.locals).fn as (row: Row) => boolean;
}

/** Compile a projection to `(row) => fields` with one value per expression, in order. */
export function compileProjection(exprs: readonly BoundExpr[], options: CompileOptions = {}): (row: Row) => unknown[] {
  const o = prepared(options);
  const g = new Generator(o);
  const { params, prologue } = rowPrologue(o);
  const rs = exprs.map((e) => g.gen(fold(e, o)));
  return g.build(params, prologue, `return [${rs.join(', ')}];`, o.locals).fn as (row: Row) => unknown[];
}

/**
 * Compile a Calc (filter then project) over whole batches: `(rows, out)` appends one new `Row` (same
 * RowKind) per input row that passes `condition`, with the projected fields. `condition` null keeps
 * every row. One generated loop per batch: no function call per row.
 */
export function compileCalc(
  projection: readonly BoundExpr[],
  condition: BoundExpr | null,
  options: CompileOptions = {},
): (rows: readonly Row[], out: Row[]) => void {
  const o = prepared(options);
  const g = new Generator(o);
  // A row is dropped when its condition is FALSE or NULL alike, so a top-level AND needs no
  // three-valued bookkeeping: each conjunct that is not TRUE drops the row at once.
  const filterCode = condition === null ? '' : g.block(() => {
    for (const c of conjuncts(fold(condition, o))) g.emit(`if (${g.gen(c)} !== true) continue;`);
  });
  const projCode = g.block(() => {
    const rs = projection.map((e) => g.gen(fold(e, o)));
    g.emit(`out.push(new rt_Row(row.kind, [${rs.join(', ')}]));`);
  });
  return g.buildLoop(filterCode, projCode, o.locals ?? []) as (rows: readonly Row[], out: Row[]) => void;
}
