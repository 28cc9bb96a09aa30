import type {
  AlterCatalogStatement,
  AlterTableAction,
  ColumnPosition,
  DdlStatement,
  LikeClause,
  LikeOption,
  PrimaryKeyDefinition,
  SchemaChange,
  TableColumn,
  WatermarkDefinition,
} from '../ast/ddl.js';
import type { SourcePosition } from '../position.js';
import { QueryParser } from './query-parser.js';

const LIKE_FEATURES = ['ALL', 'CONSTRAINTS', 'GENERATED', 'METADATA', 'OPTIONS', 'PARTITIONS', 'WATERMARKS'] as const;

/** CREATE, DROP and ALTER of tables, views, catalogs, databases and functions. */
export abstract class DdlParser extends QueryParser {
  /** At CREATE. */
  protected parseCreate(): DdlStatement {
    const pos = this.expectKeywords('CREATE').pos;
    let scope: 'catalog' | 'temporary' | 'temporary-system' = 'catalog';
    if (this.acceptKeywords('TEMPORARY')) scope = this.acceptKeywords('SYSTEM') ? 'temporary-system' : 'temporary';
    if (this.acceptKeywords('FUNCTION')) return this.parseCreateFunction(scope, pos);
    if (scope === 'temporary-system') {
      this.isKeyword('FUNCTION');
      throw this.unexpected();
    }
    const temporary = scope === 'temporary';
    if (this.acceptKeywords('TABLE')) return this.parseCreateTable(temporary, pos);
    if (this.acceptKeywords('VIEW')) {
      const ifNotExists = this.parseIfNotExists();
      const name = this.parseObjectName();
      const columns = this.isSymbol('(') ? this.parseParenNameList() : [];
      const comment = this.parseCommentClause();
      this.expectKeywords('AS');
      return { kind: 'create-view', temporary, ifNotExists, name, columns, comment, query: this.parseQuery(), pos };
    }
    if (!temporary && this.acceptKeywords('CATALOG')) {
      const ifNotExists = this.parseIfNotExists();
      const name = this.parseName();
      const comment = this.parseCommentClause();
      this.expectKeywords('WITH');
      return { kind: 'create-catalog', ifNotExists, name, comment, options: this.parseProperties(), pos };
    }
    if (!temporary && this.acceptKeywords('DATABASE')) {
      const ifNotExists = this.parseIfNotExists();
      const name = this.parseObjectName();
      const comment = this.parseCommentClause();
      const options = this.acceptKeywords('WITH') ? this.parseProperties() : [];
      return { kind: 'create-database', ifNotExists, name, comment, options, pos };
    }
    throw this.unexpected();
  }

  private parseCreateFunction(scope: 'catalog' | 'temporary' | 'temporary-system', pos: SourcePosition): DdlStatement {
    const ifNotExists = this.parseIfNotExists();
    const name = this.parseObjectName();
    this.expectKeywords('AS');
    const className = this.parseString();
    let language: 'JAVA' | 'SCALA' | 'PYTHON' | 'JAVASCRIPT' | 'SQL' | null = null;
    if (this.acceptKeywords('LANGUAGE')) {
      for (const l of ['JAVA', 'SCALA', 'PYTHON', 'JAVASCRIPT', 'SQL'] as const) {
        if (this.acceptKeywords(l)) {
          language = l;
          break;
        }
      }
      if (language === null) throw this.unexpected();
    }
    const jars: string[] = [];
    if (this.acceptKeywords('USING')) {
      do {
        this.expectKeywords('JAR');
        jars.push(this.parseString());
      } while (this.acceptSymbol(','));
    }
    return { kind: 'create-function', scope, ifNotExists, name, className, language, jars, pos };
  }

