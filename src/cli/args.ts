import { parseArgs } from 'node:util';
import { ValidationError } from '../errors/sluice-error.js';

export type OutputFormat = 'tableau' | 'jsonl' | 'csv';

/** What the command line asked for; one variant per way in, so a wrong mix cannot be represented. */
export type CliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'connectors'; readonly name: string | undefined }
  | {
      readonly kind: 'run';
      /** `-f`: run this file and exit. */
      readonly file: string | undefined;
      /** `-i`: run this file, then the REPL. */
      readonly init: string | undefined;
      readonly config: Readonly<Record<string, string>>;
      readonly catalogDir: string | undefined;
      readonly output: OutputFormat;
      /** `--resume DIR`: start jobs from the newest complete checkpoint under DIR. */
      readonly resume: string | undefined;
      /** `--web`: serve the dashboard, the REST API and /metrics while sluice runs. */
      readonly web: boolean;
      /** `-e URL`: run the statements on a Flink cluster through its SQL Gateway. */
      readonly endpoint: string | undefined;
    };

export const USAGE = `Usage: sluice [options]
       sluice connectors [name]

Runs Flink SQL on Node.js: a file with -f, else an interactive SQL client.

Options:
  -f, --file <file>        Run the statements of a SQL file, then exit (waits for the jobs it started)
  -i, --init <file>        Run a SQL file (DDL, SET, USE), then start the interactive client
  -D <key=value>           Set a session option, like SET 'key' = 'value' (repeatable)
      --catalog-dir <dir>  Keep the default catalog's permanent tables, views and functions as files
                           in <dir> between runs (default: in memory, gone when sluice exits)
      --output <format>    tableau (default), jsonl or csv
      --resume <dir>       Resume from the newest complete checkpoint of a job's checkpoint directory
      --web                Serve a dashboard, a REST API and Prometheus /metrics of the jobs (rest.port, default 8081)
  -e, --endpoint <url>     Run the statements on an Apache Flink cluster through its SQL Gateway
                           (e.g. http://127.0.0.1:8083); Sluice still checks them all first, and INSERT
                           jobs keep running on the cluster after sluice exits
  -h, --help               Show this help
  -v, --version            Show the version

Commands:
  connectors [name]        List connectors and formats, or one's options
`;

export function parseCliArgs(argv: readonly string[]): CliCommand {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      file: { type: 'string', short: 'f' },
      init: { type: 'string', short: 'i' },
      define: { type: 'string', short: 'D', multiple: true },
      'catalog-dir': { type: 'string' },
      output: { type: 'string' },
      resume: { type: 'string' },
      web: { type: 'boolean' },
      endpoint: { type: 'string', short: 'e' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  if (positionals[0] === 'connectors') return { kind: 'connectors', name: positionals[1] };
  if (positionals.length > 0) throw new ValidationError(`Unknown argument '${positionals[0]}'. Run 'sluice --help' for usage.`);
  const config: Record<string, string> = {};
  for (const d of values.define ?? []) {
    const eq = d.indexOf('=');
    if (eq <= 0) throw new ValidationError(`-D expects key=value, got '${d}'.`);
    config[d.slice(0, eq)] = d.slice(eq + 1);
  }
  const output = values.output ?? 'tableau';
  if (output !== 'tableau' && output !== 'jsonl' && output !== 'csv') {
    throw new ValidationError(`--output must be one of tableau, jsonl, csv; got '${output}'.`);
  }
  if (values.file !== undefined && values.init !== undefined) {
    throw new ValidationError('-f and -i cannot be combined: -f runs a file and exits, -i runs a file before the interactive client.');
  }
  if (values.endpoint !== undefined) {
    const why = (flag: string, reason: string): ValidationError => new ValidationError(`${flag} cannot be combined with --endpoint: ${reason}`);
    if (values.resume !== undefined) {
      throw why('--resume', "a Flink cluster cannot read Sluice's checkpoints. Resume a cluster job from a Flink savepoint with SET 'execution.state-recovery.path' = '<savepoint path>'.");
    }
    if (values['catalog-dir'] !== undefined) throw why('--catalog-dir', "the tables live in the cluster session's catalogs.");
    if (values.web === true) throw why('--web', 'the Flink cluster serves its own REST API and web UI (the JobManager, port 8081 by default).');
  }
  return {
    kind: 'run',
    file: values.file,
    init: values.init,
    config,
    catalogDir: values['catalog-dir'],
    output,
    resume: values.resume,
    web: values.web === true,
    endpoint: values.endpoint,
  };
}
