/**
 * Flink's flat-config forms of lists (`a;b;c`) and maps (`k1:v1,k2:v2`), with its quoting rule: an element
 * containing a separator is wrapped in single or double quotes, and a quote inside is doubled
 * (`StructuredOptionsSplitter`).
 */

/** Split on `delimiter` outside quotes, unquoting quoted parts and trimming unquoted ones. */
export function splitEscaped(text: string, delimiter: string): string[] | undefined {
  const parts: string[] = [];
  let i = 0;
  let current = '';
  let quotedPart = false;
  while (i <= text.length) {
    const c = text[i];
    if (c === undefined || c === delimiter) {
      parts.push(quotedPart ? current : current.trim());
      current = '';
      quotedPart = false;
      i++;
      continue;
    }
    if ((c === "'" || c === '"') && current.trim() === '') {
      current = '';
      i++;
      for (;;) {
        if (i >= text.length) return undefined; // unterminated quote
        if (text[i] === c) {
          if (text[i + 1] === c) {
            current += c;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        current += text[i];
        i++;
      }
      quotedPart = true;
      while (i < text.length && text[i] === ' ') i++;
      if (i < text.length && text[i] !== delimiter) return undefined; // text after a closing quote
      continue;
    }
    current += c;
    i++;
  }
  return parts;
}

/** Quote `value` if it contains any of `specials` or quotes, doubling quotes inside. */
export function escapeElement(value: string, specials: string): string {
  if (![...specials, "'", '"'].some((s) => value.includes(s))) return value;
  return `'${value.replaceAll("'", "''")}'`;
}

/** `a;b` -> ['a', 'b']; '' -> []. */
export function parseList(text: string): string[] | undefined {
  if (text.trim() === '') return [];
  return splitEscaped(text, ';');
}

export function formatList(values: readonly string[]): string {
  return values.map((v) => escapeElement(v, ';')).join(';');
}

/** `k1:v1,k2:v2` -> { k1: 'v1', k2: 'v2' }; undefined if an entry lacks a ':'. */
export function parseMap(text: string): Record<string, string> | undefined {
  if (text.trim() === '') return {};
  const entries = splitEscaped(text, ',');
  if (entries === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const entry of entries) {
    const kv = splitEscaped(entry, ':');
    if (kv === undefined || kv.length !== 2 || kv[0] === '') return undefined;
    out[kv[0]!] = kv[1]!;
  }
  return out;
}

export function formatMap(map: Readonly<Record<string, string>>): string {
  return Object.entries(map)
    .map(([k, v]) => escapeElement(`${escapeElement(k, ':,')}:${escapeElement(v, ':,')}`, ','))
    .join(',');
}