  private parseCreateTable(temporary: boolean, pos: SourcePosition): DdlStatement {
    const ifNotExists = this.parseIfNotExists();
    const name = this.parseObjectName();
    const columns: TableColumn[] = [];
    const watermarks: WatermarkDefinition[] = [];
    let primaryKey: PrimaryKeyDefinition | null = null;
    const setPrimaryKey = (pk: PrimaryKeyDefinition): void => {
      if (primaryKey !== null) throw this.errorAt(pk.pos, 'Duplicate primary key definition');
      primaryKey = pk;
    };
    if (this.acceptSymbol('(')) {
      do {
        const change = this.parseSchemaElement(false);
        if (change.kind === 'column') {
          columns.push(change.column);
          if (change.inlineKey !== null) setPrimaryKey(change.inlineKey);
        } else if (change.kind === 'watermark') watermarks.push(change.watermark);
        else setPrimaryKey(change.primaryKey);
      } while (this.acceptSymbol(','));
      this.expectSymbol(')');
    }
    const comment = this.parseCommentClause();
    const partitionedBy = this.acceptKeywords('PARTITIONED', 'BY') ? this.parseParenNameList() : [];
    const options = this.acceptKeywords('WITH') ? this.parseProperties() : [];
    let like: LikeClause | null = null;
    if (this.isKeyword('LIKE')) {
      const likePos = this.next().pos;
      const source = this.parseObjectName();
      const likeOptions: LikeOption[] = [];
      if (this.acceptSymbol('(')) {
        while (!this.acceptSymbol(')')) {
          let strategy: LikeOption['strategy'] | null = null;
          for (const s of ['INCLUDING', 'EXCLUDING', 'OVERWRITING'] as const) {
            if (this.acceptKeywords(s)) {
              strategy = s;
              break;
            }
          }
          if (strategy === null) throw this.unexpected();
          const feature = LIKE_FEATURES.find((f) => this.acceptKeywords(f));
          if (feature === undefined) throw this.unexpected();
          likeOptions.push({ strategy, feature });
          this.acceptSymbol(',');
        }
      }
      like = { source, options: likeOptions, pos: likePos };
    }
    const asQuery = this.acceptKeywords('AS') ? this.parseQuery() : null;
    return {
      kind: 'create-table',
      temporary,
      ifNotExists,
      name,
      columns,
      watermarks,
      primaryKey,
      comment,
      partitionedBy,
      options,
      like,
      asQuery,
      pos,
    };
  }

  /**
   * One element of a CREATE TABLE list or ALTER TABLE ADD/MODIFY: a column (with an inline PRIMARY
   * KEY returned apart), WATERMARK FOR, or [CONSTRAINT n] PRIMARY KEY. `withPosition` allows FIRST/AFTER.
   */
  private parseSchemaElement(withPosition: boolean):
    | { kind: 'column'; column: TableColumn; inlineKey: PrimaryKeyDefinition | null; position: ColumnPosition | null }
    | { kind: 'watermark'; watermark: WatermarkDefinition }
    | { kind: 'primary-key'; primaryKey: PrimaryKeyDefinition } {
    const pos = this.pos;
    if (this.isKeyword('WATERMARK') && this.isKeywordAt(1, 'FOR')) {
      this.i += 2;
      const column = this.parseObjectName().parts;
      this.expectKeywords('AS');
      return { kind: 'watermark', watermark: { column, expr: this.parseExpression(), pos } };
    }
    if (this.isKeyword('CONSTRAINT') || this.isKeyword('PRIMARY')) {
      const constraintName = this.acceptKeywords('CONSTRAINT') ? this.parseName().value : null;
      this.expectKeywords('PRIMARY', 'KEY');
      const columns = this.parseParenNameList();
      return { kind: 'primary-key', primaryKey: { constraintName, columns, enforced: !this.parseNotEnforced(), pos } };
    }
    const name = this.parseName();
    let column: TableColumn;
    let inlineKey: PrimaryKeyDefinition | null = null;
    if (this.acceptKeywords('AS')) {
      const expr = this.parseExpression();
      column = { kind: 'computed', name, expr, comment: this.parseCommentClause(), pos };
    } else {
      const type = this.parseDataType();
      if (this.acceptKeywords('METADATA')) {
        const metadataKey = this.acceptKeywords('FROM') ? this.parseString() : null;
        const virtual = this.acceptKeywords('VIRTUAL');
        column = { kind: 'metadata', name, type, metadataKey, virtual, comment: this.parseCommentClause(), pos };
      } else {
        let comment = this.parseCommentClause();
        if (this.isKeyword('CONSTRAINT') || this.isKeyword('PRIMARY')) {
          const keyPos = this.pos;
          const constraintName = this.acceptKeywords('CONSTRAINT') ? this.parseName().value : null;
          this.expectKeywords('PRIMARY', 'KEY');
          inlineKey = { constraintName, columns: [name], enforced: !this.parseNotEnforced(), pos: keyPos };
        }
        comment ??= this.parseCommentClause();
        column = { kind: 'physical', name, type, comment, pos };
      }
    }
    let position: ColumnPosition | null = null;
    if (withPosition) {
      if (this.acceptKeywords('FIRST')) position = { kind: 'first' };
      else if (this.acceptKeywords('AFTER')) position = { kind: 'after', column: this.parseName() };
    }
    return { kind: 'column', column, inlineKey, position };
  }

  private parseNotEnforced(): boolean {
    return this.acceptKeywords('NOT', 'ENFORCED');
  }

