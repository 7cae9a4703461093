/** Helpers for the fake brains' own tests: raw HTTP against the server and readers for the five stream framings. */
import { parseServerSentEvents } from '../../src-main/core/providers/sse';

/** 2026-01-01T00:00:00Z: `created` fields and `receivedAt` come from the clock. */
export const FIXED_NOW = new Date('2026-01-01T00:00:00.000Z');
export const FIXED_SECONDS = FIXED_NOW.getTime() / 1000;

export interface RawReply {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
}

export async function postRaw(baseUrl: string, pathname: string, body: unknown, headers: Record<string, string>): Promise<RawReply> {
  const response = await fetch(`${baseUrl}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

/** The JSON payloads of an SSE stream, `[DONE]` left out. */
export function sseData<T = Record<string, unknown>>(text: string): T[] {
  return parseServerSentEvents(text)
    .filter((event) => event.data !== '[DONE]')
    .map((event) => JSON.parse(event.data) as T);
}

/** The lines of an NDJSON stream, parsed. */
export function ndjsonLines<T = Record<string, unknown>>(text: string): T[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}

/** The provider error message in any of the five wires' error bodies. */
export function errorMessage(text: string): string {
  const body = JSON.parse(text) as { error?: string | { message?: string } };
  return typeof body.error === 'string' ? body.error : (body.error?.message ?? '');
}
