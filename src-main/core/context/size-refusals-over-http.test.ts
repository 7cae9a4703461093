/**
 * Size refusals end to end, on all seven brains: the real core (openCore) sends over real HTTP through the real
 * adapters to the fake brains, whose `[window:N]` refuses a request above N tokens with the wire's own wording. The
 * turn fails as `context-too-large` with advice to compact, the brain is marked full, and the retry compacts first
 * and then fits under N.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CommandName, CommandOutput, ConversationView, MessageView } from '../../../src-shared/api';
import { BRAIN_IDS, BRAINS, type BrainId, type WireId } from '../../../src-shared/brains';
import { anthropicMessagesWire } from '../../../e2e/fake-brains/anthropic-messages';
import { chatCompletionsWire } from '../../../e2e/fake-brains/chat-completions';
import { estimateTokens as fakeRequestTokens, type FakeWire } from '../../../e2e/fake-brains/fake-wire';
import { geminiGenerateContentWire } from '../../../e2e/fake-brains/gemini-generate-content';
import { ollamaChatWire } from '../../../e2e/fake-brains/ollama-chat';
import { openAiResponsesWire } from '../../../e2e/fake-brains/openai-responses';
import { conversationTail, summaryOf } from '../../../e2e/fake-brains/script';
import { startFakeBrains, type FakeBrains } from '../../../e2e/fake-brains/server';
import { longTranscript } from '../../../e2e/support/long-conversation';
import { openCore, type OpenedCore } from '../app';
import { listAllMessages } from '../store/messages';
import { SUMMARY_REQUEST_MARKER } from './summary-prompt';

const EXCHANGES = 24;
/** Each stored message holds about this many tokens of words. */
const MESSAGE_TOKENS = 250;

/** How the fake reads each wire's requests: the last user text of a compaction request is its transcript. */
const FAKE_WIRES: Readonly<Record<WireId, FakeWire>> = {
  'anthropic-messages': anthropicMessagesWire,
  'chat-completions': chatCompletionsWire,
  'openai-responses': openAiResponsesWire,
  'gemini-generate-content': geminiGenerateContentWire,
  'ollama-chat': ollamaChatWire,
};

let fake: FakeBrains;
let dataDir: string;
let core: OpenedCore;

beforeAll(async () => {
  fake = await startFakeBrains();
  dataDir = mkdtempSync(join(tmpdir(), 'anybrain-size-refusals-'));
  // Only the base URLs: the fake brains take any key, and a keyless custom endpoint is how a user points at a local server.
  const env = Object.fromEntries(BRAIN_IDS.map((brain) => [BRAINS[brain].baseUrlVariable, fake.baseUrlFor(brain)]));
  core = openCore({ dataDir, env });
});
afterAll(async () => {
  await core.dispose();
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  fake.reset();
});

