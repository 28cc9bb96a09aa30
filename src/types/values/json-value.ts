/** A value JSON can hold without loss; what `JSON.parse` returns. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
