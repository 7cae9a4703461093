/**
 * Branches end to end: the turn engine with the real adapters against the fake brains over 127.0.0.1. A sibling reply
 * by another brain, an edit in the middle, a regenerate after the brain changed: each next request replays the branch
 * shown and nothing of the others.
 */
import { wireReasoning } from '../../../src-shared/reasoning';
import { describe, expect, it } from 'vitest';
import { useFakeBrains } from '../../../e2e/fake-brains/use-fake-brains';
import { chooseBranch, currentLeafId } from '../store/branches';
import { updateConversation } from '../store/conversations';
import { listInvocationsByMessage } from '../store/invocations';
import { getMessage } from '../store/messages';
import { engineOverFakeBrains } from './testing';

const fake = useFakeBrains();

type ChatMessage = Record<string, unknown>;

/** The clock tool answers the time of the run: the same placeholder wherever it appears. */
function withoutTime(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00 \(UTC\)/g, 'TIME (UTC)'));
}

/** The messages of the last chat-completions request, without the system prompt (asserted elsewhere). */
function lastKimiMessages(): ChatMessage[] {
  const request = fake.requests().at(-1)!;
  expect(request.brain).toBe('kimi');
  const messages = (request.body as { messages: ChatMessage[] }).messages;
  expect(messages[0]?.role).toBe('system');
  return withoutTime(messages.slice(1)) as ChatMessage[];
}

function providerCallIdOf(db: Parameters<typeof listInvocationsByMessage>[0], messageId: string): string {
  return listInvocationsByMessage(db, [messageId]).get(messageId)?.[0]?.providerCallId ?? 'none';
}

