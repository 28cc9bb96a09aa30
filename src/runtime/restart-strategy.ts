import type { RestartStrategyConfig } from './runtime-config.js';

/**
 * Decides whether and when a failed job restarts (Flink's restart strategies). `onFailure` is called by the
 * job master once per failure and returns the delay before the restart, or undefined to give up.
 */
export class RestartStrategy {
  private attempts = 0;
  private failures: number[] = [];
  private backoff: number | undefined;

  constructor(private readonly cfg: RestartStrategyConfig, private readonly random: () => number = Math.random) {}

  onFailure(now = Date.now()): number | undefined {
    const c = this.cfg;
    switch (c.kind) {
      case 'none':
        return undefined;
      case 'fixed-delay':
        if (this.attempts >= c.attempts) return undefined;
        this.attempts++;
        return c.delayMs;
      case 'exponential-delay': {
        if (this.attempts >= c.maxAttempts) return undefined;
        this.attempts++;
        this.backoff = this.backoff === undefined ? c.initialBackoffMs : Math.min(c.maxBackoffMs, this.backoff * c.multiplier);
        const jitter = this.backoff * c.jitterFactor * (this.random() * 2 - 1);
        return Math.max(0, Math.round(this.backoff + jitter));
      }
      case 'failure-rate':
        this.failures = this.failures.filter((t) => now - t < c.intervalMs);
        if (this.failures.length >= c.maxFailuresPerInterval) return undefined;
        this.failures.push(now);
        return c.delayMs;
      default: {
        const never: never = c;
        throw new Error(`unknown restart strategy ${String(never)}`);
      }
    }
  }
}
