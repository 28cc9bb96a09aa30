import { ConnectorError } from '../../../errors/sluice-error.js';

/**
 * The Pravega Schema Registry refused a request or could not be reached. `status` is the HTTP status, or
 * undefined when no answer came (connection refused, timeout); `operation` says what was asked, in words.
 */
export class PravegaRegistryError extends ConnectorError {
  constructor(
    message: string,
    readonly operation: string,
    readonly status: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
