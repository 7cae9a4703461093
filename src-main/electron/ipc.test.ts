import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiEvent, CommandResult } from '../../src-shared/api';
import { IPC_COMMAND_CHANNEL, IPC_EVENT_CHANNEL } from '../../src-shared/api';
import type { Core } from '../core/core-types';
import type { AppPage } from './app-page';

type InvokeHandler = (event: unknown, ...args: unknown[]) => Promise<CommandResult<unknown>>;

const handlers = vi.hoisted(() => new Map<string, unknown>());

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: unknown) => {
      if (handlers.has(channel)) throw new Error(`a handler for ${channel} is already registered`);
      handlers.set(channel, handler);
    },
    removeHandler: (channel: string) => handlers.delete(channel),
  },
}));

const { registerIpc } = await import('./ipc');

const PAGE: AppPage = {
  kind: 'file',
  filePath: '/opt/anybrain/out/renderer/index.html',
  url: 'file:///opt/anybrain/out/renderer/index.html',
};

interface FakeFrame {
  processId: number;
  routingId: number;
  url: string;
  parent: FakeFrame | null;
}

function topFrame(overrides: Partial<FakeFrame> = {}): FakeFrame {
  return { processId: 7, routingId: 1, url: PAGE.url, parent: null, ...overrides };
}

function fakeWindow() {
  const mainFrame = topFrame();
  const webContents = {
    mainFrame,
    url: PAGE.url,
    destroyed: false,
    send: vi.fn(),
    getURL(): string {
      return this.url;
    },
    isDestroyed(): boolean {
      return this.destroyed;
    },
  };
  return { webContents, destroyed: false, isDestroyed(): boolean { return this.destroyed; } };
}

function fakeCore() {
  const listeners = new Set<(event: ApiEvent) => void>();
  const core = {
    dataDir: '/tmp/anybrain',
    dispatch: vi.fn(async (name: string, _input: unknown): Promise<CommandResult<unknown>> => ({ ok: true, value: `ran ${name}` })),
    onEvent: vi.fn((listener: (event: ApiEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    }),
    dispose: vi.fn(async () => undefined),
  } satisfies Core;
  const emit = (event: ApiEvent): void => listeners.forEach((listener) => listener(event));
  return { core, listeners, emit };
}

const DELTA: ApiEvent = { type: 'message-delta', conversationId: 'c1', turnId: 't1', messageId: 'm1', textDelta: 'Hi' };

let window: ReturnType<typeof fakeWindow>;
let fake: ReturnType<typeof fakeCore>;
let registration: { dispose(): void };

beforeEach(() => {
  registration?.dispose();
  window = fakeWindow();
  fake = fakeCore();
  registration = registerIpc(fake.core, () => window as never, PAGE);
});

function invoke(senderFrame: FakeFrame | null, name: unknown, input: unknown, sender: unknown = window.webContents) {
  const handler = handlers.get(IPC_COMMAND_CHANNEL) as InvokeHandler;
  return handler({ sender, senderFrame }, name, input);
}

describe('the command handler', () => {
  it('passes a command from the main window top frame to core.dispatch', async () => {
    await expect(invoke(window.webContents.mainFrame, 'listConversations', { query: 'x' })).resolves.toEqual({
      ok: true,
      value: 'ran listConversations',
    });
    expect(fake.core.dispatch).toHaveBeenCalledWith('listConversations', { query: 'x' });
  });

  it('answers the core envelope unchanged, refusals included', async () => {
    fake.core.dispatch.mockResolvedValueOnce({ ok: false, error: { code: 'invalid-input', message: 'title: too long' } });
    await expect(invoke(topFrame(), 'renameConversation', { id: 'c1', title: 'x'.repeat(600) })).resolves.toEqual({
      ok: false,
      error: { code: 'invalid-input', message: 'title: too long' },
    });
  });

  it.each([
    ['a subframe', topFrame({ parent: topFrame() })],
    ['another frame of the same window', topFrame({ routingId: 2 })],
    ['a frame of another renderer process', topFrame({ processId: 8 })],
    ['a foreign page in the top frame', topFrame({ url: 'https://evil.example/' })],
    ['another local file', topFrame({ url: 'file:///tmp/evil.html' })],
    ['a destroyed frame', null],
  ])('refuses %s as forbidden, without reaching the core', async (_label, frame) => {
    const answer = await invoke(frame, 'getSettings', {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(fake.core.dispatch).not.toHaveBeenCalled();
  });

  it('refuses a sender that is not the main window', async () => {
    const otherContents = { ...window.webContents };
    const answer = await invoke(topFrame(), 'getSettings', {}, otherContents);
    expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(fake.core.dispatch).not.toHaveBeenCalled();
  });

  it('refuses everything once the window is gone', async () => {
    window.destroyed = true;
    await expect(invoke(topFrame(), 'getSettings', {})).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('refuses a command name that is not a string', async () => {
    await expect(invoke(topFrame(), { toString: () => 'getSettings' }, {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'unknown-command' },
    });
    expect(fake.core.dispatch).not.toHaveBeenCalled();
  });

  it('turns a throwing dispatch into an internal error envelope', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fake.core.dispatch.mockRejectedValueOnce(new Error('boom'));
    await expect(invoke(topFrame(), 'getSettings', {})).resolves.toMatchObject({ ok: false, error: { code: 'internal' } });
    consoleError.mockRestore();
  });
});

describe('events', () => {
  it('forwards core events to the window on the event channel', () => {
    fake.emit(DELTA);
    expect(window.webContents.send).toHaveBeenCalledWith(IPC_EVENT_CHANNEL, DELTA);
  });

  it('skips a destroyed window or one showing another page', () => {
    window.webContents.url = 'https://evil.example/';
    fake.emit(DELTA);
    window.webContents.url = PAGE.url;
    window.webContents.destroyed = true;
    fake.emit(DELTA);
    window.destroyed = true;
    fake.emit(DELTA);
    expect(window.webContents.send).not.toHaveBeenCalled();
  });
});

describe('dispose', () => {
  it('removes the handler and the event subscription', () => {
    registration.dispose();
    expect(handlers.has(IPC_COMMAND_CHANNEL)).toBe(false);
    expect(fake.listeners.size).toBe(0);
    registration = registerIpc(fake.core, () => window as never, PAGE);
    expect(handlers.has(IPC_COMMAND_CHANNEL)).toBe(true);
  });
});
