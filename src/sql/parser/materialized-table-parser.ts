import type { PrimaryKeyDefinition } from '../ast/ddl.js';
import type {
  AlterMaterializedTableStatement,
  CreateMaterializedTableStatement,
  DropMaterializedTableStatement,
  FreshnessClause,
  FreshnessUnit,
  RefreshMode,
} from '../ast/materialized-table.js';
import type { PartitionSpecEntry } from '../ast/statements.js';
import { DdlParser } from './ddl-parser.js';

const FRESHNESS_UNITS: readonly FreshnessUnit[] = ['SECOND', 'MINUTE', 'HOUR', 'DAY'];
/** Interval units Flink's parser reads but its materialized tables refuse, so they get that message, not a parse error. */
const OTHER_INTERVAL_UNITS = ['YEAR', 'MONTH', 'WEEK', 'QUARTER', 'MILLISECOND', 'MICROSECOND', 'NANOSECOND'];

/** CREATE [OR ALTER] / DROP / ALTER MATERIALIZED TABLE, in Flink 2.3's grammar (SqlCreateMaterializedTable and friends). */
export abstract class MaterializedTableParser extends DdlParser {
  /** Whether the statement ahead is one of the materialized table statements this parser reads. */
  protected atMaterializedTable(): boolean {
    if (this.isKeyword('CREATE') && this.isKeywordAt(1, 'OR') && this.isKeywordAt(2, 'ALTER')) return this.isKeywordAt(3, 'MATERIALIZED') && this.isKeywordAt(4, 'TABLE');
    return (this.isKeyword('CREATE') || this.isKeyword('DROP') || this.isKeyword('ALTER')) && this.isKeywordAt(1, 'MATERIALIZED') && this.isKeywordAt(2, 'TABLE');
  }

  /** At CREATE / DROP / ALTER MATERIALIZED TABLE. */
  protected parseMaterializedTable(): CreateMaterializedTableStatement | DropMaterializedTableStatement | AlterMaterializedTableStatement {
    const verb = this.next();
    const orAlter = verb.upper === 'CREATE' && this.acceptKeywords('OR', 'ALTER');
    this.expectKeywords('MATERIALIZED', 'TABLE');
    const pos = verb.pos;
    switch (verb.upper) {
      case 'CREATE':
        return this.parseCreateMaterializedTable(pos, orAlter);
      case 'DROP': {
        const ifExists = this.parseIfExists();
        return { kind: 'drop-materialized-table', ifExists, name: this.parseObjectName(), pos };
      }
      default:
        return this.parseAlterMaterializedTable(pos);
    }
  }

  private parseCreateMaterializedTable(pos: CreateMaterializedTableStatement['pos'], orAlter: boolean): CreateMaterializedTableStatement {
    const name = this.parseObjectName();
    let primaryKey: PrimaryKeyDefinition | null = null;
    if (this.acceptSymbol('(')) {
      // Flink 2.3 takes a table constraint here, not columns: the columns come from the query.
      const keyPos = this.pos;
      const constraintName = this.acceptKeywords('CONSTRAINT') ? this.parseName().value : null;
      this.expectKeywords('PRIMARY', 'KEY');
      const columns = this.parseParenNameList();
      primaryKey = { constraintName, columns, enforced: !this.acceptKeywords('NOT', 'ENFORCED'), pos: keyPos };
      this.expectSymbol(')');
    }
    const comment = this.parseCommentClause();
    const partitionedBy = this.acceptKeywords('PARTITIONED', 'BY') ? this.parseParenNameList() : [];
    const options = this.acceptKeywords('WITH') ? this.parseProperties() : [];
    const freshness = this.acceptKeywords('FRESHNESS') ? this.parseFreshness() : null;
    let refreshMode: RefreshMode | null = null;
    if (this.acceptKeywords('REFRESH_MODE')) {
      this.expectSymbol('=');
      refreshMode = this.acceptKeywords('CONTINUOUS') ? 'CONTINUOUS' : this.acceptKeywords('FULL') ? 'FULL' : null;
      if (refreshMode === null) throw this.unexpected();
    }
    this.expectKeywords('AS');
    return { kind: 'create-materialized-table', orAlter, name, primaryKey, comment, partitionedBy, options, freshness, refreshMode, query: this.parseQuery(), pos };
  }

  /** `= INTERVAL '<num>' unit` after FRESHNESS; the number must be a positive integer, as Flink requires. */
  private parseFreshness(): FreshnessClause {
    this.expectSymbol('=');
    const pos = this.expectKeywords('INTERVAL').pos;
    const numberPos = this.pos;
    const interval = this.parseString();
    const unitToken = this.peek();
    const unit = FRESHNESS_UNITS.find((u) => this.acceptKeywords(u));
    if (unit === undefined) {
      if (unitToken.type === 'word' && OTHER_INTERVAL_UNITS.includes(unitToken.upper)) {
        throw this.errorAt(unitToken.pos, `Materialized table freshness only supports SECOND, MINUTE, HOUR and DAY as the time unit, not ${unitToken.upper}.`);
      }
      throw this.unexpected();
    }
    if (!/^[0-9]+$/.test(interval.trim()) || Number(interval) <= 0) {
      throw this.errorAt(numberPos, `Materialized table freshness must be a positive integer number of ${unit.toLowerCase()}s, but is '${interval}'.`);
    }
    return { interval: String(Number(interval)), unit, pos };
  }

  private parseAlterMaterializedTable(pos: AlterMaterializedTableStatement['pos']): AlterMaterializedTableStatement {
    const name = this.parseObjectName();
    if (this.acceptKeywords('SUSPEND')) return { kind: 'alter-materialized-table', name, action: { kind: 'suspend' }, pos };
    if (this.acceptKeywords('RESUME')) {
      const options = this.acceptKeywords('WITH') ? this.parseProperties() : [];
      return { kind: 'alter-materialized-table', name, action: { kind: 'resume', options }, pos };
    }
    if (this.acceptKeywords('AS')) return { kind: 'alter-materialized-table', name, action: { kind: 'as-query', query: this.parseQuery() }, pos };
    this.expectKeywords('REFRESH');
    const partition = this.parsePartitionSpec();
    return { kind: 'alter-materialized-table', name, action: { kind: 'refresh', partition }, pos };
  }

  /** `[PARTITION (col = value, ...)]` of INSERT and ALTER MATERIALIZED TABLE ... REFRESH; empty when absent. */
  protected parsePartitionSpec(): PartitionSpecEntry[] {
    const partition: PartitionSpecEntry[] = [];
    if (!this.acceptKeywords('PARTITION')) return partition;
    this.expectSymbol('(');
    do {
      const column = this.parseName();
      this.expectSymbol('=');
      partition.push({ column, value: this.parseExpression() });
    } while (this.acceptSymbol(','));
    this.expectSymbol(')');
    return partition;
  }
}
