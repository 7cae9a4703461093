/**
 * The branch commands through the validated dispatch, as the windows and the command line reach them: editMessage,
 * regenerate, answerWith and chooseSibling.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MessagePage, SendResult } from '../../../src-shared/api';
import { openCore, type OpenedCore } from '../app';
import type { ProviderCall, StreamPart } from '../providers/stream-parts';
import { storeSummary } from '../store/compaction';
import { getMessage } from '../store/messages';

const cores: OpenedCore[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.dispose();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Answers each request with the model asked and the last user words; `hold` keeps the next reply open until released. */
function echoBrain() {
  let held: Promise<void> | null = null;
  let release: () => void = () => {};
  async function* stream(call: ProviderCall): AsyncIterable<StreamPart> {
    const body = call.body as { model?: string; messages?: { role: string; content: unknown }[] };
    const lastUser = [...(body.messages ?? [])].reverse().find((message) => message.role === 'user');
    if (held !== null) {
      const { signal } = call;
      await Promise.race([held, new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))]);
    }
    // Chat-completions wires send a string, or parts with text.
    const content = lastUser?.content;
    const words = typeof content === 'string' ? content : (content as { text?: string }[] | undefined)?.map((part) => part.text ?? '').join('');
    yield { type: 'text-delta', text: `${call.label} on ${words}` };
  }
  return {
    stream,
    hold: () => {
      held = new Promise((resolve) => {
        release = () => {
          held = null;
          resolve();
        };
      });
    },
    release: () => release(),
  };
}

function open(brain = echoBrain()) {
  const dataDir = mkdtempSync(join(tmpdir(), 'anybrain-branch-commands-'));
  folders.push(dataDir);
  const core = openCore({ dataDir, env: { MOONSHOT_API_KEY: 'k', ZAI_API_KEY: 'k' }, stream: brain.stream });
  cores.push(core);
  return { core, brain };
}

async function value<T>(result: Promise<{ ok: boolean; value?: unknown; error?: unknown }>): Promise<T> {
  const settled = await result;
  if (!settled.ok) throw new Error(JSON.stringify(settled.error));
  return settled.value as T;
}

/** u1 a1 u2 a2, all answered by Kimi. */
async function twoTurns(core: OpenedCore) {
  const { id: conversationId } = await value<{ id: string }>(core.dispatch('createConversation', { brain: 'kimi' }));
  const first = await value<SendResult>(core.dispatch('send', { conversationId, text: 'one' }));
  await core.engine.settled(conversationId);
  const second = await value<SendResult>(core.dispatch('send', { conversationId, text: 'two' }));
  await core.engine.settled(conversationId);
  return { conversationId, first, second };
}

const shown = (page: MessagePage) => page.messages.map((message) => [message.text, message.siblings === null ? null : `${message.siblings.index}/${message.siblings.count}`]);

