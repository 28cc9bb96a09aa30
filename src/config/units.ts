/**
 * Durations and memory sizes as Flink writes them (`TimeUtils`, `MemorySize`): `30 s`, `5 min`, `500ms`,
 * `1 h`, `2 d`; `128 mb`, `1g`, `64kb`. A bare number is milliseconds / bytes.
 */

const DURATION_UNITS: ReadonlyArray<readonly [number, readonly string[]]> = [
  [1e-6, ['ns', 'nano', 'nanos', 'nanosecond', 'nanoseconds']],
  [1e-3, ['us', 'µs', 'micro', 'micros', 'microsecond', 'microseconds']],
  [1, ['ms', 'milli', 'millis', 'millisecond', 'milliseconds']],
  [1000, ['s', 'sec', 'secs', 'second', 'seconds']],
  [60_000, ['m', 'min', 'mins', 'minute', 'minutes']],
  [3_600_000, ['h', 'hour', 'hours']],
  [86_400_000, ['d', 'day', 'days']],
];

const UNIT_TEXT = /^(\d+)\s*([^\d\s]*)$/u;

/** Milliseconds of a duration string, truncated to whole ms; undefined if malformed. */
export function parseDuration(text: string): number | undefined {
  const m = UNIT_TEXT.exec(text.trim());
  if (m === null) return undefined;
  const amount = Number(m[1]);
  const unit = m[2]!.toLowerCase();
  if (unit === '') return Number.isSafeInteger(amount) ? amount : undefined;
  const found = DURATION_UNITS.find(([, names]) => names.includes(unit));
  if (found === undefined) return undefined;
  const ms = Math.trunc(amount * found[0]);
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** The largest unit that divides the duration exactly: 30000 -> `30 s`, 300000 -> `5 min`, 1500 -> `1500 ms`. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0 ms';
  const units: ReadonlyArray<readonly [number, string]> = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ];
  for (const [size, name] of units) if (ms % size === 0) return `${ms / size} ${name}`;
  return `${ms} ms`;
}

const MEMORY_UNITS: ReadonlyArray<readonly [number, readonly string[]]> = [
  [1, ['b', 'bytes']],
  [1024, ['k', 'kb', 'kibibytes']],
  [1024 ** 2, ['m', 'mb', 'mebibytes']],
  [1024 ** 3, ['g', 'gb', 'gibibytes']],
  [1024 ** 4, ['t', 'tb', 'tebibytes']],
];

/** Bytes of a memory size string (1024-based units, as Flink); undefined if malformed or too large. */
export function parseMemorySize(text: string): number | undefined {
  const m = UNIT_TEXT.exec(text.trim());
  if (m === null) return undefined;
  const amount = Number(m[1]);
  const unit = m[2]!.toLowerCase();
  const found = unit === '' ? MEMORY_UNITS[0] : MEMORY_UNITS.find(([, names]) => names.includes(unit));
  if (found === undefined) return undefined;
  const bytes = amount * found[0];
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** The largest unit that divides the size exactly: 134217728 -> `128 mb`, 1000 -> `1000 bytes`. */
export function formatMemorySize(bytes: number): string {
  const units: ReadonlyArray<readonly [number, string]> = [
    [1024 ** 4, 'tb'],
    [1024 ** 3, 'gb'],
    [1024 ** 2, 'mb'],
    [1024, 'kb'],
  ];
  if (bytes !== 0) for (const [size, name] of units) if (bytes % size === 0) return `${bytes / size} ${name}`;
  return `${bytes} bytes`;
}
