import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { ConnectorError } from '../../../errors/sluice-error.js';

/**
 * How the client proves who it is and whom it trusts, as the Flink connector's `security.*` options say it. TLS itself
 * is switched on by the controller URI's scheme (`tls://` or `ssl://`), as in the Java client, and then applies to the
 * controller and to every segment store.
 */
export interface PravegaSecurity {
  /** Sent as `Authorization: <type> <token>` on every controller call, e.g. Basic + base64("user:password"). */
  readonly auth?: { readonly type: string; readonly token: string };
  /** Path of a PEM file with the CA certificate(s) to trust; without it Node's default CAs are trusted. */
  readonly trustStore?: string;
  /** Check that the server certificate names the host connected to (default true). */
  readonly validateHostname?: boolean;
}

/** TLS settings shared by the gRPC channel and the segment store sockets; undefined means plaintext. */
export interface TlsSettings {
  /** PEM text of the trusted CAs, or undefined for Node's defaults. */
  readonly ca: Buffer | undefined;
  readonly validateHostname: boolean;
}

/** True for `tls://` and `ssl://` controller URIs. */
export function isTlsUri(uri: string): boolean {
  return /^(tls|ssl):\/\//i.test(uri.trim());
}

/**
 * Reads the trust store once per client. Rejects (ConnectorError) a missing file or one without a PEM certificate:
 * Flink's option may point at a JKS file, which Node cannot read, and saying so beats a handshake failure later.
 */
export function tlsSettingsFor(controllerUri: string, security: PravegaSecurity | undefined): TlsSettings | undefined {
  if (!isTlsUri(controllerUri)) return undefined;
  let ca: Buffer | undefined;
  const path = security?.trustStore;
  if (path !== undefined) {
    try {
      ca = readFileSync(path);
    } catch (e) {
      throw new ConnectorError(`cannot read the Pravega trust store '${path}' ('security.trust-store'): ${(e as Error).message}`, { cause: e });
    }
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
      throw new ConnectorError(`the Pravega trust store '${path}' ('security.trust-store') holds no PEM certificate; Sluice reads PEM CA files, not JKS`);
    }
  }
  return { ca, validateHostname: security?.validateHostname ?? true };
}

/** node:tls options for a segment store socket (server name only for host names; SNI forbids IP literals). */
export function segmentStoreTlsOptions(tls: TlsSettings, host: string): ConnectionOptions {
  const isIp = /^[\d.]+$/.test(host) || host.includes(':');
  return {
    host,
    ...(isIp ? {} : { servername: host }),
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.validateHostname ? {} : { checkServerIdentity: () => undefined }),
  };
}

/** The gRPC `authorization` metadata value, or undefined without auth. */
export function authorizationValue(security: PravegaSecurity | undefined): string | undefined {
  const auth = security?.auth;
  return auth === undefined ? undefined : `${auth.type} ${auth.token}`;
}

/** `AuthTokenCheckFailed.errorCode` of an expired delegation token: renew it and retry. */
export const TOKEN_EXPIRED = 1;

/** What to tell the user when the segment store refused the delegation token for good. */
export function tokenRefusedMessage(what: string, segment: string, errorCode: number): string {
  const why = errorCode === TOKEN_EXPIRED ? 'it expired' : 'it grants no access to this stream';
  return `Pravega segment store refused the delegation token to ${what} ${segment} (${why}); check the rights of the user in 'security.auth-token'`;
}
