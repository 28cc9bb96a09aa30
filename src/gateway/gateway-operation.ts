import type { GatewayClient } from './gateway-client.js';
import type { ResultPageJson } from './result-page.js';

const MIN_POLL_MS = 20;
const MAX_POLL_MS = 500;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * One statement's operation on the gateway, read page by page. The gateway answers NOT_READY while the
 * statement runs (planning, job submission) and empty pages while a streaming query has nothing new; both
 * are polled with a backoff that resets when rows arrive, so a busy result is read quickly and an idle one
 * costs two requests a second.
 */
export class GatewayOperation {
  private next: string | undefined;
  private done = false;
  private cancelled = false;
  private delay = MIN_POLL_MS;
  /** Empty pages are polled with backoff only after the first (which carries the columns) was returned. */
  private sawColumns = false;

  constructor(
    private readonly client: GatewayClient,
    readonly session: string,
    readonly handle: string,
  ) {}

  get isDone(): boolean {
    return this.done;
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  /**
   * The next page with content (columns, possibly rows), or undefined once the result ended (EOS) or the
   * operation was cancelled. Throws the statement's error (GatewayError) when it failed.
   */
  async nextPage(): Promise<ResultPageJson | undefined> {
    while (!this.done && !this.cancelled) {
      let page: ResultPageJson;
      try {
        page = await this.client.fetchPage(this.session, this.handle, this.next);
      } catch (e) {
        // A cancelled operation answers its next fetch with an error: that is the end, not a failure.
        if (this.cancelled) return undefined;
        throw e;
      }
      if (page.resultType === 'NOT_READY') {
        await this.backoff();
        continue;
      }
      if (page.resultType === 'EOS' || page.nextResultUri === undefined) this.done = true;
      else this.next = page.nextResultUri;
      if ((page.results?.data?.length ?? 0) > 0) this.delay = MIN_POLL_MS;
      else if (!this.done && this.next !== undefined && this.sawColumns) await this.backoff();
      this.sawColumns = true;
      return page;
    }
    return undefined;
  }

  /** Stops the operation (and a query's job); later `nextPage` calls return undefined. */
  async cancel(): Promise<void> {
    if (this.done || this.cancelled) return;
    this.cancelled = true;
    await this.client.cancelOperation(this.session, this.handle).catch(() => undefined);
  }

  /** Frees the operation's resources on the gateway. */
  async close(): Promise<void> {
    this.done = true;
    await this.client.closeOperation(this.session, this.handle).catch(() => undefined);
  }

  private async backoff(): Promise<void> {
    await sleep(this.delay);
    this.delay = Math.min(MAX_POLL_MS, this.delay * 2);
  }
}