async function command<Name extends CommandName>(name: Name, input: unknown): Promise<CommandOutput<Name>> {
  const result = await core.dispatch(name, input);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.code}: ${result.error.message}`);
  return result.value as CommandOutput<Name>;
}

/** `[window:N]` padded to seven digits, so the directive's length does not depend on N. */
const windowDirective = (limitTokens: number): string => `[window:${String(limitTokens).padStart(7, '0')}]`;

/** Whether a request the fake received is a compaction request (its system prompt starts with the marker). */
function isCompactionRequest(body: unknown): boolean {
  return JSON.stringify(body).includes(JSON.stringify(SUMMARY_REQUEST_MARKER).slice(1, -1));
}

async function lastReply(conversationId: string): Promise<MessageView> {
  const page = await command('listMessages', { conversationId, limit: 5 });
  const reply = page.messages.at(-1);
  if (reply?.role !== 'assistant') throw new Error(`The conversation does not end with a reply: ${JSON.stringify(page.messages.at(-1))}`);
  return reply;
}

describe.each(BRAIN_IDS.map((brain) => ({ brain })))('a size refusal from $brain over HTTP', ({ brain }: { brain: BrainId }) => {
  it('fails the turn as context-too-large with the advice, marks the brain full, and the retry compacts first and fits', async () => {
    const label = BRAINS[brain].label;
    const imported: ConversationView = await command('importTranscript', { content: longTranscript({ title: `Long talk for ${label}`, exchanges: EXCHANGES, messageTokens: MESSAGE_TOKENS }) });
    const conversationId = imported.id;
    await command('setConversationBrain', { id: conversationId, brain });
    // The table's window (or Ollama's reported one) holds the whole conversation: only the provider's refusal tells.
    await command('setModelWindow', { brain, model: BRAINS[brain].defaultModel, contextWindow: 1_000_000, outputLimit: null });
    const before = await command('getContextStatus', { conversationId });
    expect(before).toMatchObject({ brain, full: false, level: 'ok', outsideWindow: 0 });
    expect(before.tokens).toBeGreaterThan(EXCHANGES * 2 * MESSAGE_TOKENS);
    const limitTokens = Math.floor(before.tokens / 2);
    const userText = `${windowDirective(limitTokens)} And now, in one line?`;

    const importedRows = listAllMessages(core.db, conversationId);
    expect(importedRows).toHaveLength(EXCHANGES * 2);

    await command('send', { conversationId, text: userText });
    await core.engine.settled(conversationId);
    const refused = await lastReply(conversationId);
    expect(refused).toMatchObject({ status: 'failed', brain, error: { code: 'context-too-large', retryable: false } });
    expect(refused.error?.message).toMatch(new RegExp(`^The conversation is too large for ${label}'s window \\(HTTP 400\\): .*${limitTokens}`));
    expect(refused.error?.message.endsWith('Compact and retry: Anybrain summarises the oldest messages first.')).toBe(true);
    const turnRequests = () => fake.requests().filter((recorded) => !recorded.path.endsWith('/api/show'));
    expect(turnRequests()).toHaveLength(1);
    expect(fakeRequestTokens(turnRequests()[0]!.body)).toBeGreaterThan(limitTokens);
    expect(await command('getContextStatus', { conversationId })).toMatchObject({ brain, full: true });

    await command('retry', { conversationId });
    await core.engine.settled(conversationId);
    const [refusedRequest, ...later] = turnRequests();
    const retriedRequest = later.pop();
    expect(isCompactionRequest(refusedRequest!.body)).toBe(false);
    expect(isCompactionRequest(retriedRequest!.body)).toBe(false);
    // The compaction between them: one request or more (a span larger than a request is read in parts), all to this
    // brain, each within N, since the provider that refused at N would refuse a larger one (the fake lets those through).
    expect(later.length).toBeGreaterThan(0);
    for (const summaryRequest of later) {
      expect(isCompactionRequest(summaryRequest.body)).toBe(true);
      expect(summaryRequest.brain).toBe(brain);
      expect(fakeRequestTokens(summaryRequest.body)).toBeLessThanOrEqual(limitTokens);
    }
    // The fake answers only a request within N: the reply completing is the fit, and the estimate says so too.
    expect(fakeRequestTokens(retriedRequest!.body)).toBeLessThanOrEqual(limitTokens);
    const retried = await lastReply(conversationId);
    expect(retried).toMatchObject({ status: 'complete', brain, error: null, text: `Fake ${label} reply to: ${userText}` });
    expect(fake.violations()).toEqual([]);

    const page = await command('listMessages', { conversationId, limit: 500 });
    const summary = page.messages[0]!;
    const covered = await command('listCoveredMessages', { summaryId: summary.id, limit: 500 });
    expect(covered.messages.length).toBeGreaterThan(0);
    expect(covered.hasOlder).toBe(false);
    // The stored summary is the fake's reply to the last part, which counts the questions that part's transcript holds.
    const lastPart = later.at(-1)!;
    const lastPartText = conversationTail(FAKE_WIRES[BRAINS[brain].wire].conversation(lastPart.body as Record<string, unknown>)).userText;
    expect(summary).toMatchObject({ role: 'system', kind: 'summary', brain, coveredMessages: covered.messages.length, text: summaryOf(lastPartText) });
    // Every row is still stored, unchanged but for `compacted_into` (and the time it was set): the covered ones are
    // the oldest imported rows.
    const stored = listAllMessages(core.db, conversationId);
    const storedById = new Map(stored.map((row) => [row.id, row]));
    for (const row of importedRows) {
      const now = storedById.get(row.id);
      expect(now).toEqual({ ...row, compactedInto: now?.compactedInto, updatedAt: now?.updatedAt });
    }
    expect(covered.messages.map((message) => message.id)).toEqual(importedRows.slice(0, covered.messages.length).map((row) => row.id));
    expect(stored.filter((row) => row.compactedInto === summary.id).map((row) => row.id)).toEqual(covered.messages.map((message) => message.id));
    // The page holds the summary and the rows it does not cover, none of the covered ones.
    expect(page.messages.slice(1).map((message) => message.id)).toEqual(
      stored.filter((row) => row.kind !== 'summary' && row.compactedInto === null).map((row) => row.id),
    );
    expect(await command('getContextStatus', { conversationId })).toMatchObject({ brain, full: false });
  });
});
