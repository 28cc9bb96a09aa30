/**
 * Statements of Flink's SQL (1.20 and 2.x) that Sluice does not run, by their leading words. Each entry
 * is the words to match (`?` marks an optional word) and the name an error shows. Longer forms come
 * before shorter ones that share a start. Kept in step with docs/limits.md.
 */
export const UNSUPPORTED_STATEMENTS: readonly (readonly [readonly string[], string])[] = [
  [['ANALYZE', 'TABLE'], 'ANALYZE TABLE'],
  [['CALL'], 'CALL'],
  [['COMPILE', 'AND', 'EXECUTE', 'PLAN'], 'COMPILE AND EXECUTE PLAN'],
  [['COMPILE', 'PLAN'], 'COMPILE PLAN'],
  [['EXECUTE', 'PLAN'], 'EXECUTE PLAN'],
  [['CREATE', 'OR', 'REPLACE', 'TABLE'], 'CREATE OR REPLACE TABLE'],
  [['REPLACE', 'TABLE'], 'REPLACE TABLE'],
  [['CREATE', 'TEMPORARY?', 'MODEL'], 'CREATE MODEL'],
  [['ALTER', 'MODEL'], 'ALTER MODEL'],
  [['DROP', 'TEMPORARY?', 'MODEL'], 'DROP MODEL'],
  [['SHOW', 'MODELS'], 'SHOW MODELS'],
  [['SHOW', 'CREATE', 'MODEL'], 'SHOW CREATE MODEL'],
  [['DESCRIBE', 'MODEL'], 'DESCRIBE MODEL'],
  [['DESC', 'MODEL'], 'DESCRIBE MODEL'],
  [['DESCRIBE', 'JOB'], 'DESCRIBE JOB'],
  [['DESC', 'JOB'], 'DESCRIBE JOB'],
  [['DESCRIBE', 'FUNCTION'], 'DESCRIBE FUNCTION'],
  [['DESC', 'FUNCTION'], 'DESCRIBE FUNCTION'],
  [['ALTER', 'TEMPORARY?', 'SYSTEM?', 'FUNCTION'], 'ALTER FUNCTION'],
  [['UPDATE'], 'UPDATE'],
];
