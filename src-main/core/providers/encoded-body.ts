/**
 * A request body serialised once, where it was built: a long history's body is megabytes of JSON, and serialising it
 * is one synchronous step of tens of milliseconds. Built in a worker (engine/request-body-worker.ts), it crosses to
 * the main thread as bytes, and the providers send those bytes as they are.
 */

export interface EncodedBody {
  /** The body's JSON, UTF-8: byte for byte what `JSON.stringify(body)` sends. */
  readonly json: Uint8Array<ArrayBuffer>;
  /**
   * The body's top-level fields that are not arrays (`model`, `stream`, `max_tokens`, `thinking`, …): what the SDKs
   * read from the body they are handed before they send it. The arrays (messages, input, contents, tools) stay out.
   */
  readonly fields: Record<string, unknown>;
}

export function encodeBody(body: Record<string, unknown>): EncodedBody {
  return { json: new TextEncoder().encode(JSON.stringify(body)), fields: bodyFields(body) };
}

/** The body's top-level fields that are not arrays: an `EncodedBody`'s `fields`. */
export function bodyFields(body: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (!Array.isArray(value)) fields[key] = value;
  return fields;
}

/**
 * The request options that make an SDK (`openai`, `@anthropic-ai/sdk`) send the encoded bytes: their `create()`
 * spreads the options over the body it was given, and their `buildBody` passes a typed array through untouched,
 * without the `content-type` it sets when it serialises an object itself.
 */
export function encodedBodyOptions(encodedBody: Uint8Array<ArrayBuffer> | undefined): { body?: Uint8Array<ArrayBuffer>; headers?: Record<string, string> } {
  return encodedBody === undefined ? {} : { body: encodedBody, headers: { 'content-type': 'application/json' } };
}
