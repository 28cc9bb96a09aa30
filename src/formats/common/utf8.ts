const decoder = new TextDecoder('utf-8');
const encoder = new TextEncoder();

/** UTF-8 text of a message (invalid sequences become U+FFFD, as Java's String(bytes, UTF_8)). */
export function utf8Decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

export function utf8Encode(text: string): Uint8Array {
  return encoder.encode(text);
}