  /** At DROP. */
  protected parseDrop(): DdlStatement {
    const pos = this.expectKeywords('DROP').pos;
    let scope: 'catalog' | 'temporary' | 'temporary-system' = 'catalog';
    if (this.acceptKeywords('TEMPORARY')) scope = this.acceptKeywords('SYSTEM') ? 'temporary-system' : 'temporary';
    const types = scope === 'catalog' ? (['TABLE', 'VIEW', 'FUNCTION', 'DATABASE', 'CATALOG'] as const) : (['TABLE', 'VIEW', 'FUNCTION'] as const);
    const objectType = types.find((t) => this.acceptKeywords(t));
    if (objectType === undefined) throw this.unexpected();
    const ifExists = this.parseIfExists();
    const name = this.parseObjectName();
    let behavior: 'RESTRICT' | 'CASCADE' | null = null;
    if (objectType === 'DATABASE') {
      if (this.acceptKeywords('RESTRICT')) behavior = 'RESTRICT';
      else if (this.acceptKeywords('CASCADE')) behavior = 'CASCADE';
    }
    return { kind: 'drop', objectType, scope, ifExists, name, behavior, pos };
  }

  /** At ALTER. */
  protected parseAlter(): DdlStatement {
    const pos = this.expectKeywords('ALTER').pos;
    if (this.acceptKeywords('VIEW')) {
      const name = this.parseObjectName();
      if (this.acceptKeywords('RENAME', 'TO')) return { kind: 'alter-view', name, action: { kind: 'rename', newName: this.parseObjectName() }, pos };
      this.expectKeywords('AS');
      return { kind: 'alter-view', name, action: { kind: 'as-query', query: this.parseQuery() }, pos };
    }
    if (this.acceptKeywords('CATALOG')) return { kind: 'alter-catalog', name: this.parseName(), action: this.parseAlterCatalogAction(), pos };
    if (this.acceptKeywords('DATABASE')) {
      const name = this.parseObjectName();
      this.expectKeywords('SET');
      return { kind: 'alter-database', name, options: this.parseProperties(), pos };
    }
    this.expectKeywords('TABLE');
    const ifExists = this.parseIfExists();
    const name = this.parseObjectName();
    return { kind: 'alter-table', ifExists, name, action: this.parseAlterTableAction(), pos };
  }

  private parseAlterCatalogAction(): AlterCatalogStatement['action'] {
    if (this.acceptKeywords('SET')) return { kind: 'set-options', options: this.parseProperties() };
    if (this.acceptKeywords('RESET')) return { kind: 'reset-options', keys: this.parseResetKeys() };
    this.expectKeywords('COMMENT');
    return { kind: 'comment', comment: this.parseString() };
  }

  /** `('k1', 'k2')`; an empty list parses, so that ALTER ... RESET () fails as in Flink, with its message. */
  private parseResetKeys(): string[] {
    this.expectSymbol('(');
    const keys: string[] = [];
    if (!this.isSymbol(')')) {
      keys.push(this.parseString());
      while (this.acceptSymbol(',')) keys.push(this.parseString());
    }
    this.expectSymbol(')');
    return keys;
  }

  private parseAlterTableAction(): AlterTableAction {
    if (this.acceptKeywords('RENAME')) {
      if (this.acceptKeywords('TO')) return { kind: 'rename', newName: this.parseObjectName() };
      const from = this.parseName();
      this.expectKeywords('TO');
      return { kind: 'rename-column', from, to: this.parseName() };
    }
    if (this.acceptKeywords('SET')) return { kind: 'set-options', options: this.parseProperties() };
    if (this.acceptKeywords('RESET')) return { kind: 'reset-options', keys: this.parseResetKeys() };
    for (const k of ['ADD', 'MODIFY'] as const) {
      if (this.acceptKeywords(k)) {
        const changes: SchemaChange[] = [];
        const paren = this.acceptSymbol('(');
        do changes.push(...this.toSchemaChanges(this.parseSchemaElement(true)));
        while (paren && this.acceptSymbol(','));
        if (paren) this.expectSymbol(')');
        return { kind: k === 'ADD' ? 'add' : 'modify', changes };
      }
    }
    this.expectKeywords('DROP');
    if (this.acceptKeywords('PRIMARY', 'KEY')) return { kind: 'drop-primary-key' };
    if (this.acceptKeywords('WATERMARK')) return { kind: 'drop-watermark' };
    if (this.acceptKeywords('CONSTRAINT')) return { kind: 'drop-constraint', name: this.parseName() };
    if (this.isSymbol('(')) return { kind: 'drop-columns', columns: this.parseParenNameList() };
    return { kind: 'drop-columns', columns: [this.parseName()] };
  }

  /** An inline `PRIMARY KEY` on an added column becomes a column change plus a primary-key change. */
  private toSchemaChanges(el: ReturnType<DdlParser['parseSchemaElement']>): SchemaChange[] {
    switch (el.kind) {
      case 'column': {
        const column: SchemaChange = { kind: 'column', column: el.column, position: el.position };
        return el.inlineKey === null ? [column] : [column, { kind: 'primary-key', primaryKey: el.inlineKey }];
      }
      case 'watermark':
        return [{ kind: 'watermark', watermark: el.watermark }];
      case 'primary-key':
        return [{ kind: 'primary-key', primaryKey: el.primaryKey }];
    }
  }
}
