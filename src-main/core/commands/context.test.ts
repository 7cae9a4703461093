import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MessagePage, SettingsView } from '../../../src-shared/api';
import { openCore, type OpenedCore } from '../app';
import type { ProviderCall, StreamPart } from '../providers/stream-parts';
import { sentBody } from '../providers/testing/sent-body';

const cores: OpenedCore[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.dispose();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function* summaryBrain(call: ProviderCall): AsyncIterable<StreamPart> {
  yield { type: 'text-delta', text: JSON.stringify(sentBody(call)).includes('[Anybrain compaction request]') ? 'The gist.' : 'ok' };
}

function open(): OpenedCore {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-context-'));
  folders.push(dataDir);
  const core = openCore({ dataDir, env: { MOONSHOT_API_KEY: 'k' }, stream: summaryBrain });
  cores.push(core);
  return core;
}

async function value<T>(result: Promise<{ ok: boolean; value?: unknown; error?: unknown }>): Promise<T> {
  const settled = await result;
  if (!settled.ok) throw new Error(JSON.stringify(settled.error));
  return settled.value as T;
}

describe('context window settings', () => {
  it('keeps a model window override, the lines per brain and the summarising brain, and shows them in Settings', async () => {
    const core = open();
    await value(core.dispatch('setModelWindow', { brain: 'kimi', model: 'kimi-k2.6', contextWindow: 128_000, outputLimit: null }));
    await value(core.dispatch('setModelWindow', { brain: 'ollama', model: 'qwen3:32b', contextWindow: 40_960, outputLimit: 4_096 }));
    await value(core.dispatch('setContextLines', { brain: 'kimi', warningPercent: 60, emergencyPercent: 85 }));
    const settings = await value<SettingsView>(core.dispatch('setCompactionBrain', { brain: 'claude' }));
    expect(settings.context.compactionBrain).toBe('claude');
    expect(settings.context.lines.kimi).toEqual({ warningPercent: 60, emergencyPercent: 85 });
    expect(settings.context.lines.claude).toEqual({ warningPercent: 50, emergencyPercent: 80 });
    expect(settings.context.modelWindows.find((row) => row.model === 'kimi-k2.6')).toEqual({
      brain: 'kimi', model: 'kimi-k2.6', contextWindow: 128_000, outputLimit: 32_768, source: 'override', reportedAt: null, note: null,
      override: { contextWindow: 128_000, outputLimit: null },
    });
    expect(settings.context.modelWindows.at(-1)).toMatchObject({ brain: 'ollama', model: 'qwen3:32b', contextWindow: 40_960, source: 'override' });
    const reset = await value<SettingsView>(core.dispatch('setModelWindow', { brain: 'kimi', model: 'kimi-k2.6', contextWindow: null, outputLimit: null }));
    expect(reset.context.modelWindows.find((row) => row.model === 'kimi-k2.6')).toMatchObject({ contextWindow: 262_144, source: 'model', override: null });
  });

  it('refuses lines out of order and an output limit as large as the window, naming the field', async () => {
    const core = open();
    expect(await core.dispatch('setContextLines', { brain: 'kimi', warningPercent: 80, emergencyPercent: 60 })).toEqual({
      ok: false,
      error: { code: 'invalid-input', message: 'Invalid setContextLines input at warningPercent: the warning line must be below the emergency line' },
    });
    expect(await core.dispatch('setModelWindow', { brain: 'kimi', model: 'k', contextWindow: 4_096, outputLimit: 4_096 })).toEqual({
      ok: false,
      error: { code: 'invalid-input', message: 'Invalid setModelWindow input at outputLimit: the output limit must be smaller than the window' },
    });
  });
});

describe('compaction through the Api', () => {
  it('compacts, then lists the covered rows under the summary, oldest first', async () => {
    const core = open();
    const messages = Array.from({ length: 40 }, (_, index) => ({
      id: `m${index}`, turn_id: `t${index >> 1}`, role: index % 2 === 0 ? 'user' : 'assistant', kind: 'chat', text: `${index} ${'words '.repeat(200)}`,
    }));
    const imported = await value<{ id: string }>(
      core.dispatch('importTranscript', { content: JSON.stringify({ format: 'anybrain.transcript', version: 1, conversation: { id: 'x', title: 'T', created_at: 'now' }, messages }) }),
    );
    await value(core.dispatch('setModelWindow', { brain: 'kimi', model: 'kimi-k2.6', contextWindow: 8_000, outputLimit: 1_000 }));
    await value(core.dispatch('setConversationBrain', { id: imported.id, brain: 'kimi' }));
    const before = await value<{ level: string; outsideWindow: number; compacting: boolean }>(core.dispatch('getContextStatus', { conversationId: imported.id }));
    expect(before).toMatchObject({ level: 'emergency', compacting: false });
    expect(before.outsideWindow).toBeGreaterThan(0);

    const result = await value<{ outcome: string; coveredMessages: number; summary: { id: string; text: string; coveredMessages: number } }>(
      core.dispatch('compactConversation', { conversationId: imported.id }),
    );
    expect(result).toMatchObject({ outcome: 'compacted', summary: { text: 'The gist.', coveredMessages: result.coveredMessages } });
    const page = await value<MessagePage>(core.dispatch('listMessages', { conversationId: imported.id }));
    expect(page.messages[0]).toMatchObject({ id: result.summary.id, kind: 'summary', role: 'system' });
    expect(page.messages.length).toBe(1 + 40 - result.coveredMessages);
    const covered = await value<MessagePage>(core.dispatch('listCoveredMessages', { summaryId: result.summary.id, limit: 500 }));
    expect(covered.messages.map((message) => message.text.split(' ')[0])).toEqual(Array.from({ length: result.coveredMessages }, (_, index) => String(index)));
    expect(covered.messages.every((message) => message.compactedInto === result.summary.id)).toBe(true);
    const after = await value<{ outsideWindow: number; level: string }>(core.dispatch('getContextStatus', { conversationId: imported.id }));
    expect(after).toMatchObject({ outsideWindow: 0, level: 'ok' });
    expect(await core.dispatch('listCoveredMessages', { summaryId: 'nope', limit: 10 })).toEqual({
      ok: false,
      error: { code: 'not-found', message: 'That summary no longer exists.' },
    });
  });
});
