/**
 * Credits of a channel between threads, in elements: twice a local channel's, so a batch in flight
 * across the thread boundary does not leave the consumer idle while credits travel back.
 */
export function remoteChannelCapacity(localCapacity: number): number {
  return Math.max(2, localCapacity * 2);
}
