import type { DeserializationSchema, MessageOrigin } from '../../factories/format.js';
import type { Row } from '../../types/row.js';

/**
 * A line decoder that reads a line where it lies in a chunk of lines, instead of from a string or a byte
 * view made for it: the file source decodes an all-ASCII chunk into one string once and hands each line
 * over as offsets into it, which saves a string per line (a native call and an allocation, a tenth of a
 * CSV row's cost). A format opts in by implementing `deserializeAsciiLine` on the DeserializationSchema it
 * creates (csv does); the others keep getting `deserializeText` / `deserialize` per line.
 */
export interface AsciiLineDecoder extends DeserializationSchema {
  /**
   * Decodes the line `text[start, end)` (no line break, no `\r` before it) exactly as `deserializeText` of that
   * line's text: appends the same rows, throws the same errors, skips the same records. `text` is the whole
   * ASCII chunk `bytes` read as text, so char offsets are byte offsets; lines of one chunk come in file order.
   * Synchronous, on the source's hot path.
   */
  deserializeAsciiLine(bytes: Uint8Array, text: string, start: number, end: number, out: Row[], origin?: MessageOrigin): void;
}

/** The decoder as an AsciiLineDecoder when it is one, else undefined. */
export function asAsciiLineDecoder(decoder: DeserializationSchema): AsciiLineDecoder | undefined {
  return typeof (decoder as Partial<AsciiLineDecoder>).deserializeAsciiLine === 'function' ? (decoder as AsciiLineDecoder) : undefined;
}
