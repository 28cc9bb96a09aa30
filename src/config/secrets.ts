/** What a secret value is shown as in errors, SET listings and logs. */
export const SECRET_MASK = '******';

/**
 * Key fragments that mark a value as secret, as Flink's `GlobalConfiguration.SENSITIVE_KEYS`
 * (password, secret, token, sasl.jaas.config, security.auth-token, ...). Matched case-insensitively.
 */
const SENSITIVE_FRAGMENTS = [
  'password',
  'secret',
  'token',
  'jaas.config',
  'apikey',
  'api-key',
  'auth-params',
  'service-key',
  'basic-auth',
  'http-headers',
  'fs.azure.account.key',
] as const;

/** True when values of `key` must never be shown (e.g. `properties.sasl.jaas.config`, `security.auth-token`). */
export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase();
  return SENSITIVE_FRAGMENTS.some((f) => k.includes(f));
}

/** A copy of `options` with every secret value replaced by `******`. */
export function maskSecrets(options: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(options)) out[k] = isSecretKey(k) ? SECRET_MASK : v;
  return out;
}

/** `'key' = 'value'` in SQL text (WITH clauses, OPTIONS hints), with `''` as an escaped quote. */
const SQL_OPTION = /'((?:[^']|'')*)'(\s*=\s*)'((?:[^']|'')*)'/g;

/**
 * SQL text with the value of every secret option in it (`'password' = '...'` in a WITH clause or an
 * OPTIONS hint) replaced by `******`, for showing a job's statement where its options would otherwise leak.
 */
export function maskSqlSecrets(sql: string): string {
  return sql.replace(SQL_OPTION, (whole, key: string, eq: string) => (isSecretKey(key.replaceAll("''", "'")) ? `'${key}'${eq}'${SECRET_MASK}'` : whole));
}
