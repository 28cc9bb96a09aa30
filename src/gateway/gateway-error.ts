import { SluiceError } from '../errors/sluice-error.js';

/**
 * The Flink cluster (through its SQL Gateway) refused or failed a statement. The message is Flink's own
 * text, from the first exception of the chain that says something (not the gateway's "Failed to
 * fetchResults" wrappers); `flinkClass` is that exception's Java class, as Flink's SQL client shows it.
 */
export class GatewayError extends SluiceError {
  readonly category = 'Flink cluster error';

  constructor(
    message: string,
    /** e.g. `org.apache.flink.table.api.ValidationException`. */
    readonly flinkClass: string | undefined,
    /** The innermost cause, when it says more than `message` (printed as `Caused by: Class: message`). */
    rootCause?: { readonly cls: string; readonly message: string },
  ) {
    super(message, rootCause === undefined ? undefined : { cause: Object.assign(new Error(rootCause.message), { name: rootCause.cls }) });
    if (flinkClass !== undefined) this.name = flinkClass;
  }
}

/** The gateway could not be reached, or answered with something that is not its REST API. */
export class GatewayConnectionError extends SluiceError {
  readonly category = 'Connection error';
}

/** A statement Sluice will not send to a Flink cluster, because the cluster cannot run it. */
export class ClusterRefusalError extends SluiceError {
  readonly category = 'Validation error';
}

// Wrappers the gateway puts around the real failure; their messages name operations, not the problem.
const WRAPPERS = /^(org\.apache\.flink\.table\.gateway\.|org\.apache\.flink\.runtime\.rest\.|java\.util\.concurrent\.(Completion|Execution)Exception)/;

/**
 * Reads the `errors` array of a gateway response: `["Internal server error.", "<Exception on server
 * side:\n<stack trace with Caused by: lines>\n\nEnd of exception on server side>"]`.
 */
export function gatewayErrorFrom(errors: readonly string[]): GatewayError {
  const trace = errors.find((e) => e.includes('Exception on server side')) ?? errors.join('\n');
  // Each exception of the chain is a line `Class: message` (the first one bare, the others after "Caused by: ").
  const chain: { cls: string; message: string }[] = [];
  const lines = trace.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^(?:<Exception on server side:\s*)?(?:Caused by: )?([a-zA-Z_$][\w$]*(?:\.[\w$]+)+(?:Exception|Error|Throwable))(?:: (.*))?$/.exec(lines[i]!.trim());
    if (!m) continue;
    // A message may span lines until the first stack frame.
    let message = m[2] ?? '';
    while (i + 1 < lines.length && !/^\s*(at |\.\.\. \d+ more|Caused by: |End of exception)/.test(lines[i + 1]!) && lines[i + 1]!.trim() !== '') {
      message += `\n${lines[++i]}`;
    }
    chain.push({ cls: m[1]!, message: message.trim() });
  }
  if (chain.length === 0) return new GatewayError(errors.filter((e) => e !== 'Internal server error.').join('\n') || errors.join('\n'), undefined);
  const main = chain.find((c) => !WRAPPERS.test(c.cls) && c.message !== '') ?? chain[chain.length - 1]!;
  const root = chain[chain.length - 1]!;
  return new GatewayError(main.message, main.cls, root !== main && !main.message.includes(root.message) ? { cls: root.cls, message: root.message } : undefined);
}
