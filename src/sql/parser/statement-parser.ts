import type { Name } from '../ast/names.js';
import type {
  ExplainDetail,
  ExplainStatement,
  InsertStatement,
  QueryStatement,
  ShowObject,
  ShowStatement,
  Statement,
  StatementSetStatement,
  UnsupportedStatement,
} from '../ast/statements.js';
import type { SourcePosition } from '../position.js';
import type { DdlParser } from './ddl-parser.js';
import { MaterializedTableParser } from './materialized-table-parser.js';
import { UNSUPPORTED_STATEMENTS } from './unsupported-statements.js';

const EXPLAIN_DETAILS: readonly ExplainDetail[] = ['ESTIMATED_COST', 'CHANGELOG_MODE', 'JSON_EXECUTION_PLAN', 'PLAN_ADVICE'];

/** Multi-word SHOW targets first, so SHOW FULL MODULES does not stop at FULL. */
const SHOW_OBJECTS: readonly (readonly [ShowObject, readonly string[]])[] = [
  ['CURRENT CATALOG', ['CURRENT', 'CATALOG']],
  ['CURRENT DATABASE', ['CURRENT', 'DATABASE']],
  ['USER FUNCTIONS', ['USER', 'FUNCTIONS']],
  ['FULL MODULES', ['FULL', 'MODULES']],
  ['CATALOGS', ['CATALOGS']],
  ['DATABASES', ['DATABASES']],
  ['TABLES', ['TABLES']],
  ['MATERIALIZED TABLES', ['MATERIALIZED', 'TABLES']],
  ['VIEWS', ['VIEWS']],
  ['FUNCTIONS', ['FUNCTIONS']],
  ['MODULES', ['MODULES']],
  ['JOBS', ['JOBS']],
  ['JARS', ['JARS']],
  ['COLUMNS', ['COLUMNS']],
  ['PROCEDURES', ['PROCEDURES']],
  ['PARTITIONS', ['PARTITIONS']],
];

/** The top of the grammar: one statement, then an optional `;` and the end of input. */
export class StatementParser extends MaterializedTableParser {
  parseSingleStatement(): Statement {
    const stmt = this.parseStatement();
    this.acceptSymbol(';');
    if (this.peek().type !== 'eof') {
      this.record('<EOF>');
      throw this.unexpected();
    }
    return stmt;
  }

  /** Parses a standalone data type (for catalogs that store types as text). */
  parseStandaloneDataType(): ReturnType<DdlParser['parseDataType']> {
    const t = this.parseDataType();
    if (this.peek().type !== 'eof') throw this.unexpected();
    return t;
  }

  /** Parses a standalone expression (computed columns and watermarks stored as text). */
  parseStandaloneExpression(): ReturnType<DdlParser['parseExpression']> {
    const e = this.parseExpression();
    if (this.peek().type !== 'eof') {
      this.record('<EOF>');
      throw this.unexpected();
    }
    return e;
  }

