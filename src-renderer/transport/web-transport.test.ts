import { describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiEvent } from '../../src-shared/api';
import type { ConnectionStatus } from './connection';
import { createWebConnection } from './web-transport';

const TOKEN = 'Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF';

/** An event stream body the test writes to, ends or drops, like the host's SSE answer. */
class FakeEventStream {
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  readonly response = new Response(
    new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } },
  );

  send(text: string): void {
    this.controller?.enqueue(new TextEncoder().encode(text));
  }

  end(): void {
    this.controller?.close();
  }

  drop(): void {
    this.controller?.error(new TypeError('network error'));
  }
}

type EventAnswer = FakeEventStream | Response | 'unreachable';

/** Lets the fetch promise, the stream reads and the listeners run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

function setup(responses: Response[] = [], eventAnswers: EventAnswer[] = [], token: string | null = TOKEN) {
  const timers: { callback: () => void; delayMs: number }[] = [];
  const eventRequests: RequestInit[] = [];
  const fetchFn = vi.fn<typeof fetch>(async (input, init) => {
    if (input === '/api/events') {
      eventRequests.push(init ?? {});
      const answer = eventAnswers.shift();
      if (answer === undefined || answer === 'unreachable') throw new TypeError('Failed to fetch');
      return answer instanceof FakeEventStream ? answer.response : answer;
    }
    const response = responses.shift();
    if (response === undefined) throw new TypeError('Failed to fetch');
    return response;
  });
  const connection = createWebConnection({
    fetchFn,
    token,
    retryDelaysMs: [100, 200],
    setTimer: (callback, delayMs) => timers.push({ callback, delayMs }),
  });
  return { connection, fetchFn, eventRequests, timers };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('web transport commands', () => {
  it('posts the input as JSON to the command path with the bearer token and no cookies, and returns the value', async () => {
    const { connection, fetchFn } = setup([json({ ok: true, value: { stopped: true } })]);
    await expect(connection.api.stop({ conversationId: 'c1' })).resolves.toEqual({ stopped: true });
    expect(fetchFn).toHaveBeenCalledWith('/api/command/stop', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: '{"conversationId":"c1"}',
      credentials: 'omit',
    });
  });

  it('sends no authorization header without a token, and shows the host\'s refusal', async () => {
    const { connection, fetchFn } = setup(
      [new Response('Open the address `anybrain serve` printed.', { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8' } })],
      [],
      null,
    );
    await expect(connection.api.getSettings({})).rejects.toMatchObject({ code: 'unauthorized', message: 'Open the address `anybrain serve` printed.' });
    expect(fetchFn.mock.calls[0]?.[1]?.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('rethrows a refused command as an ApiError with its code and message', async () => {
    const { connection } = setup([json({ ok: false, error: { code: 'turn-running', message: 'A turn is running.' } }, 409)]);
    const refusal = connection.api.send({ conversationId: 'c1', text: 'hi' });
    await expect(refusal).rejects.toBeInstanceOf(ApiError);
    await expect(refusal).rejects.toMatchObject({ code: 'turn-running', message: 'A turn is running.' });
  });

  it('reports an unreachable host and an unreadable answer as ApiErrors', async () => {
    const { connection } = setup([
      new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
      json({ hello: 1 }),
    ]);
    await expect(connection.api.getSettings({})).rejects.toMatchObject({
      code: 'bad-response',
      message: 'Anybrain answered with HTTP 502 and no result.',
    });
    await expect(connection.api.getSettings({})).rejects.toMatchObject({
      code: 'bad-response',
      message: 'Anybrain answered with HTTP 200 and an unreadable result.',
    });
    await expect(connection.api.getSettings({})).rejects.toMatchObject({ code: 'connection' });
  });

  it("shows the host's own sentence when it refuses a request before running the command", async () => {
    const { connection } = setup([
      new Response('Open the address `anybrain serve` printed.\n', {
        status: 401,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      }),
    ]);
    await expect(connection.api.getSettings({})).rejects.toMatchObject({
      code: 'unauthorized',
      message: 'Open the address `anybrain serve` printed.',
    });
  });
});

describe('web transport events', () => {
  it('opens one stream with the bearer token for all listeners and delivers each parsed event', async () => {
    const stream = new FakeEventStream();
    const { connection, eventRequests } = setup([], [stream]);
    const first: ApiEvent[] = [];
    const second: ApiEvent[] = [];
    const stopFirst = connection.onEvent((event) => first.push(event));
    connection.onEvent((event) => second.push(event));
    await settle();
    expect(eventRequests).toHaveLength(1);
    expect(eventRequests[0]?.headers).toEqual({ accept: 'text/event-stream', authorization: `Bearer ${TOKEN}` });
    expect(eventRequests[0]?.credentials).toBe('omit');
    const event: ApiEvent = { type: 'conversation-deleted', conversationId: 'c1' };
    stream.send(`retry: 1000\n\ndata: ${JSON.stringify(event)}\n\ndata: not json\n\n: heartbeat\n\n`);
    await settle();
    stopFirst();
    // One event split across two chunks.
    const frame = `data: ${JSON.stringify(event)}\n\n`;
    stream.send(frame.slice(0, 20));
    stream.send(frame.slice(20));
    await settle();
    expect(first).toEqual([event]);
    expect(second).toEqual([event, event]);
  });

  it('aborts the stream when the last listener leaves, and does not reopen it', async () => {
    const { connection, eventRequests, timers } = setup([], [new FakeEventStream()]);
    const stop = connection.onEvent(() => undefined);
    await settle();
    stop();
    await settle();
    expect(eventRequests[0]?.signal?.aborted).toBe(true);
    expect(timers).toEqual([]);
  });

  it('reconnects after the stream ends or drops, and asks for a resync after a reconnect, never after the first open', async () => {
    const streams = [new FakeEventStream(), new FakeEventStream(), new FakeEventStream()];
    const { connection, eventRequests, timers } = setup([], [...streams]);
    const resyncs = vi.fn();
    const statuses: ConnectionStatus[] = [];
    connection.onResync(resyncs);
    connection.onStatus((status) => statuses.push(status));
    connection.onEvent(() => undefined);
    await settle();
    expect(resyncs).not.toHaveBeenCalled();
    streams[0]?.end();
    await settle();
    expect(statuses).toEqual(['connecting', 'live', 'reconnecting']);
    timers[0]?.callback();
    await settle();
    expect(resyncs).toHaveBeenCalledTimes(1);
    streams[1]?.drop();
    await settle();
    timers[1]?.callback();
    await settle();
    expect(resyncs).toHaveBeenCalledTimes(2);
    expect(eventRequests).toHaveLength(3);
    // A stream that opened resets the delays.
    expect(timers.map((timer) => timer.delayMs)).toEqual([100, 100]);
    expect(statuses).toEqual(['connecting', 'live', 'reconnecting', 'live', 'reconnecting', 'live']);
  });

  it('retries a refused or unreachable stream more slowly each time, until one opens', async () => {
    const refused = new Response('Open the address `anybrain serve` printed.', { status: 401 });
    const { connection, timers } = setup([], [refused, 'unreachable', 'unreachable', new FakeEventStream()]);
    const resyncs = vi.fn();
    const statuses: ConnectionStatus[] = [];
    connection.onResync(resyncs);
    connection.onStatus((status) => statuses.push(status));
    connection.onEvent(() => undefined);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await settle();
      timers[attempt]?.callback();
    }
    await settle();
    expect(timers.map((timer) => timer.delayMs)).toEqual([100, 200, 200]);
    expect(statuses).toEqual(['connecting', 'live']);
    expect(resyncs).not.toHaveBeenCalled();
  });
});
