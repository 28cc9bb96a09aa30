import { SluiceError } from '../errors/sluice-error.js';

/**
 * The Flink cluster (through its SQL Gateway) refused or failed a statement. As Flink's SQL client shows
 * it: the root cause of the exception chain, its Java class as the name, its text unchanged.
 */
export class GatewayError extends SluiceError {
  readonly category = 'Flink cluster error';

  constructor(
    message: string,
    /** e.g. `org.apache.flink.table.api.ValidationException`. */
    readonly flinkClass: string | undefined,
    /** The innermost cause, when it says more than `message` (printed as `Caused by: Class: message`). */
    rootCause?: { readonly cls: string; readonly message: string },
    /** Where in the statement's text Flink points (its "From line 1, column 15"), 1-based. */
    readonly statementPosition?: { readonly line: number; readonly column: number },
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
  // As Flink's SQL client: the root cause is the reason shown; the outer exceptions mostly name the step that failed.
  // One exception up, of the same class, may repeat the root's message with what the user needs to act on (a
  // function call of the wrong types: "Invalid input arguments. Expected signatures are: ..."): that one is shown.
  let root = chain[chain.length - 1]!;
  const parent = chain[chain.length - 2];
  if (parent !== undefined && parent.cls === root.cls && parent.message.length > root.message.length && parent.message.startsWith(root.message)) root = parent;
  const pos = chain.map((c) => /(?:From|at) line (\d+), column (\d+)/.exec(c.message)).find((m) => m !== null);
  return new GatewayError(root.message, root.cls, undefined, pos ? { line: Number(pos[1]), column: Number(pos[2]) } : undefined);
}
