import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, ConversationView, SendResult } from '../../src-shared/api';
import { transcriptSchema } from '../../src-shared/transcript';
import { openCore, type OpenedCore } from './app';
import type { StreamPart } from './providers/stream-parts';
import { insertMessage } from './store/messages';

const folders: string[] = [];
const cores: OpenedCore[] = [];

function tempDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'anybrain-core-'));
  folders.push(folder);
  return folder;
}

afterEach(async () => {
  for (const core of cores.splice(0)) await core.dispose();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function* reply(parts: StreamPart[]): AsyncIterable<StreamPart> {
  for (const part of parts) yield part;
}

function open(dataDir = tempDir(), env: Record<string, string> = { MOONSHOT_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' }) {
  const core = openCore({
    dataDir,
    env,
    stream: () => reply([{ type: 'response-model', model: 'kimi-k2.6' }, { type: 'text-delta', text: 'Hello back' }, { type: 'finish', reason: 'stop', rawReason: 'stop' }]),
  });
  cores.push(core);
  return core;
}

async function value<T>(core: OpenedCore, name: string, input: unknown): Promise<T> {
  const result = await core.dispatch(name, input);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

describe('openCore dispatch', () => {
  it('validates every input and names the bad path', async () => {
    const core = open();
    expect(await core.dispatch('renameConversation', { id: 'x', title: '' })).toEqual({
      ok: false,
      error: { code: 'invalid-input', message: 'Invalid renameConversation input at title: Too small: expected string to have >=1 characters' },
    });
    expect(await core.dispatch('nope', {})).toEqual({ ok: false, error: { code: 'unknown-command', message: 'Unknown command "nope".' } });
    expect(await core.dispatch('listConversations', { extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('runs a conversation end to end and exports it as transcript v1', async () => {
    const core = open();
    const events: ApiEvent[] = [];
    core.onEvent((event) => events.push(event));
    const conversation = await value<ConversationView>(core, 'createConversation', { brain: 'kimi' });
    const sent = await value<SendResult>(core, 'send', { conversationId: conversation.id, text: 'Hi kimi' });
    await core.engine.settled(conversation.id);
    expect(events.some((event) => event.type === 'turn-done')).toBe(true);

    const exported = await value<{ content: string; filename: string }>(core, 'exportConversation', { id: conversation.id, format: 'json' });
    expect(exported.filename).toBe('Hi-kimi.json');
    const transcript = transcriptSchema.parse(JSON.parse(exported.content));
    expect(transcript.conversation).toEqual({
      id: conversation.id, title: 'Hi kimi', created_at: conversation.createdAt, current_leaf_id: sent.assistantMessageId,
    });
    expect(transcript.messages.map(({ created_at: _createdAt, ...message }) => message)).toEqual([
      { id: sent.userMessageId, turn_id: sent.turnId, parent_id: null, role: 'user', kind: 'chat', text: 'Hi kimi' },
      {
        id: sent.assistantMessageId, turn_id: sent.turnId, parent_id: sent.userMessageId, role: 'assistant', kind: 'chat', text: 'Hello back', status: 'complete',
        brain: 'kimi', model_requested: 'kimi-k2.6', model_responded: 'kimi-k2.6', reasoning_level: 'high', tool_invocations: [],
      },
    ]);
    const markdown = await value<{ content: string }>(core, 'exportConversation', { id: conversation.id, format: 'md' });
    // Times are the clock's: each reads as one UTC minute.
    expect(markdown.content.replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/g, 'TIME')).toBe(
      '# Hi kimi\n\nStarted TIME.\n\n---\n\n## You · TIME\n\nHi kimi\n\n---\n\n## Kimi · kimi-k2.6 · TIME\n\nHello back\n',
    );
  });

  it('escapes everything in the HTML export', async () => {
    const core = open();
    const conversation = await value<ConversationView>(core, 'createConversation', { title: '<b>x</b>' });
    insertMessage(core.db, { id: 'u', conversationId: conversation.id, seq: 0, turnId: 't', role: 'user', text: '<script>alert(1)</script>', status: 'complete', createdAt: 't' });
    const html = await value<{ content: string }>(core, 'exportConversation', { id: conversation.id, format: 'html' });
    expect(html.content).not.toContain('<script>');
    expect(html.content).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
  });

  it('keeps keys out of the Api and the database, and explains where keys go when they cannot be stored', async () => {
    const core = open(tempDir(), { MOONSHOT_API_KEY: 'sk-secret-value' });
    const settings = await value<{ brains: Array<{ brain: string; keySource: string }> }>(core, 'getSettings', {});
    expect(JSON.stringify(settings)).not.toContain('sk-secret-value');
    expect(settings.brains.find((brain) => brain.brain === 'kimi')?.keySource).toBe('environment');
    expect(await core.dispatch('setKey', { brain: 'claude', key: 'abc' })).toEqual({
      ok: false,
      error: { code: 'keys-not-storable', message: 'Keys cannot be stored here. Set ANTHROPIC_API_KEY in the environment before starting Anybrain.' },
    });
  });

  it('resolves base URLs: settings, else the environment, else brains.ts', async () => {
    const core = open(tempDir(), { ANYBRAIN_KIMI_BASE_URL: 'http://127.0.0.1:9/v1' });
    const baseUrl = async () =>
      (await value<{ brains: Array<{ brain: string; baseUrl: string }> }>(core, 'getSettings', {})).brains.find((brain) => brain.brain === 'kimi')?.baseUrl;
    expect(await baseUrl()).toBe('http://127.0.0.1:9/v1');
    await value(core, 'setBaseUrl', { brain: 'kimi', baseUrl: 'http://localhost:8080/v1/' });
    expect(await baseUrl()).toBe('http://localhost:8080/v1');
    await value(core, 'setBaseUrl', { brain: 'kimi', baseUrl: null });
    expect(await baseUrl()).toBe('http://127.0.0.1:9/v1');
    expect(await core.dispatch('setBaseUrl', { brain: 'kimi', baseUrl: 'file:///etc/passwd' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('marks a reply left streaming by a crash as interrupted when the data is opened again', async () => {
    const dataDir = tempDir();
    const first = open(dataDir);
    const conversation = await value<ConversationView>(first, 'createConversation', { brain: 'kimi' });
    insertMessage(first.db, { id: 'a', conversationId: conversation.id, seq: 0, turnId: 't', role: 'assistant', text: 'partial', status: 'streaming', createdAt: 't' });
    first.db.$client.close();
    cores.splice(cores.indexOf(first), 1);

    const second = open(dataDir);
    expect(second.recoveredInterrupted).toBe(1);
    const page = await value<{ messages: Array<{ status: string; text: string }> }>(second, 'listMessages', { conversationId: conversation.id });
    expect(page.messages).toMatchObject([{ status: 'interrupted', text: 'partial' }]);
  });
});
