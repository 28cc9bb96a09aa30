import { isUtf8 } from 'node:buffer';

/**
 * Bytes of text formats as Flink's Jackson-based formats (json, csv, debezium-json, canal-json) see them:
 * a UTF-8 byte order mark before a record is skipped (Jackson's bootstrapper does that), and bytes that
 * are not UTF-8 are an error (Jackson's "Invalid UTF-8 start byte"), not silently U+FFFD. The raw format
 * keeps its bytes as they are and uses neither.
 */

/** `bytes` without a leading UTF-8 byte order mark (EF BB BF); the same array when there is none. */
export function stripUtf8Bom(bytes: Uint8Array): Uint8Array {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
}

/** Thrown for a record that is not valid UTF-8; the decoder adds the file, line and offset. */
export class InvalidUtf8Error extends Error {
  constructor(
    /** Index of the first byte of the bad sequence within the record. */
    readonly index: number,
    byte: number,
  ) {
    super(`Invalid UTF-8 byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} at byte ${index} of the record.`);
    this.name = 'InvalidUtf8Error';
  }
}

/** Throws InvalidUtf8Error unless `bytes` is well-formed UTF-8 (a native check; the scan runs only on failure). */
export function checkUtf8(bytes: Uint8Array): void {
  if (isUtf8(bytes)) return;
  const at = firstInvalidUtf8(bytes);
  throw new InvalidUtf8Error(at, bytes[at] ?? 0);
}

/** Index of the first byte that starts no well-formed UTF-8 sequence (RFC 3629: no overlongs, surrogates, > U+10FFFF). */
function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let min: number;
    if (c >= 0xc2 && c <= 0xdf) [n, min] = [1, 0x80];
    else if (c >= 0xe0 && c <= 0xef) [n, min] = [2, 0x800];
    else if (c >= 0xf0 && c <= 0xf4) [n, min] = [3, 0x10000];
    else return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const x = b[i + k];
      if (x === undefined || (x & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (x & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return b.length;
}
