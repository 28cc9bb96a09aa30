import { FieldValueError } from '../format-error.js';

/** Confluent's wire format: magic byte 0, the schema id as a 4-byte big-endian int, then the Avro binary body. */
export const MAGIC_BYTE = 0;
export const HEADER_SIZE = 5;

/**
 * The schema id of a framed message.
 * @throws FieldValueError for a message that is not in the wire format (too short, other magic byte).
 */
export function readSchemaId(message: Uint8Array): number {
  if (message.length < HEADER_SIZE) throw new FieldValueError(`a Confluent Avro message has at least ${HEADER_SIZE} bytes, this one ${message.length}.`);
  if (message[0] !== MAGIC_BYTE) throw new FieldValueError(`Unknown magic byte ${message[0]}; a Confluent Avro message starts with 0.`);
  return new DataView(message.buffer, message.byteOffset, HEADER_SIZE).getInt32(1, false);
}

/** `body` framed with `schemaId`, in one new buffer. */
export function frame(schemaId: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER_SIZE + body.length);
  out[0] = MAGIC_BYTE;
  new DataView(out.buffer).setInt32(1, schemaId, false);
  out.set(body, HEADER_SIZE);
  return out;
}