describe('answer with another brain', () => {
  it('makes two sibling replies; the next request replays the branch shown, its reply and calls, and nothing of the other', async () => {
    const { db, engine } = engineOverFakeBrains(fake, 'kimi');
    const question = 'What time is it? [tool:current_time]';
    const kimi = engine.send('c1', question);
    const kimiReply = await kimi.done;
    const gemini = engine.answerAgain(kimi.result.userMessageId, { brain: 'gemini' });
    expect(gemini.result.userMessageId).toBe('');
    const geminiReply = await gemini.done;
    expect([kimiReply.status, geminiReply.status]).toEqual(['complete', 'complete']);
    expect(getMessage(db, geminiReply.id)).toMatchObject({ parentId: kimi.result.userMessageId, brain: 'gemini', onLivePath: 1 });
    expect(getMessage(db, kimiReply.id)).toMatchObject({ parentId: kimi.result.userMessageId, brain: 'kimi', onLivePath: 0 });
    // Gemini was asked the same history up to the question, without Kimi's reply or its call.
    const geminiRequest = fake.requests().find((request) => request.brain === 'gemini')!.body as { contents: unknown[] };
    expect(geminiRequest.contents).toEqual([{ role: 'user', parts: [{ text: question }] }]);

    const kimiCall = providerCallIdOf(db, kimiReply.id);
    expect(kimiCall).toBe('functions.current_time:0');
    await engine.send('c1', 'Next question').done;
    // Gemini's calls carry no id: the replay names each after its own reply, never after the other branch's call.
    const geminiCall = ((lastKimiMessages()[1]?.tool_calls as { id: string }[] | undefined)?.[0]?.id ?? 'none');
    expect(geminiCall).toBe(`call_${geminiReply.id}_0`);
    const geminiBranch = [
      { role: 'user', content: question },
      {
        role: 'assistant',
        content: null,
        reasoning_content: '(These calls were made earlier in the conversation; no reasoning was recorded for them.)',
        tool_calls: [{ id: geminiCall, type: 'function', function: { name: 'current_time', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: geminiCall, content: 'TIME (UTC)' },
      { role: 'assistant', content: `Fake Gemini reply to: ${question} (tools answered: TIME (UTC))` },
    ];
    expect(lastKimiMessages()).toEqual([...geminiBranch, { role: 'user', content: 'Next question' }]);

    // Back to Kimi's reply: its branch is shown, and the next request replays it instead.
    expect(chooseBranch(db, kimiReply.id)).toEqual({ conversationId: 'c1', leafId: kimiReply.id });
    await engine.send('c1', 'Other question').done;
    expect(lastKimiMessages()).toEqual([
      { role: 'user', content: question },
      {
        role: 'assistant',
        content: null,
        reasoning_content: `Fake Kimi thinks about: ${question}`,
        tool_calls: [{ id: kimiCall, type: 'function', function: { name: 'current_time', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: kimiCall, content: 'TIME (UTC)' },
      { role: 'assistant', content: `Fake Kimi reply to: ${question} (tools answered: TIME (UTC))` },
      { role: 'user', content: 'Other question' },
    ]);

    // And the Gemini branch, chosen again through its reply, shows its newest descendant.
    const geminiLeaf = chooseBranch(db, geminiReply.id).leafId;
    expect(getMessage(db, geminiLeaf)).toMatchObject({ role: 'assistant', text: 'Fake Kimi reply to: Next question' });
    await engine.send('c1', 'Third').done;
    expect(lastKimiMessages()).toEqual([
      ...geminiBranch,
      { role: 'user', content: 'Next question' },
      { role: 'assistant', content: 'Fake Kimi reply to: Next question' },
      { role: 'user', content: 'Third' },
    ]);
    expect(fake.violations()).toEqual([]);
  });
});

describe('edit a message in the middle', () => {
  it('replays the history up to the edited message, then the new text, and nothing of the old branch', async () => {
    const { db, engine } = engineOverFakeBrains(fake, 'kimi');
    const first = engine.send('c1', 'One');
    await first.done;
    const second = engine.send('c1', 'Two');
    await second.done;
    await engine.send('c1', 'Three').done;
    const edited = engine.edit(second.result.userMessageId, 'Two, better');
    await edited.done;
    expect(getMessage(db, edited.result.userMessageId)).toMatchObject({ parentId: first.result.assistantMessageId, text: 'Two, better', onLivePath: 1 });
    expect(getMessage(db, second.result.userMessageId)?.onLivePath).toBe(0);
    expect(lastKimiMessages()).toEqual([
      { role: 'user', content: 'One' },
      { role: 'assistant', content: 'Fake Kimi reply to: One' },
      { role: 'user', content: 'Two, better' },
    ]);
    await engine.send('c1', 'Four').done;
    expect(lastKimiMessages().map((message) => message.content)).toEqual(['One', 'Fake Kimi reply to: One', 'Two, better', 'Fake Kimi reply to: Two, better', 'Four']);
    expect(() => engine.edit(first.result.assistantMessageId, 'nope')).toThrow('Only a message you wrote can be edited.');
    expect(fake.violations()).toEqual([]);
  });
});

describe('regenerate', () => {
  it("uses the reply's own brain, model and reasoning level after the conversation's brain was switched", async () => {
    const { db, engine } = engineOverFakeBrains(fake, 'kimi');
    updateConversation(db, 'c1', { model: 'kimi-k2.5', reasoningLevel: 'off' });
    const first = engine.send('c1', 'Hello');
    const reply = await first.done;
    expect(reply).toMatchObject({ brain: 'kimi', modelRequested: 'kimi-k2.5' });
    updateConversation(db, 'c1', { brain: 'claude', model: null, reasoningLevel: 'high' });
    const again = engine.answerAgain(reply.id, null);
    const regenerated = await again.done;
    expect(getMessage(db, regenerated.id)).toMatchObject({
      parentId: first.result.userMessageId,
      brain: 'kimi',
      modelRequested: 'kimi-k2.5',
      reasoningLevel: reply.reasoningLevel,
    });
    const request = fake.requests().at(-1)!;
    expect(request.brain).toBe('kimi');
    const body = request.body as { model: string; messages: ChatMessage[] };
    expect(body.model).toBe('kimi-k2.5');
    expect(body.messages[0]?.content).toContain('<vessel>\nbrain: kimi\nmodel: kimi-k2.5\n</vessel>');
    // The reply's own reasoning level, said in the request's fields.
    expect(body).toMatchObject(wireReasoning('kimi', 'kimi-k2.5', reply.reasoningLevel!).fields);
    expect(body.messages.slice(1)).toEqual([{ role: 'user', content: 'Hello' }]);
    // Regenerating the user message instead answers it with the conversation's brain now.
    const toUser = engine.answerAgain(first.result.userMessageId, null);
    expect(await toUser.done).toMatchObject({ brain: 'claude', status: 'complete' });
    expect(currentLeafId(db, 'c1')).toBe(toUser.result.assistantMessageId);
    expect(fake.violations()).toEqual([]);
  });
});