describe('the branch commands', () => {
  it('regenerate and answerWith make sibling replies; chooseSibling answers the path from the fork down', async () => {
    const { core } = open();
    const { conversationId, second } = await twoTurns(core);
    const regenerated = await value<SendResult>(core.dispatch('regenerate', { messageId: second.assistantMessageId }));
    expect(regenerated.userMessageId).toBe('');
    await core.engine.settled(conversationId);
    const answered = await value<SendResult>(core.dispatch('answerWith', { messageId: second.assistantMessageId, brain: 'glm' }));
    await core.engine.settled(conversationId);
    expect(getMessage(core.db, answered.assistantMessageId)).toMatchObject({ brain: 'glm', parentId: second.userMessageId, text: 'GLM on two' });

    const page = await value<MessagePage>(core.dispatch('chooseSibling', { messageId: second.assistantMessageId }));
    // From the fork's parent (the question) down to the new leaf; the rows above are older pages.
    expect(shown(page)).toEqual([
      ['two', null],
      ['Kimi on two', '1/3'],
    ]);
    expect(page.hasOlder).toBe(true);
    const listed = await value<MessagePage>(core.dispatch('listMessages', { conversationId, limit: 50 }));
    expect(shown(listed)).toEqual([
      ['one', null],
      ['Kimi on one', null],
      ['two', null],
      ['Kimi on two', '1/3'],
    ]);
    const third = await value<MessagePage>(core.dispatch('chooseSibling', { messageId: answered.assistantMessageId }));
    expect(shown(third)).toEqual([
      ['two', null],
      ['GLM on two', '3/3'],
    ]);
    expect(third.messages[1]?.siblings).toEqual({ index: 3, count: 3, previousId: regenerated.assistantMessageId, nextId: null });
  });

  it('editMessage sends a sibling of the message and answers it; chooseSibling on the old one shows its branch down to its leaf', async () => {
    const { core } = open();
    const { conversationId, first, second } = await twoTurns(core);
    const edited = await value<SendResult>(core.dispatch('editMessage', { messageId: first.userMessageId, text: 'one, edited' }));
    await core.engine.settled(conversationId);
    expect(getMessage(core.db, edited.userMessageId)).toMatchObject({ parentId: null, text: 'one, edited' });
    const listed = await value<MessagePage>(core.dispatch('listMessages', { conversationId, limit: 50 }));
    expect(shown(listed)).toEqual([
      ['one, edited', '2/2'],
      ['Kimi on one, edited', null],
    ]);
    const back = await value<MessagePage>(core.dispatch('chooseSibling', { messageId: first.userMessageId }));
    expect(shown(back)).toEqual([
      ['one', '1/2'],
      ['Kimi on one', null],
      ['two', null],
      ['Kimi on two', null],
    ]);
    expect(back.hasOlder).toBe(false);
    expect(back.messages.at(-1)?.id).toBe(second.assistantMessageId);
  });

  it('refuses to edit a reply, to switch branches while a reply runs, and to branch inside a summary', async () => {
    const { core, brain } = open();
    const { conversationId, first, second } = await twoTurns(core);
    expect(await core.dispatch('editMessage', { messageId: first.assistantMessageId, text: 'mine now' })).toEqual({
      ok: false,
      error: { code: 'invalid-input', message: 'Only a message you wrote can be edited.' },
    });
    expect(await core.dispatch('regenerate', { messageId: 'no-such-message' })).toEqual({
      ok: false,
      error: { code: 'not-found', message: 'That message no longer exists.' },
    });

    brain.hold();
    await value<SendResult>(core.dispatch('regenerate', { messageId: second.assistantMessageId }));
    const running = { ok: false, error: { code: 'turn-running', message: 'A reply is still being written in this conversation. Wait for it, or press Stop, then switch branches.' } };
    expect(await core.dispatch('chooseSibling', { messageId: second.assistantMessageId })).toEqual(running);
    expect(await core.dispatch('answerWith', { messageId: second.assistantMessageId, brain: 'glm' })).toEqual({
      ok: false,
      error: { code: 'turn-running', message: 'A reply is still being written in this conversation. Wait for it, or press Stop, then send again.' },
    });
    brain.release();
    await core.engine.settled(conversationId);

    const through = getMessage(core.db, first.assistantMessageId)!;
    storeSummary(core.db, {
      conversationId,
      text: 'The gist.',
      brain: 'kimi',
      model: 'kimi-k2.6',
      madeFor: { brain: 'kimi', model: 'kimi-k2.6', contextWindow: 200_000, inputBudget: 160_000, requested: false },
      span: { previousSummary: null, afterSeq: -1, throughSeq: through.seq, rows: 2, tokens: 0 },
      now: '2026-12-01T10:00:00.000Z',
    });
    const summarised = {
      ok: false,
      error: { code: 'summarised', message: 'That message is part of a summary, so the conversation cannot branch there. Branch from a message below the summary.' },
    };
    expect(await core.dispatch('chooseSibling', { messageId: first.userMessageId })).toEqual(summarised);
    expect(await core.dispatch('editMessage', { messageId: first.userMessageId, text: 'again' })).toEqual(summarised);
    // Below the summary's last row a branch may start.
    await value<SendResult>(core.dispatch('editMessage', { messageId: second.userMessageId, text: 'two, edited' }));
    await core.engine.settled(conversationId);
    const page = await value<MessagePage>(core.dispatch('chooseSibling', { messageId: second.userMessageId }));
    expect(shown(page)).toEqual([
      ['The gist.', null],
      ['two', '1/2'],
      // The reply written last below it: the one regenerated while the reply above was held.
      ['Kimi on two', '2/2'],
    ]);
  });
});
