import { RowKind } from '../types/row-kind.js';

/**
 * The set of row kinds a source produces or a sink accepts (Flink's `ChangelogMode`).
 * Kept as a bit set so the planner can compare modes without allocating.
 */
export class ChangelogMode {
  private constructor(private readonly bits: number) {}

  static insertOnly(): ChangelogMode {
    return INSERT_ONLY;
  }

  /**
   * {+I, +U, -D}: updates by key without -U, idempotent on the primary key; a -D may carry only the key (a Kafka
   * tombstone). A source in this mode is read through a ChangelogNormalize wherever a consumer needs -U or the
   * full deleted row (planner/rules/changelog-normalize.ts), as in Flink.
   */
  static upsert(): ChangelogMode {
    return UPSERT;
  }

  /** {+I, -U, +U, -D}. */
  static all(): ChangelogMode {
    return ALL;
  }

  static of(...kinds: RowKind[]): ChangelogMode {
    let bits = 0;
    for (const k of kinds) bits |= 1 << k;
    return new ChangelogMode(bits);
  }

  contains(kind: RowKind): boolean {
    return (this.bits & (1 << kind)) !== 0;
  }

  containsOnly(kind: RowKind): boolean {
    return this.bits === 1 << kind;
  }

  isInsertOnly(): boolean {
    return this.containsOnly(RowKind.INSERT);
  }

  /** True if every kind of `other` is also in this mode. */
  includes(other: ChangelogMode): boolean {
    return (this.bits & other.bits) === other.bits;
  }

  equals(other: ChangelogMode): boolean {
    return this.bits === other.bits;
  }

  /** `[I,UB,UA,D]` as Flink's EXPLAIN CHANGELOG_MODE prints it. */
  toString(): string {
    const names = ['I', 'UB', 'UA', 'D'].filter((_, k) => this.contains(k as RowKind));
    return `[${names.join(',')}]`;
  }
}

const INSERT_ONLY = ChangelogMode.of(RowKind.INSERT);
const UPSERT = ChangelogMode.of(RowKind.INSERT, RowKind.UPDATE_AFTER, RowKind.DELETE);
const ALL = ChangelogMode.of(RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE);
