import type { CsvSettings } from './csv-options.js';

/**
 * Splits CSV text (a file, or a chunk of one) into records at line breaks outside quoted fields, so a
 * quoted value holding `\n` stays one record (RFC 4180). Line breaks are `\n` or `\r\n`; the break is not
 * part of the record. Returns the complete records and the unterminated tail (to prepend to the next
 * chunk, or to decode as the last record at end of file). Called by file readers once per chunk.
 */
export function splitCsvRecords(text: string, settings: Pick<CsvSettings, 'quoteCharacter' | 'escapeCharacter'>): { records: string[]; rest: string } {
  const records: string[] = [];
  const q = settings.quoteCharacter === undefined ? -1 : settings.quoteCharacter.charCodeAt(0);
  const esc = settings.escapeCharacter === undefined ? -1 : settings.escapeCharacter.charCodeAt(0);
  // Without quotes in the text a record ends at every line break.
  if ((q < 0 || !text.includes(settings.quoteCharacter!)) && esc < 0) {
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      records.push(text.slice(start, nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl));
      start = nl + 1;
    }
    return { records, rest: text.slice(start) };
  }
  let start = 0;
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === esc) i++;
    else if (c === q) inQuotes = !inQuotes; // a doubled quote toggles twice
    else if (c === 10 && !inQuotes) {
      records.push(text.slice(start, i > start && text.charCodeAt(i - 1) === 13 ? i - 1 : i));
      start = i + 1;
    }
  }
  return { records, rest: text.slice(start) };
}
