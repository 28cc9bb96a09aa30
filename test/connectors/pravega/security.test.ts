import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DelegationTokenCache, tokenExpiry } from '../../../src/connectors/pravega/client/delegation-tokens.js';
import { authorizationValue, isTlsUri, segmentStoreTlsOptions, tlsSettingsFor } from '../../../src/connectors/pravega/client/security.js';
import { parseControllerUri } from '../../../src/connectors/pravega/client/index.js';

const dir = mkdtempSync(join(tmpdir(), 'sluice-pravega-sec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function jwt(claims: object): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'HS512' })}.${part(claims)}.c2ln`;
}

describe('Pravega client TLS settings', () => {
  it('turns TLS on by the URI scheme only', () => {
    expect(isTlsUri('tls://h:1')).toBe(true);
    expect(isTlsUri('SSL://h:1')).toBe(true);
    expect(isTlsUri('tcp://h:1')).toBe(false);
    expect(tlsSettingsFor('tcp://h:1', { trustStore: '/nonexistent' })).toBeUndefined();
    expect(tlsSettingsFor('tls://h:1', undefined)).toEqual({ ca: undefined, validateHostname: true });
    expect(parseControllerUri('tls://127.0.0.1:9190')).toEqual({ host: '127.0.0.1', port: 9190 });
  });

  it('reads a PEM trust store and refuses a missing or non-PEM one with the option named', () => {
    const pem = join(dir, 'ca.pem');
    writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const s = tlsSettingsFor('tls://h:1', { trustStore: pem, validateHostname: false })!;
    expect(s.ca?.toString()).toContain('BEGIN CERTIFICATE');
    expect(s.validateHostname).toBe(false);
    expect(() => tlsSettingsFor('tls://h:1', { trustStore: join(dir, 'nope.pem') })).toThrow(/cannot read the Pravega trust store .*security.trust-store/);
    const jks = join(dir, 'store.jks');
    writeFileSync(jks, Buffer.from([0xfe, 0xed, 0xfe, 0xed, 0, 0, 0, 2]));
    expect(() => tlsSettingsFor('tls://h:1', { trustStore: jks })).toThrow(/holds no PEM certificate.*not JKS/);
  });

  it('sends SNI only for host names and skips the identity check when asked', () => {
    const tls = { ca: Buffer.from('x'), validateHostname: true };
    expect(segmentStoreTlsOptions(tls, 'localhost')).toMatchObject({ host: 'localhost', servername: 'localhost', ca: tls.ca });
    expect(segmentStoreTlsOptions(tls, '127.0.0.1')).not.toHaveProperty('servername');
    expect(segmentStoreTlsOptions(tls, 'h')).not.toHaveProperty('checkServerIdentity');
    const lax = segmentStoreTlsOptions({ ca: undefined, validateHostname: false }, 'h');
    expect(lax.checkServerIdentity?.('h', {} as never)).toBeUndefined();
    expect(lax).not.toHaveProperty('ca');
  });

  it('builds the Authorization value as "<type> <token>"', () => {
    expect(authorizationValue({ auth: { type: 'Basic', token: 'YQ==' } })).toBe('Basic YQ==');
    expect(authorizationValue({})).toBeUndefined();
  });
});

describe('delegation tokens', () => {
  it('reads the JWT exp claim, Infinity for anything else', () => {
    expect(tokenExpiry(jwt({ sub: 'admin', exp: 1_700_000_000 }))).toBe(1_700_000_000_000);
    expect(tokenExpiry('')).toBe(Infinity);
    expect(tokenExpiry('a.b.c')).toBe(Infinity);
  });

  it('shares one fetch per stream and access, renews near expiry and after invalidate, forgets failures', async () => {
    const calls: string[] = [];
    let exp = Math.floor(Date.now() / 1000) + 3600;
    let fail = false;
    const cache = new DelegationTokenCache(async (scope, stream, access) => {
      calls.push(`${scope}/${stream}/${access}`);
      if (fail) throw new Error('down');
      return jwt({ exp });
    });
    const [a, b] = await Promise.all([cache.get('s', 't', 'READ'), cache.get('s', 't', 'READ')]);
    expect(a).toBe(b);
    await cache.get('s', 't', 'WRITE');
    expect(calls).toEqual(['s/t/READ', 's/t/WRITE']);
    cache.invalidate('s', 't');
    await cache.get('s', 't', 'READ');
    expect(calls).toHaveLength(3);
    // A token within the renewal margin of its expiry is fetched again on the next call.
    exp = Math.floor(Date.now() / 1000) + 5;
    cache.invalidate('s', 't');
    await cache.get('s', 't', 'READ');
    await cache.get('s', 't', 'READ');
    expect(calls).toHaveLength(5);
    fail = true;
    cache.invalidate('s', 't');
    await expect(cache.get('s', 't', 'READ')).rejects.toThrow('down');
    fail = false;
    exp = Math.floor(Date.now() / 1000) + 3600;
    await expect(cache.get('s', 't', 'READ')).resolves.toContain('.');
  });
});
