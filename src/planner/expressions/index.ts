export * from './bound-expr.js';
export * from './codegen-scope.js';
export * from './expr-factory.js';
export * from './expr-to-string.js';
export * from './type-rules.js';
export { canCast, checkCast, makeCaster, makeTryCaster } from './cast.js';
export type { Caster } from './cast.js';
export { compileExpression, compilePredicate, compileProjection, compileCalc } from './compile.js';
