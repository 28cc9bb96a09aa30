/** What a delegation token lets its holder do on a stream's segments (`StreamInfo.AccessOperation`). */
export type AccessOperation = 'READ' | 'WRITE' | 'READ_WRITE';

/** Renew this long before the token's `exp`, so a request never carries a token that expires in flight. */
const RENEW_BEFORE_MS = 30_000;

interface Entry {
  readonly token: Promise<string>;
  /** Epoch ms after which the token is fetched again; Infinity for tokens without expiry (auth off: empty). */
  expiresAt: number;
}

/** Expiry (epoch ms) of a JWT from its `exp` claim, or Infinity when it is not a JWT or has none. */
export function tokenExpiry(token: string): number {
  const parts = token.split('.');
  if (parts.length !== 3) return Infinity;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : Infinity;
  } catch {
    return Infinity;
  }
}

/**
 * The delegation tokens the controller hands out per stream (getDelegationToken) and the segment store checks on
 * SetupAppend, ReadSegment and GetStreamSegmentInfo, as the Java client's `DelegationTokenProvider` keeps them: one
 * per stream and access, shared by concurrent callers, renewed shortly before the JWT's `exp` or when the store
 * reports it expired. A failed fetch is not cached.
 */
export class DelegationTokenCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly fetch: (scope: string, stream: string, access: AccessOperation) => Promise<string>) {}

  /** The current token; awaits the controller only on the first call and on renewal. Called per request, not per event. */
  get(scope: string, stream: string, access: AccessOperation): Promise<string> {
    const key = `${scope}/${stream}/${access}`;
    const hit = this.entries.get(key);
    if (hit !== undefined && Date.now() < hit.expiresAt) return hit.token;
    const entry: Entry = { token: this.fetch(scope, stream, access), expiresAt: Infinity };
    this.entries.set(key, entry);
    entry.token.then(
      (t) => void (entry.expiresAt = tokenExpiry(t) - RENEW_BEFORE_MS),
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.token;
  }

  /** Drops the stream's tokens (the segment store said one expired); the next `get` fetches anew. */
  invalidate(scope: string, stream: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(`${scope}/${stream}/`)) this.entries.delete(key);
  }
}
