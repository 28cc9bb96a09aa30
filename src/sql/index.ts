/** The Flink SQL front end: statement splitting, lexing, parsing to one typed AST, and unparsing. */
export type * from './ast/data-types.js';
export type * from './ast/ddl.js';
export type * from './ast/expressions.js';
export type * from './ast/names.js';
export type * from './ast/query.js';
export type * from './ast/statements.js';
export type * from './ast/match-recognize.js';
export { childExpressions, visitExpression, visitStatement, walkExpression } from './ast/visitor.js';
export type { ExpressionVisitor, StatementVisitor } from './ast/visitor.js';
export { isReserved, RESERVED_WORDS } from './lexer/keywords.js';
export { parseDataType, parseExpression, parseScript, parseSplitStatement, parseStatement } from './parse.js';
export type { ParsedStatement } from './parse.js';
export type { SourcePosition } from './position.js';
export { SourceText } from './source-text.js';
export { splitStatements } from './split-statements.js';
export type { SplitStatement } from './split-statements.js';
export { unparseColumn, unparseDataType, unparseExpression, unparsePrimaryKey, unparseQuery, unparseStatement, unparseTableRef, unparseWatermark } from './unparse.js';
