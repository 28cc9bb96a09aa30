/**
 * What `CREATE CATALOG` said about a catalog (Flink's `CatalogDescriptor`): its name, its `WITH` options (`type`
 * among them) and its comment. The catalog manager keeps one per created catalog, as Flink's catalog store does, so
 * that DESCRIBE CATALOG and SHOW CREATE CATALOG can print it and ALTER CATALOG can build the catalog anew from a
 * changed copy. A catalog registered in code (the session's own `default_catalog`) has none, as in Flink.
 */
export interface CatalogDescriptor {
  readonly name: string;
  readonly options: Readonly<Record<string, string>>;
  /** Null when CREATE CATALOG had no COMMENT; `''` after `ALTER CATALOG c COMMENT ''`. */
  readonly comment: string | null;
}

/** One ALTER CATALOG: `SET (...)` adds or replaces options, `RESET (...)` removes keys, `COMMENT '...'` replaces the comment. */
export type CatalogChange =
  | { readonly kind: 'set-options'; readonly options: Readonly<Record<string, string>> }
  | { readonly kind: 'reset-options'; readonly keys: readonly string[] }
  | { readonly kind: 'comment'; readonly comment: string };

/** The descriptor after `change`, as Flink's CatalogChange.applyChange makes it; `descriptor` is left as it was. */
export function applyCatalogChange(descriptor: CatalogDescriptor, change: CatalogChange): CatalogDescriptor {
  switch (change.kind) {
    case 'set-options':
      return { ...descriptor, options: { ...descriptor.options, ...change.options } };
    case 'reset-options': {
      const options = { ...descriptor.options };
      for (const key of change.keys) delete options[key];
      return { ...descriptor, options };
    }
    case 'comment':
      return { ...descriptor, comment: change.comment };
  }
}