  private parseStatement(): Statement {
    const pos = this.pos;
    const unsupported = this.parseUnsupported();
    if (unsupported !== null) return unsupported;
    if (this.startsQuery() || this.isSymbol('(')) return this.parseQueryStatement();
    if (this.atMaterializedTable()) return this.parseMaterializedTable();
    const t = this.peek();
    if (t.type !== 'word') {
      this.record('<STATEMENT>');
      throw this.unexpected();
    }
    switch (t.upper) {
      case 'CREATE':
        return this.parseCreate();
      case 'DROP':
        return this.parseDrop();
      case 'ALTER':
        return this.parseAlter();
      case 'INSERT':
        return this.parseInsert();
      case 'EXECUTE': {
        this.next();
        if (this.acceptKeywords('STATEMENT', 'SET')) return this.parseStatementSetBlock(pos);
        const statement = this.isKeyword('INSERT') ? this.parseInsert() : this.parseQueryStatement();
        return { kind: 'execute', statement, pos };
      }
      case 'BEGIN':
        this.next();
        this.expectKeywords('STATEMENT', 'SET');
        return { kind: 'begin-statement-set', pos };
      case 'END':
        this.next();
        return { kind: 'end', pos };
      case 'EXPLAIN':
        return this.parseExplain();
      case 'SET':
        return this.parseSet();
      case 'RESET': {
        this.next();
        return { kind: 'reset', key: this.isString() ? this.next().value : null, pos };
      }
      case 'USE': {
        this.next();
        if (this.acceptKeywords('CATALOG')) return { kind: 'use-catalog', name: this.parseName(), pos };
        if (this.acceptKeywords('MODULES')) {
          const names: Name[] = [this.parseName()];
          while (this.acceptSymbol(',')) names.push(this.parseName());
          return { kind: 'use-modules', names, pos };
        }
        return { kind: 'use-database', name: this.parseObjectName(), pos };
      }
      case 'SHOW':
        return this.parseShow();
      case 'DESC':
      case 'DESCRIBE': {
        this.next();
        // `DESCRIBE catalog` describes a table named catalog; `DESCRIBE CATALOG c` has a name after the word.
        if (this.isKeyword('CATALOG') && (this.peek(1).type === 'word' || this.peek(1).type === 'quoted-ident')) {
          this.next();
          const extendedCatalog = this.acceptKeywords('EXTENDED');
          return { kind: 'describe-catalog', extended: extendedCatalog, name: this.parseName(), pos };
        }
        const extended = this.acceptKeywords('EXTENDED');
        return { kind: 'describe', extended, name: this.parseObjectName(), pos };
      }
      case 'STOP': {
        this.next();
        this.expectKeywords('JOB');
        const jobId = this.parseString();
        const withSavepoint = this.acceptKeywords('WITH', 'SAVEPOINT');
        const withDrain = this.acceptKeywords('WITH', 'DRAIN');
        return { kind: 'stop-job', jobId, withSavepoint, withDrain, pos };
      }
      case 'HELP':
        this.next();
        return { kind: 'help', pos };
      case 'QUIT':
      case 'EXIT':
        this.next();
        return { kind: 'quit', pos };
      case 'CLEAR':
        this.next();
        return { kind: 'clear', pos };
      case 'LOAD': {
        this.next();
        this.expectKeywords('MODULE');
        const name = this.parseName();
        return { kind: 'load-module', name, options: this.acceptKeywords('WITH') ? this.parseProperties() : [], pos };
      }
      case 'UNLOAD':
        this.next();
        this.expectKeywords('MODULE');
        return { kind: 'unload-module', name: this.parseName(), pos };
      case 'ADD':
      case 'REMOVE': {
        this.next();
        this.expectKeywords('JAR');
        return { kind: t.upper === 'ADD' ? 'add-jar' : 'remove-jar', path: this.parseString(), pos };
      }
      case 'TRUNCATE':
        this.next();
        this.expectKeywords('TABLE');
        return { kind: 'truncate-table', name: this.parseObjectName(), pos };
      case 'DELETE': {
        this.next();
        this.expectKeywords('FROM');
        const table = this.parseObjectName();
        return { kind: 'delete', table, where: this.acceptKeywords('WHERE') ? this.parseExpression() : null, pos };
      }
      default:
        for (const k of ['SELECT', 'WITH', 'VALUES', 'CREATE', 'DROP', 'ALTER', 'INSERT', 'EXECUTE', 'EXPLAIN', 'SET', 'RESET', 'USE', 'SHOW', 'DESCRIBE']) this.isKeyword(k);
        throw this.unexpected();
    }
  }

