/**
 * Constants of Sluice's binary state format (docs/state-format.md), shared by the encoder and decoder.
 * Changing a value here changes the bytes on disk: add tags and bump FORMAT_VERSION, never renumber.
 */

/** `SLST`: the first four bytes of every state file written by this codec. */
export const MAGIC = [0x53, 0x4c, 0x53, 0x54] as const;

/** The format version this build writes; it reads every version from 1 up to this one (and legacy v8). */
export const FORMAT_VERSION = 1;

/** node:v8 `serialize` output starts with 0xFF then its wire version: checkpoints of earlier releases. */
export const V8_HEADER = 0xff;

/** One byte before every value says what follows. */
export const Tag = {
  UNDEFINED: 0x00,
  NULL: 0x01,
  FALSE: 0x02,
  TRUE: 0x03,
  /** An integer in (-2^52, 2^52), not -0: zigzag varint. */
  INT: 0x04,
  /** Any other number: 8 bytes IEEE 754 little-endian (keeps -0, NaN, ±Infinity, fractions). */
  FLOAT64: 0x05,
  /** A bigint in (-2^52, 2^52): zigzag varint. */
  BIGINT: 0x06,
  /** A larger bigint >= 0: varint count of 64-bit words, then the magnitude's words, least significant first. */
  BIGINT_POS: 0x07,
  /** A larger bigint < 0: as BIGINT_POS, of its magnitude. */
  BIGINT_NEG: 0x08,
  /** A string of code units < 0x80 only: varint length, then one byte per character. */
  STRING_ASCII: 0x09,
  /** A well-formed string: varint byte length, then UTF-8. */
  STRING_UTF8: 0x0a,
  /** A string with lone surrogates (not valid Unicode): varint code-unit count, then UTF-16LE code units. */
  STRING_UTF16: 0x0b,
  /** varint length, then the elements (a hole is written as UNDEFINED). */
  ARRAY: 0x10,
  /** varint count, then key (a string value) and value pairs in insertion order. */
  OBJECT: 0x11,
  /** varint count, then key and value pairs in insertion order. */
  MAP: 0x12,
  /** varint count, then the elements in insertion order. */
  SET: 0x13,
  /** varint length, then the bytes (Uint8Array or Buffer; read back as Uint8Array). */
  BYTES: 0x14,
  /** One byte RowKind (0..3), varint arity, then the fields. */
  ROW: 0x15,
  /** Epoch milliseconds as 8 bytes IEEE 754 little-endian (NaN for an invalid Date). */
  DATE: 0x16,
  /** A registered class seen first in this stream: its name (a string value), then `toPlain`'s value. */
  CLASS_DEF: 0x17,
  /** A registered class seen before in this stream: varint index in order of first appearance, then the value. */
  CLASS_REF: 0x18,
} as const;

/** Integers of magnitude below this go as zigzag varints; their zigzag form stays below 2^53, exact. */
export const VARINT_INT_LIMIT = 2 ** 52;
