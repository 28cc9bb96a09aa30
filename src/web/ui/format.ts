/** How numbers, times and sizes read on the dashboard. */

const INT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const RATE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export function count(n: number): string {
  return INT.format(n);
}

export function rate(perSecond: number): string {
  return `${RATE.format(perSecond)}/s`;
}

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(1)} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h ${m}m ${s % 60}s` : `${m}m ${s % 60}s`;
}

export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return 'in memory';
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

export function time(epochMs: number): string {
  return new Date(epochMs).toLocaleString('en-GB', { hour12: false });
}

/** Java's Long.MIN_VALUE and MAX_VALUE as the API writes them (no watermark yet, end of input). */
const NO_WATERMARK = -9223372036854775808;
const END_WATERMARK = 9223372036854775807;

/** The lowest of a vertex's subtask watermarks (Flink's "low watermark"), or undefined when any has none yet. */
export function lowWatermark(values: readonly string[]): number | undefined {
  if (values.length === 0) return undefined;
  let min = Infinity;
  for (const v of values) {
    const n = Number(v);
    if (n <= NO_WATERMARK) return undefined;
    min = Math.min(min, n >= END_WATERMARK ? Infinity : n);
  }
  return min;
}

/** A watermark as a UTC time; `short` leaves the date out (for the graph's nodes). */
export function watermark(wm: number | undefined, short = false): string {
  if (wm === undefined) return short ? 'none' : 'No watermark';
  if (wm === Infinity) return 'End of input';
  // Beyond what a Date can hold (±8.64e15 ms) it is not a time anyone set; show the number.
  if (Math.abs(wm) > 8.64e15) return String(wm);
  const iso = new Date(wm).toISOString().replace('T', ' ').replace('Z', '');
  return short ? iso.slice(11) : iso;
}
