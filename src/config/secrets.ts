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