  /**
   * A Flink statement Sluice does not run (see UNSUPPORTED_STATEMENTS), taking the rest of the
   * statement as it is; null, consuming nothing, for anything else.
   */
  private parseUnsupported(): UnsupportedStatement | null {
    for (const [words, name] of UNSUPPORTED_STATEMENTS) {
      let k = 0;
      let matched = true;
      for (const w of words) {
        const optional = w.endsWith('?');
        if (this.isKeywordAt(k, optional ? w.slice(0, -1) : w)) k++;
        else if (!optional) {
          matched = false;
          break;
        }
      }
      // `DESCRIBE job` describes a table named job; `DESCRIBE JOB 'id'` has something after the word.
      const after = this.peek(k);
      if (matched && (words[0] === 'DESCRIBE' || words[0] === 'DESC') && (after.type === 'eof' || after.text === ';' || after.text === '.')) matched = false;
      if (matched) return this.unsupportedStatement(name, k - 1);
    }
    if (this.isKeywordAt(0, 'ALTER') && this.isKeywordAt(1, 'TABLE')) {
      // ALTER TABLE [IF EXISTS] name [PARTITION (...)] COMPACT
      let k = this.isKeywordAt(2, 'IF') && this.isKeywordAt(3, 'EXISTS') ? 4 : 2;
      while (this.peek(k).type === 'word' || this.peek(k).type === 'quoted-ident') {
        k++;
        if (!this.isSymbolAt(k, '.')) break;
        k++;
      }
      if (this.isKeywordAt(k, 'PARTITION') && this.isSymbolAt(k + 1, '(')) {
        k += 2;
        for (let depth = 1; depth > 0 && this.peek(k).type !== 'eof'; k++) {
          if (this.isSymbolAt(k, '(')) depth++;
          else if (this.isSymbolAt(k, ')')) depth--;
        }
      }
      if (this.isKeywordAt(k, 'COMPACT')) return this.unsupportedStatement('ALTER TABLE ... COMPACT', k);
    }
    return null;
  }

  /** Consumes the statement; `lastWord` is the lookahead index of the last word of its name. */
  private unsupportedStatement(name: string, lastWord: number): UnsupportedStatement {
    const first = this.peek();
    const end = this.source.positionAt(this.peek(lastWord).end - 1);
    let last = first;
    while (this.peek().type !== 'eof' && !this.isSymbolAt(0, ';')) last = this.next();
    return { kind: 'unsupported', name, text: this.source.text.slice(first.pos.offset, last.end), pos: first.pos, end };
  }

  private parseQueryStatement(): QueryStatement {
    const pos = this.pos;
    return { kind: 'query', query: this.parseQuery(), pos };
  }

  private parseStatementSetBlock(pos: SourcePosition): StatementSetStatement {
    this.expectKeywords('BEGIN');
    const inserts: InsertStatement[] = [];
    while (!this.acceptKeywords('END')) {
      inserts.push(this.parseInsert());
      this.expectSymbol(';');
    }
    return { kind: 'statement-set', inserts, pos };
  }

  private parseInsert(): InsertStatement {
    const pos = this.expectKeywords('INSERT').pos;
    let overwrite = false;
    if (this.acceptKeywords('OVERWRITE')) overwrite = true;
    else this.expectKeywords('INTO');
    const table = this.parseObjectName();
    const hints = this.parseHints();
    const partition = this.parsePartitionSpec();
    const columns = this.isSymbol('(') && !this.startsQuery(1) ? this.parseParenNameList() : [];
    return { kind: 'insert', overwrite, table, hints, partition, columns, query: this.parseQuery(), pos };
  }

  private parseExplain(): ExplainStatement {
    const pos = this.expectKeywords('EXPLAIN').pos;
    this.acceptKeywords('PLAN', 'FOR');
    const details: ExplainDetail[] = [];
    for (;;) {
      const d = EXPLAIN_DETAILS.find((k) => this.acceptKeywords(k));
      if (d === undefined) break;
      details.push(d);
      if (!this.acceptSymbol(',')) break;
    }
    let statement: ExplainStatement['statement'];
    if (this.isKeyword('INSERT')) statement = this.parseInsert();
    else if (this.isKeyword('STATEMENT') && this.isKeywordAt(1, 'SET')) {
      const setPos = this.pos;
      this.i += 2;
      statement = this.parseStatementSetBlock(setPos);
    } else if (this.isKeyword('EXECUTE') && this.isKeywordAt(1, 'STATEMENT')) {
      const setPos = this.pos;
      this.i += 3;
      statement = this.parseStatementSetBlock(setPos);
    } else statement = this.parseQueryStatement();
    return { kind: 'explain', details, statement, pos };
  }

