import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProviderFailure } from './provider-errors';
import { STREAM_IDLE_TIMEOUT_MS, streamWatchFor, watchedFetch } from './watched-fetch';

const WATCH = { idleTimeoutMs: 100, label: 'Claude' };
const encoder = new TextEncoder();

/** Serves one answer; `chunks` are read one per pull, then the body waits forever unless `ends`. */
function stubFetch(answer: { status?: number; contentType: string; chunks: string[]; ends: boolean }): { signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  vi.stubGlobal('fetch', async (_input: unknown, init?: RequestInit) => {
    if (init?.signal) signals.push(init.signal);
    let index = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const chunk = answer.chunks[index];
          index += 1;
          if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
          else if (answer.ends) controller.close();
          else return new Promise(() => undefined);
          return undefined;
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: answer.status ?? 200, headers: { 'content-type': answer.contentType } });
  });
  return { signals };
}

async function readAll(body: ReadableStream<Uint8Array> | null, pauseMs = 0): Promise<string> {
  const reader = (body ?? new ReadableStream<Uint8Array>()).getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value);
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('watchedFetch', () => {
  it('waits 90 s on every wire unless a call says otherwise, and names the brain or else the host', () => {
    expect(Object.values(STREAM_IDLE_TIMEOUT_MS)).toEqual([90_000, 90_000, 90_000, 90_000, 90_000]);
    expect(streamWatchFor({ wire: 'ollama-chat', baseUrl: 'http://127.0.0.1:11434' })).toEqual({ idleTimeoutMs: 90_000, label: '127.0.0.1:11434' });
    expect(streamWatchFor({ wire: 'anthropic-messages', baseUrl: 'https://api.anthropic.com', label: 'Claude', idleTimeoutMs: 200 })).toEqual({ idleTimeoutMs: 200, label: 'Claude' });
  });

  it('says when the provider has held the request without answering, and when it then answers; a prompt answer says nothing', async () => {
    const told: string[] = [];
    const silence = { afterMs: 40, silent: () => told.push('silent'), answered: () => told.push('answered') };
    let answerAfterMs = 120;
    vi.stubGlobal('fetch', async () => {
      await new Promise((resolve) => setTimeout(resolve, answerAfterMs));
      return new Response('data: {}\n\n', { headers: { 'content-type': 'text/event-stream' } });
    });
    await readAll((await watchedFetch({ ...WATCH, silence })('http://provider.invalid/v1/messages', { method: 'POST' })).body);
    expect(told).toEqual(['silent', 'answered']);
    answerAfterMs = 0;
    await watchedFetch({ ...WATCH, silence })('http://provider.invalid/v1/messages', { method: 'POST' });
    expect(told).toEqual(['silent', 'answered']);
    // A request given up (Stop) while silent is an end of the wait too.
    vi.stubGlobal('fetch', (_input: unknown, init?: RequestInit) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted')))));
    const stop = new AbortController();
    const waiting = watchedFetch({ ...WATCH, silence })('http://provider.invalid/v1/messages', { method: 'POST', signal: stop.signal });
    await new Promise((resolve) => setTimeout(resolve, 60));
    stop.abort();
    await expect(waiting).rejects.toThrow('aborted');
    expect(told).toEqual(['silent', 'answered', 'silent', 'answered']);
  });

  it('fails a body that goes quiet with provider-stalled and aborts the request underneath', async () => {
    const { signals } = stubFetch({ contentType: 'text/event-stream', chunks: ['data: {}\n\n'], ends: false });
    const response = await watchedFetch(WATCH)('http://provider.invalid/v1/messages', { method: 'POST' });
    const failure = await readAll(response.body).catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect((failure as ProviderFailure).providerError).toEqual({
      code: 'provider-stalled',
      message: 'Claude stopped sending for 0.1 s; the reply so far is kept. Retry, or switch brain.',
      retryable: true,
    });
    expect(signals[0]?.aborted).toBe(true);
  });

  it('measures each wait on its own: a chunk every 60 ms for half a second is never a 100 ms stall', async () => {
    const words = ['one ', 'two ', 'three ', 'four ', 'five ', 'six ', 'seven ', 'eight'];
    vi.stubGlobal('fetch', async () => {
      let index = 0;
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            await new Promise((resolve) => setTimeout(resolve, 60));
            const word = words[index];
            index += 1;
            if (word === undefined) controller.close();
            else controller.enqueue(encoder.encode(word));
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    const response = await watchedFetch(WATCH)('http://provider.invalid/v1/messages');
    expect(await readAll(response.body)).toBe(words.join(''));
  });

  it('never counts a slow reader as a stalled provider', async () => {
    stubFetch({ contentType: 'text/event-stream', chunks: ['one ', 'two ', 'three'], ends: true });
    const response = await watchedFetch(WATCH)('http://provider.invalid/v1/messages');
    expect(await readAll(response.body, 250)).toBe('one two three');
  });

  it('names a JSON answer or an HTML page with HTTP 200 after reading it, and passes error statuses through untouched', async () => {
    stubFetch({ contentType: 'application/json; charset=utf-8', chunks: ['{"error":{"message":"Upstream', ' timed out"}}'], ends: true });
    const answered = await watchedFetch(WATCH)('http://provider.invalid/v1/messages');
    const failure = await readAll(answered.body).catch((thrown: unknown) => thrown);
    expect((failure as ProviderFailure).providerError).toEqual({
      code: 'not-a-stream',
      message: 'Claude answered with a JSON error instead of a stream (HTTP 200): Upstream timed out',
      retryable: true,
    });

    stubFetch({ contentType: 'text/html; charset=utf-8', chunks: ['<html><head><title>Hotel  Wi-Fi\n login</title></head>', '<body>Sign in</body></html>'], ends: true });
    const portal = await watchedFetch(WATCH)('http://provider.invalid/v1/messages');
    const portalFailure = await readAll(portal.body).catch((thrown: unknown) => thrown);
    expect((portalFailure as ProviderFailure).providerError).toEqual({
      code: 'not-a-stream',
      message: 'Claude answered with an HTML page ("Hotel Wi-Fi login") instead of a stream (HTTP 200, text/html). A proxy, captive portal or wrong base URL may have answered.',
      retryable: false,
    });

    stubFetch({ status: 429, contentType: 'application/json', chunks: ['{"error":"slow down"}'], ends: true });
    const limited = await watchedFetch(WATCH)('http://provider.invalid/v1/messages');
    expect(limited.status).toBe(429);
    expect(await limited.text()).toBe('{"error":"slow down"}');
  });

  it("lets go of the caller's signal once the body is read, and still forwards an abort before that", async () => {
    stubFetch({ contentType: 'text/event-stream', chunks: ['data: {}\n\n'], ends: true });
    const caller = new AbortController();
    const removed = vi.spyOn(caller.signal, 'removeEventListener');
    const response = await watchedFetch(WATCH)('http://provider.invalid/v1/messages', { signal: caller.signal });
    await readAll(response.body);
    expect(removed).toHaveBeenCalledWith('abort', expect.any(Function));

    const { signals } = stubFetch({ contentType: 'text/event-stream', chunks: [], ends: false });
    const stopping = new AbortController();
    await watchedFetch({ ...WATCH, idleTimeoutMs: 5_000 })('http://provider.invalid/v1/messages', { signal: stopping.signal });
    stopping.abort('stop');
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toBe('stop');
  });
});
