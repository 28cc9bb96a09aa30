/**
 * Prometheus text exposition format, version 0.0.4: `# HELP` and `# TYPE` once per family, then one
 * `name{label="value"} number` line per series.
 */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type MetricType = 'gauge' | 'counter';

export interface Sample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  readonly samples: readonly Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A label value inside double quotes: backslash, double quote and line feed are escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** HELP text escapes only backslash and line feed. */
export function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** A sample value as the format spells it: NaN, +Inf and -Inf are written out. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/** The exposition of `families`, ending in a line feed. Families without samples are left out. */
export function formatPrometheus(families: readonly MetricFamily[]): string {
  let out = '';
  for (const f of families) {
    if (!NAME.test(f.name)) throw new Error(`Invalid Prometheus metric name '${f.name}'.`);
    if (f.samples.length === 0) continue;
    out += `# HELP ${f.name} ${escapeHelp(f.help)}\n# TYPE ${f.name} ${f.type}\n`;
    for (const s of f.samples) {
      const labels = Object.entries(s.labels).map(([k, v]) => {
        if (!LABEL.test(k)) throw new Error(`Invalid Prometheus label name '${k}'.`);
        return `${k}="${escapeLabelValue(v)}"`;
      });
      out += `${f.name}${labels.length > 0 ? `{${labels.join(',')}}` : ''} ${formatValue(s.value)}\n`;
    }
  }
  return out;
}
