// The header the Pravega Schema Registry's serializers put in front of every event when encoding headers are on (their
// default): one protocol byte, then the encoding id as a big-endian int32. The id names the writer's schema version
// and codec in the group.

export const PROTOCOL_BYTE = 0x01;
export const HEADER_SIZE = 5;

/** The encoding id of an event, or undefined when it does not start with the registry's header. */
export function encodingIdOf(message: Uint8Array): number | undefined {
  if (message.length < HEADER_SIZE || message[0] !== PROTOCOL_BYTE) return undefined;
  return ((message[1]! << 24) | (message[2]! << 16) | (message[3]! << 8) | message[4]!) | 0;
}

/** The 5-byte header for `encodingId`. */
export function registryHeader(encodingId: number): Uint8Array {
  const h = new Uint8Array(HEADER_SIZE);
  h[0] = PROTOCOL_BYTE;
  new DataView(h.buffer).setInt32(1, encodingId, false);
  return h;
}

/** `header` followed by `body`, in one new array. */
export function framed(header: Uint8Array, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(header.length + body.length);
  out.set(header, 0);
  out.set(body, header.length);
  return out;
}