  /** `SET`, `SET 'k' = 'v'`, and the legacy unquoted `SET k.a.b = value`. */
  private parseSet(): Statement {
    const pos = this.expectKeywords('SET').pos;
    if (this.peek().type === 'eof' || this.isSymbol(';')) return { kind: 'set', key: null, value: null, pos };
    const key = this.isString() ? this.next().value : this.parseRawUntil('=');
    this.expectSymbol('=');
    const value = this.isString() ? this.next().value : this.parseRawUntil(';');
    return { kind: 'set', key, value, pos };
  }

  /** Source text of the tokens up to (not including) a symbol or the end. */
  private parseRawUntil(stop: string): string {
    const start = this.peek();
    if (start.type === 'eof' || this.isSymbol(stop)) throw this.unexpected();
    let last = start;
    while (this.peek().type !== 'eof' && !this.isSymbolAt(0, stop)) last = this.next();
    return this.source.text.slice(start.pos.offset, last.end);
  }

  private parseShow(): ShowStatement | Statement {
    const pos = this.expectKeywords('SHOW').pos;
    if (this.acceptKeywords('CREATE')) {
      const objectType = this.acceptKeywords('MATERIALIZED', 'TABLE')
        ? 'MATERIALIZED TABLE'
        : (['TABLE', 'VIEW', 'CATALOG'] as const).find((k) => this.acceptKeywords(k));
      if (objectType === undefined) throw this.unexpected();
      // A catalog's name has one part, as in Flink's grammar: `SHOW CREATE CATALOG a.b` stops at the dot.
      if (objectType === 'CATALOG') {
        const name = this.parseName();
        return { kind: 'show-create', objectType, name: { parts: [name.value], pos: name.pos, end: this.lastEnd }, pos };
      }
      return { kind: 'show-create', objectType, name: this.parseObjectName(), pos };
    }
    const found = SHOW_OBJECTS.find(([, words]) => this.acceptKeywords(...words));
    if (found === undefined) throw this.unexpected();
    const object = found[0];
    let from: ShowStatement['from'] = null;
    if (object !== 'CURRENT CATALOG' && object !== 'CURRENT DATABASE') {
      if (this.acceptKeywords('FROM')) from = { preposition: 'FROM', name: this.parseObjectName() };
      else if (this.acceptKeywords('IN')) from = { preposition: 'IN', name: this.parseObjectName() };
    }
    if (object === 'DATABASES' && from !== null && from.name.parts.length > 1) {
      // Flink's parser refuses it with these words (SqlShowDatabases).
      throw this.errorAt(
        from.name.pos,
        `Show databases from/in identifier [ ${from.name.parts.join('.')} ] format error, catalog must be a single part identifier.`,
      );
    }
    let like: ShowStatement['like'] = null;
    const negated = this.isKeyword('NOT') && (this.isKeywordAt(1, 'LIKE') || this.isKeywordAt(1, 'ILIKE'));
    if (negated) this.next();
    if (this.acceptKeywords('LIKE')) like = { negated, caseInsensitive: false, pattern: this.parseString() };
    else if (this.acceptKeywords('ILIKE')) like = { negated, caseInsensitive: true, pattern: this.parseString() };
    if (object === 'COLUMNS' && from === null) {
      this.isKeyword('FROM');
      this.isKeyword('IN');
      throw this.unexpected();
    }
    return { kind: 'show', object, from, like, pos };
  }
}
