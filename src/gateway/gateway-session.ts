import type { Row } from '../types/row.js';
import type { GatewayClient } from './gateway-client.js';
import { GatewayOperation } from './gateway-operation.js';
import { ResultDecoder } from './result-page.js';

const HEARTBEAT_MS = 60_000;

/** A session on the SQL Gateway: the cluster-side twin of a Sluice session (its catalogs, SET options, jobs). */
export class GatewaySession {
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;

  private constructor(
    readonly client: GatewayClient,
    readonly handle: string,
  ) {
    // A long file (an INSERT in sync mode, a streaming SELECT) must not lose its session to the idle timeout.
    this.heartbeat = setInterval(() => void client.heartbeat(handle).catch(() => undefined), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  static async open(client: GatewayClient, properties: Readonly<Record<string, string>>): Promise<GatewaySession> {
    return new GatewaySession(client, await client.openSession(properties));
  }

  /** Submits a statement; its result (or error) is read from the returned operation. */
  async submit(sql: string): Promise<GatewayOperation> {
    return new GatewayOperation(this.client, this.handle, await this.client.executeStatement(this.handle, sql));
  }

  /** Runs a statement with a small result (SHOW JOBS) and returns all its rows. */
  async rows(sql: string): Promise<{ decoder: ResultDecoder; rows: Row[] }> {
    const op = await this.submit(sql);
    try {
      let decoder: ResultDecoder | undefined;
      const rows: Row[] = [];
      for (let page = await op.nextPage(); page !== undefined; page = await op.nextPage()) {
        decoder ??= new ResultDecoder(page.results?.columns ?? []);
        rows.push(...decoder.rows(page));
      }
      return { decoder: decoder ?? new ResultDecoder([]), rows };
    } finally {
      await op.close();
    }
  }

  /** Closes the session; the gateway cancels its running queries. Submitted INSERT jobs keep running on the cluster. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    await this.client.closeSession(this.handle).catch(() => undefined);
  }
}
