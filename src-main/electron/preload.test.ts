import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnybrainBridge, ApiEvent } from '../../src-shared/api';
import { ApiError, COMMAND_NAMES, IPC_COMMAND_CHANNEL, IPC_EVENT_CHANNEL } from '../../src-shared/api';

type FakeIpcRenderer = EventEmitter & { invoke(...args: unknown[]): Promise<unknown> };

const exposed = vi.hoisted(() => new Map<string, unknown>());

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const ipcRenderer = Object.assign(new Emitter(), { invoke: (..._args: unknown[]): Promise<unknown> => Promise.resolve() });
  return {
    contextBridge: { exposeInMainWorld: (key: string, value: unknown) => exposed.set(key, value) },
    ipcRenderer,
  };
});

const electron = { exposed, ipcRenderer: (await import('electron')).ipcRenderer as unknown as FakeIpcRenderer };

await import('./preload');
const bridge = electron.exposed.get('anybrain') as AnybrainBridge;
const invoke = vi.spyOn(electron.ipcRenderer, 'invoke');

const DELTA: ApiEvent = { type: 'message-delta', conversationId: 'c1', turnId: 't1', messageId: 'm1', textDelta: 'Hi' };

beforeEach(() => {
  invoke.mockReset();
  electron.ipcRenderer.removeAllListeners();
});

describe('the exposed bridge', () => {
  it('exposes only window.anybrain, with exactly the Api, onEvent and host', () => {
    expect([...electron.exposed.keys()]).toEqual(['anybrain']);
    expect(Object.keys(bridge).sort()).toEqual(['api', 'host', 'onEvent']);
    expect(Object.keys(bridge.api).sort()).toEqual([...COMMAND_NAMES].sort());
    for (const name of COMMAND_NAMES) expect(typeof bridge.api[name]).toBe('function');
    expect(bridge.host).toBe('electron');
    expect(typeof bridge.onEvent).toBe('function');
  });

  it('never exposes ipcRenderer', () => {
    const reachable = [bridge, bridge.api, ...Object.values(bridge), ...Object.values(bridge.api)];
    expect(reachable).not.toContain(electron.ipcRenderer);
    expect(reachable.some((value) => value instanceof EventEmitter)).toBe(false);
  });
});

describe('commands', () => {
  it('invokes the command channel with the name and input, and unwraps the value', async () => {
    invoke.mockResolvedValue({ ok: true, value: [{ id: 'c1' }] });
    await expect(bridge.api.listConversations({ query: 'tea' })).resolves.toEqual([{ id: 'c1' }]);
    expect(invoke).toHaveBeenCalledWith(IPC_COMMAND_CHANNEL, 'listConversations', { query: 'tea' });
  });

  it('throws an ApiError with the code and message of a refusal', async () => {
    invoke.mockResolvedValue({ ok: false, error: { code: 'forbidden', message: 'Not from here.' } });
    const failure = await bridge.api.getSettings({}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ code: 'forbidden', message: 'Not from here.', name: 'ApiError' });
  });

  it.each([undefined, null, 'ok', { ok: true }, { ok: 'yes', value: 1 }, { ok: false }])(
    'turns a malformed answer %j into an ApiError',
    async (answer) => {
      invoke.mockResolvedValue(answer);
      await expect(bridge.api.getSettings({})).rejects.toMatchObject({ code: 'bad-response' });
    },
  );
});

describe('events', () => {
  it('delivers only the event payload, never the IPC event object', () => {
    const listener = vi.fn();
    bridge.onEvent(listener);
    electron.ipcRenderer.emit(IPC_EVENT_CHANNEL, { sender: electron.ipcRenderer, ports: [] }, DELTA);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith(DELTA);
  });

  it('unsubscribes exactly the listener it was returned for', () => {
    const first = vi.fn();
    const second = vi.fn();
    const unsubscribeFirst = bridge.onEvent(first);
    bridge.onEvent(second);
    unsubscribeFirst();
    unsubscribeFirst();
    electron.ipcRenderer.emit(IPC_EVENT_CHANNEL, {}, DELTA);
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith(DELTA);
    expect(electron.ipcRenderer.listenerCount(IPC_EVENT_CHANNEL)).toBe(1);
  });
});
