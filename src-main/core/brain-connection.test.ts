import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BrainSettingsView, ConversationView, SettingsView } from '../../src-shared/api';
import type { BrainId } from '../../src-shared/brains';
import { openCore, type OpenedCore } from './app';
import type { KeyStore } from './core-types';

/** A Chat Completions endpoint on 127.0.0.1 that records the Authorization header of every request it receives. */
interface RecordingBrain {
  readonly baseUrl: string;
  readonly host: string;
  readonly authorizations: Array<string | null>;
  close(): Promise<void>;
}

function chunk(delta: Record<string, unknown>, finishReason: string | null): string {
  const body = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'kimi-k2.6', choices: [{ index: 0, delta, finish_reason: finishReason }] };
  return `data: ${JSON.stringify(body)}\n\n`;
}

async function startRecordingBrain(): Promise<RecordingBrain> {
  const authorizations: Array<string | null> = [];
  const record = (headers: IncomingHttpHeaders) => authorizations.push(headers.authorization ?? null);
  const server: Server = createServer((request, response) => {
    record(request.headers);
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`${chunk({ role: 'assistant', content: 'Hello from the fake' }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    host: `127.0.0.1:${port}`,
    authorizations,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function memoryKeyStore(): KeyStore {
  const keys = new Map<BrainId, string>();
  return {
    canStore: true,
    refusal: null,
    place: 'memory',
    get: (brain) => keys.get(brain) ?? null,
    set: (brain, key) => {
      if (key === null) keys.delete(brain);
      else keys.set(brain, key);
    },
  };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Two recording brains, "official" and "other", and a core whose environment may name the official one. */
async function setup(environmentFor: (officialBaseUrl: string) => Record<string, string>, keyStore?: KeyStore) {
  const official = await startRecordingBrain();
  const other = await startRecordingBrain();
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-key-host-'));
  const core = openCore({ dataDir, env: environmentFor(official.baseUrl), ...(keyStore ? { keyStore } : {}) });
  cleanups.push(
    () => official.close(),
    () => other.close(),
    () => rmSync(dataDir, { recursive: true, force: true }),
    () => core.dispose(),
  );
  return { official, other, core };
}

/** The key and the base URL both set in the environment, as a user starting Anybrain from a shell would. */
function environmentKeyAt(baseUrl: string): Record<string, string> {
  return { MOONSHOT_API_KEY: 'sk-kimi-test', ANYBRAIN_KIMI_BASE_URL: baseUrl };
}

async function value<T>(core: OpenedCore, name: string, input: unknown): Promise<T> {
  const result = await core.dispatch(name, input);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

async function sendTurn(core: OpenedCore, conversationId: string) {
  const result = await core.dispatch('send', { conversationId, text: 'Hi' });
  if (result.ok) await core.engine.settled(conversationId);
  return result;
}

async function kimiSettings(core: OpenedCore): Promise<BrainSettingsView> {
  const settings = await value<SettingsView>(core, 'getSettings', {});
  const kimi = settings.brains.find((brain) => brain.brain === 'kimi');
  if (!kimi) throw new Error('no kimi');
  return kimi;
}

describe('a key goes only to a host it was confirmed for', () => {
  it('an environment key: a base URL changed through the Api gets nothing until the user confirms it', async () => {
    const { official, other, core } = await setup(environmentKeyAt);
    const conversation = await value<ConversationView>(core, 'createConversation', { brain: 'kimi' });
    expect((await sendTurn(core, conversation.id)).ok).toBe(true);
    expect(official.authorizations).toEqual(['Bearer sk-kimi-test']);

    await value(core, 'setBaseUrl', { brain: 'kimi', baseUrl: other.baseUrl });
    const message = `Your Kimi key was confirmed for ${official.host}. Send it to ${other.host}? Confirm in Settings → Kimi.`;
    expect(await sendTurn(core, conversation.id)).toEqual({ ok: false, error: { code: 'key-host-unconfirmed', message } });
    expect(await core.dispatch('retry', { conversationId: conversation.id })).toEqual({ ok: false, error: { code: 'key-host-unconfirmed', message } });
    expect(other.authorizations).toEqual([]);
    expect((await kimiSettings(core)).connectionProblem).toEqual({ code: 'key-host-unconfirmed', message });

    const confirmed = await value<SettingsView>(core, 'confirmKeyHost', { brain: 'kimi' });
    expect(confirmed.brains.find((brain) => brain.brain === 'kimi')?.connectionProblem).toBeNull();
    expect((await sendTurn(core, conversation.id)).ok).toBe(true);
    expect(other.authorizations).toEqual(['Bearer sk-kimi-test']);
    expect(JSON.stringify(await value(core, 'getSettings', {}))).not.toContain('sk-kimi-test');
  }, 30_000);

  it('a stored key: storing it confirms the host shown; a later base URL needs its own confirmation', async () => {
    const { official, other, core } = await setup(() => ({}), memoryKeyStore());
    await value(core, 'setBaseUrl', { brain: 'kimi', baseUrl: official.baseUrl });
    await value(core, 'setKey', { brain: 'kimi', key: 'sk-stored-test' });
    const conversation = await value<ConversationView>(core, 'createConversation', { brain: 'kimi' });
    expect((await sendTurn(core, conversation.id)).ok).toBe(true);
    expect(official.authorizations).toEqual(['Bearer sk-stored-test']);

    await value(core, 'setBaseUrl', { brain: 'kimi', baseUrl: other.baseUrl });
    expect(await sendTurn(core, conversation.id)).toMatchObject({ ok: false, error: { code: 'key-host-unconfirmed' } });
    expect(other.authorizations).toEqual([]);
    // The confirmation is an origin in settings, never the key.
    expect(JSON.stringify(core.db.$client.prepare('SELECT key, value FROM settings').all())).not.toContain('sk-stored-test');

    await value(core, 'confirmKeyHost', { brain: 'kimi' });
    expect((await sendTurn(core, conversation.id)).ok).toBe(true);
    expect(other.authorizations).toEqual(['Bearer sk-stored-test']);
    // Back to the first host: only one confirmation is kept per brain, so it asks again.
    await value(core, 'setBaseUrl', { brain: 'kimi', baseUrl: official.baseUrl });
    expect(await sendTurn(core, conversation.id)).toMatchObject({ ok: false, error: { code: 'key-host-unconfirmed' } });
    expect(official.authorizations).toHaveLength(1);
  }, 30_000);

  it('counts the official base URL as confirmed, and asks nothing when there is no key to send', async () => {
    const withKey = await setup(() => ({ MOONSHOT_API_KEY: 'sk-kimi-test' }));
    expect((await kimiSettings(withKey.core)).connectionProblem).toBeNull();
    const withoutKey = await setup(() => ({}));
    await value(withoutKey.core, 'setBaseUrl', { brain: 'kimi', baseUrl: withoutKey.other.baseUrl });
    const conversation = await value<ConversationView>(withoutKey.core, 'createConversation', { brain: 'kimi' });
    expect((await sendTurn(withoutKey.core, conversation.id)).ok).toBe(true);
    expect(withoutKey.other.authorizations).toEqual(['Bearer no-key-set']);
  }, 30_000);
});

describe('plain http only to this computer', () => {
  it('refuses an http:// base URL for another host in the Api, and accepts loopback', async () => {
    const { core } = await setup(() => ({}));
    expect(await core.dispatch('setBaseUrl', { brain: 'kimi', baseUrl: 'http://llm.example.com/v1' })).toEqual({
      ok: false,
      error: {
        code: 'invalid-input',
        message: 'Invalid setBaseUrl input at baseUrl: Base URLs must use https:// (http:// only for this computer: localhost, 127.0.0.1 or ::1).',
      },
    });
    expect((await kimiSettings(core)).baseUrlOverride).toBeNull();
    for (const baseUrl of ['https://llm.example.com/v1', 'http://localhost:8080/v1', 'http://[::1]:8080/v1']) {
      expect((await core.dispatch('setBaseUrl', { brain: 'kimi', baseUrl })).ok).toBe(true);
    }
  });

  it('refuses the turn when ANYBRAIN_<BRAIN>_BASE_URL is http:// to another host, sending nothing', async () => {
    const { core } = await setup(() => environmentKeyAt('http://llm.example.com/v1'));
    const conversation = await value<ConversationView>(core, 'createConversation', { brain: 'kimi' });
    const message =
      'ANYBRAIN_KIMI_BASE_URL is http://llm.example.com/v1, so nothing was sent. Base URLs must use https:// (http:// only for this computer: localhost, 127.0.0.1 or ::1).';
    expect(await sendTurn(core, conversation.id)).toEqual({ ok: false, error: { code: 'insecure-base-url', message } });
    expect((await kimiSettings(core)).connectionProblem).toEqual({ code: 'insecure-base-url', message });
    expect(await core.dispatch('confirmKeyHost', { brain: 'kimi' })).toEqual({ ok: false, error: { code: 'insecure-base-url', message } });
  });
});
