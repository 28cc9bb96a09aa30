import { ConnectorError } from '../../../errors/index.js';

/**
 * Awaits `work`, or fails with a ConnectorError built by `message` once `ms` have passed: a broker that
 * accepts connections but never answers would otherwise keep the caller waiting for as long as kafkajs
 * retries. `work` is left running (its late outcome is ignored); the caller closes what it opened.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectorError(message())), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The message of a Kafka call that timed out, naming the brokers, what was asked and the option that bounds it. */
export function brokerTimeout(brokers: readonly string[], what: string, option: string, ms: number): string {
  return (
    `Kafka sink: no answer from the broker${brokers.length === 1 ? '' : 's'} ${brokers.join(', ')} within ${ms} ms while ${what} ` +
    `('properties.${option}' = '${ms}'). Check that the broker is up and reachable, or raise 'properties.${option}'.`
  );
}
