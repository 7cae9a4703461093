import { describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiEvent } from '../../src-shared/api';
import type { ConnectionStatus } from './connection';
import { createWebConnection, type EventSourceLike } from './web-transport';

class FakeEventSource implements EventSourceLike {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent<string>) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;

  constructor(readonly url: string) {}

  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  deliver(data: string): void {
    this.onmessage?.(new MessageEvent('message', { data }));
  }

  fail(readyState: number): void {
    this.readyState = readyState;
    this.onerror?.(new Event('error'));
  }

  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
}

function setup(responses: Response[] = []) {
  const sources: FakeEventSource[] = [];
  const timers: { callback: () => void; delayMs: number }[] = [];
  const fetchFn = vi.fn<typeof fetch>(async () => {
    const response = responses.shift();
    if (response === undefined) throw new TypeError('Failed to fetch');
    return response;
  });
  const connection = createWebConnection({
    fetchFn,
    openEventSource: (url) => {
      const source = new FakeEventSource(url);
      sources.push(source);
      return source;
    },
    retryDelaysMs: [100, 200],
    setTimer: (callback, delayMs) => timers.push({ callback, delayMs }),
  });
  return { connection, fetchFn, sources, timers };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('web transport commands', () => {
  it('posts the input as JSON to the command path with same-origin credentials and returns the value', async () => {
    const { connection, fetchFn } = setup([json({ ok: true, value: { stopped: true } })]);
    await expect(connection.api.stop({ conversationId: 'c1' })).resolves.toEqual({ stopped: true });
    expect(fetchFn).toHaveBeenCalledWith('/api/command/stop', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"conversationId":"c1"}',
      credentials: 'same-origin',
    });
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
  it('opens one stream for all listeners and delivers each parsed event', () => {
    const { connection, sources } = setup();
    const first: ApiEvent[] = [];
    const second: ApiEvent[] = [];
    const stopFirst = connection.onEvent((event) => first.push(event));
    connection.onEvent((event) => second.push(event));
    expect(sources.map((source) => source.url)).toEqual(['/api/events']);
    const event: ApiEvent = { type: 'conversation-deleted', conversationId: 'c1' };
    sources[0]?.deliver(JSON.stringify(event));
    sources[0]?.deliver('not json');
    stopFirst();
    sources[0]?.deliver(JSON.stringify(event));
    expect(first).toEqual([event]);
    expect(second).toEqual([event, event]);
  });

  it('closes the stream when the last listener leaves', () => {
    const { connection, sources } = setup();
    const stop = connection.onEvent(() => undefined);
    stop();
    expect(sources[0]?.closed).toBe(true);
  });

  it('asks for a resync after a reconnect, never after the first open', () => {
    const { connection, sources } = setup();
    const resyncs = vi.fn();
    const statuses: ConnectionStatus[] = [];
    connection.onResync(resyncs);
    connection.onStatus((status) => statuses.push(status));
    connection.onEvent(() => undefined);
    sources[0]?.open();
    expect(resyncs).not.toHaveBeenCalled();
    sources[0]?.fail(0);
    sources[0]?.open();
    expect(resyncs).toHaveBeenCalledTimes(1);
    expect(statuses).toEqual(['connecting', 'live', 'reconnecting', 'live']);
  });

  it('opens a new stream itself, more slowly each time, after the browser gives up', () => {
    const { connection, sources, timers } = setup();
    const resyncs = vi.fn();
    connection.onResync(resyncs);
    connection.onEvent(() => undefined);
    sources[0]?.open();
    sources[0]?.fail(2);
    expect(sources[0]?.closed).toBe(true);
    expect(timers.map((timer) => timer.delayMs)).toEqual([100]);
    timers[0]?.callback();
    expect(sources).toHaveLength(2);
    sources[1]?.fail(2);
    timers[1]?.callback();
    sources[2]?.fail(2);
    expect(timers.map((timer) => timer.delayMs)).toEqual([100, 200, 200]);
    timers[2]?.callback();
    sources[3]?.open();
    expect(resyncs).toHaveBeenCalledTimes(1);
  });
});
