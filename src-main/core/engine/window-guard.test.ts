import { describe, expect, it } from 'vitest';
import { BRAINS, type BrainId } from '../../../src-shared/brains';
import { measurePressure, WIRE_MESSAGE_FRAMING_TOKENS } from '../context/pressure';
import { SUMMARY_REQUEST_MARKER } from '../context/summary-prompt';
import { estimateTokens } from '../context/token-estimate';
import { ContextWindows } from '../context/windows';
import { newId } from '../store/clock';
import { insertInvocation } from '../store/invocations';
import { insertMessage, listAllMessages, listMessagePage } from '../store/messages';
import { sentBody } from '../providers/testing/sent-body';
import type { AppDatabase } from '../store/open';
import { usageOfTurn } from '../store/request-usage';
import { costOf } from '../prices';
import { readBrainState, saveBrainState } from '../store/settings';
import { scriptedEngine, seedExchanges } from './testing';
import { clockOnlyToolbox } from './turn-toolbox';

const NOW = '2026-12-01T10:00:00.000Z';

function setup(brain: BrainId = 'claude') {
  return scriptedEngine({ brain, title: 'Long talk' });
}

const replyParts = (text: string) => [{ type: 'text-delta' as const, text }, { type: 'finish' as const, reason: 'stop' as const, rawReason: 'stop' }, 'end' as const];

/** The request's size as the window guard reads it: its JSON at about four characters a token. */
const requestTokens = (body: unknown) => estimateTokens(JSON.stringify(body));

function systemOf(body: Record<string, unknown>): string {
  const system = body.system;
  if (typeof system === 'string') return system;
  return Array.isArray(system) ? system.map((block: { text?: string }) => block.text ?? '').join('') : '';
}

describe('the window guard reads the target brain\'s window', () => {
  it('reads a 314K usage snapshot measured on Claude as an emergency for Codex and as fine for Claude', async () => {
    const { db } = setup();
    seedExchanges(db, 3, 50);
    const rows = listAllMessages(db, 'c1');
    const lastReply = rows[rows.length - 1]!;
    db.$client.prepare('UPDATE messages SET usage = ? WHERE id = ?').run(JSON.stringify({ inputTokens: 300_000, outputTokens: 14_000 }), lastReply.id);
    const windows = new ContextWindows(db);
    const forCodex = await measurePressure(db, windows, { conversationId: 'c1', brain: 'codex', model: 'gpt-5.5-codex', overheadTokens: 500 });
    expect(forCodex.status).toMatchObject({ tokens: 314_000, measuredBy: 'usage', contextWindow: 272_000, percent: 115, level: 'emergency', description: "115 % of Codex's window" });
    expect(forCodex.compactFirst).toBe(true);
    const forClaude = await measurePressure(db, windows, { conversationId: 'c1', brain: 'claude', model: 'claude-sonnet-4-6', overheadTokens: 500 });
    expect(forClaude.status).toMatchObject({ tokens: 314_000, contextWindow: 1_000_000, percent: 31, level: 'ok', description: "31 % of Claude's window" });
    expect(forClaude.compactFirst).toBe(false);
  });

  it("takes a provider's count over the estimate for what it measured, and adds the estimates of the rows after it", async () => {
    const { db } = setup();
    seedExchanges(db, 3, 2_000);
    const rows = listAllMessages(db, 'c1');
    db.$client.prepare('UPDATE messages SET usage = ? WHERE id = ?').run(JSON.stringify({ inputTokens: 900, outputTokens: 100, cacheReadTokens: 2_000 }), rows[3]!.id);
    const windows = new ContextWindows(db);
    const pressure = await measurePressure(db, windows, { conversationId: 'c1', brain: 'kimi', model: 'kimi-k2.6', overheadTokens: 500 });
    // Claude's count: 900 input + 2,000 read from the cache + 100 written; then the last exchange's two estimates,
    // each with what Kimi's wire wraps a message in.
    const framing = WIRE_MESSAGE_FRAMING_TOKENS['chat-completions'];
    expect(pressure.status).toMatchObject({ tokens: 3_000 + rows[4]!.tokenEstimate + rows[5]!.tokenEstimate + 2 * framing, measuredBy: 'usage' });
  });

  it('warns at the warning line and compacts first at the emergency line or when the brain is marked full', async () => {
    const { db, engine } = setup();
    seedExchanges(db, 10, 100);
    const windows = engine.windows;
    windows.setOverride('kimi', 'kimi-k2.6', { contextWindow: 2_000, outputLimit: null });
    const measure = () => measurePressure(db, windows, { conversationId: 'c1', brain: 'kimi', model: 'kimi-k2.6', overheadTokens: 0 });
    const total = (await measure()).status.tokens;
    expect((await measure()).status.level).toBe('emergency');
    windows.setOverride('kimi', 'kimi-k2.6', { contextWindow: Math.ceil(total / 0.6), outputLimit: null });
    expect((await measure()).status).toMatchObject({ level: 'warning', full: false });
    expect((await measure()).compactFirst).toBe(false);
    saveBrainState(db, { conversationId: 'c1', brain: 'kimi', full: true, now: NOW });
    expect((await measure()).compactFirst).toBe(true);
    windows.setLines('kimi', { warningPercent: 70, emergencyPercent: 90 });
    expect((await measure()).status).toMatchObject({ level: 'ok', lines: { warningPercent: 70, emergencyPercent: 90 } });
  });
});

describe('a turn on a smaller window compacts first', () => {
  it('switching a long conversation to a small-window brain summarises the oldest rows, keeps every row, and sends a request that fits', async () => {
    const { db, events, scripted, engine } = setup('kimi');
    seedExchanges(db, 40, 150);
    // Claude, with its large window, writes the summaries (Settings), in one request; Kimi gets the turn.
    engine.windows.setSummariser('claude');
    const answered = listAllMessages(db, 'c1')[1]!;
    insertInvocation(db, {
      id: newId(), turnId: answered.turnId, messageId: answered.id, seq: 0, kind: 'tool', server: null, tool: 'current_time',
      providerCallId: 'call_1', input: { zone: 'Asia/Seoul' }, output: '2026-12-01 19:00', status: 'ok', opaque: null, startedAt: NOW, endedAt: NOW,
    });
    engine.windows.setOverride('kimi', 'kimi-k2.6', { contextWindow: 8_000, outputLimit: 1_000 });
    const before = listAllMessages(db, 'c1').map((row) => row.id);

    const started = engine.send('c1', 'And now, in one line?');
    scripted.push(...replyParts('Summary: the user and Claude talked about lorem ipsum; Claude read the time in Seoul.'));
    scripted.push(...replyParts('In one line: lorem ipsum.'));
    const reply = await started.done;

    expect(reply.status).toBe('complete');
    const [summaryCall, turnCall] = scripted.calls;
    // The summary request: Claude's wire, the marker, the transcript with the tool call in words, no tools declared.
    expect(summaryCall!.wire).toBe('anthropic-messages');
    const summaryBody = sentBody(summaryCall!) as { messages: Array<{ role: string; content: Array<{ text: string }> | string }>; tools?: unknown };
    expect(systemOf(summaryBody).startsWith(SUMMARY_REQUEST_MARKER)).toBe(true);
    expect(JSON.stringify(summaryBody.messages)).toContain('  Tool call current_time {\\"zone\\":\\"Asia/Seoul\\"} answered: 2026-12-01 19:00');
    expect(summaryBody.tools).toBeUndefined();
    // The turn's request: the summary as a labelled system line first, then the newest rows, within the window.
    const turnBody = sentBody(turnCall!) as { messages: Array<{ role: string; content: string }>; max_tokens?: number };
    expect(turnBody.messages[1]).toEqual({
      role: 'user',
      content: "[System line, summary: neither the assistant's words nor the user's]\nSummary: the user and Claude talked about lorem ipsum; Claude read the time in Seoul.",
    });
    expect(turnBody.messages.at(-1)).toEqual({ role: 'user', content: 'And now, in one line?' });
    expect(requestTokens(turnBody) + 1_000).toBeLessThanOrEqual(8_000);

    const rows = listAllMessages(db, 'c1');
    const summary = rows.find((row) => row.kind === 'summary')!;
    expect(summary).toMatchObject({ role: 'system', brain: 'claude', modelRequested: BRAINS.claude.defaultModel, status: 'complete', compactedInto: null });
    const covered = rows.filter((row) => row.compactedInto === summary.id);
    expect(covered.length).toBeGreaterThan(40);
    expect(summary.coversThroughId).toBe(covered[covered.length - 1]!.id);
    // Nothing was deleted: every row from before is still stored.
    expect(before.every((id) => rows.some((row) => row.id === id))).toBe(true);
    const types = events.map((event) => event.type);
    expect(types.indexOf('compaction-started')).toBeLessThan(types.indexOf('compaction-finished'));
    expect(types.indexOf('compaction-finished')).toBeLessThan(types.indexOf('message-delta'));
    expect(events.find((event) => event.type === 'compaction-finished')).toMatchObject({ coveredMessages: covered.length });
    // The page that reaches the start begins with the summary; covered rows are not in the pages.
    const page = listMessagePage(db, 'c1', 500);
    expect(page.rows[0]?.id).toBe(summary.id);
    expect(page.rows.some((row) => row.compactedInto !== null)).toBe(false);
  });

  it("a small window's compaction leaves a large window's request whole; the small window's next request holds the summary", async () => {
    const { db, scripted, engine } = setup('kimi');
    seedExchanges(db, 40, 150);
    engine.windows.setSummariser('claude');
    engine.windows.setOverride('kimi', 'kimi-k2.6', { contextWindow: 8_000, outputLimit: 1_000 });
    const started = engine.send('c1', 'And now, in one line?');
    scripted.push(...replyParts('Summary: forty exchanges of lorem ipsum.'));
    scripted.push(...replyParts('In one line: lorem ipsum.'));
    expect((await started.done).status).toBe('complete');
    const rows = listAllMessages(db, 'c1');
    const summary = rows.find((row) => row.kind === 'summary')!;
    expect(db.$client.prepare('SELECT brain, model, context_window AS contextWindow, input_budget AS inputBudget FROM summary_windows WHERE summary_id = ?').get(summary.id)).toEqual({
      brain: 'kimi', model: 'kimi-k2.6', contextWindow: 8_000, inputBudget: 6_400,
    });

    const forClaude = await engine.previewRequest('c1', { brain: 'claude', message: 'Next?' });
    const claudeBody = JSON.parse(forClaude.body) as { messages: Array<{ role: string }> };
    expect(forClaude.context).toMatchObject({ summary: null, outsideWindow: 0 });
    expect(forClaude.body).not.toContain('forty exchanges');
    // Every stored row, the ones the summary covers included (40 seeded exchanges and the new one), and the next message.
    expect(claudeBody.messages).toHaveLength(83);
    expect(forClaude.body).toContain('question 0:');

    const forKimi = await engine.previewRequest('c1', {});
    expect(forKimi.context).toMatchObject({ summary: { messageId: summary.id, madeFor: 'kimi' }, outsideWindow: 0 });
    expect(forKimi.body).toContain('Summary: forty exchanges of lorem ipsum.');
    expect(forKimi.body).not.toContain('question 0:');
    expect(estimateTokens(forKimi.body)).toBeLessThanOrEqual(6_400);
  });

  it('a compaction the user stops changes nothing, and the turn goes on with the newest rows that fit and a notice', async () => {
    const { db, events, scripted, engine } = setup('kimi');
    seedExchanges(db, 40, 150);
    engine.windows.setOverride('kimi', 'kimi-k2.6', { contextWindow: 8_000, outputLimit: 1_000 });
    const before = listAllMessages(db, 'c1');

    const started = engine.send('c1', 'Go on');
    scripted.push({ type: 'text-delta', text: 'Summary: half' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(engine.stop('c1')).toBe(true);
    scripted.push('end', ...replyParts('Going on.'));
    const reply = await started.done;

    expect(reply).toMatchObject({ status: 'complete', text: 'Going on.' });
    expect(events.find((event) => event.type === 'compaction-failed')).toMatchObject({ reason: 'stopped', message: 'Compaction stopped. Nothing was changed.' });
    const after = listAllMessages(db, 'c1');
    expect(after.filter((row) => row.kind === 'summary')).toEqual([]);
    expect(after.slice(0, before.length)).toEqual(before);
    const turnBody = sentBody(scripted.calls[1]!) as { messages: Array<{ role: string; content: string }> };
    expect(turnBody.messages[1]!.content).toMatch(/^\[System line, notice: neither the assistant's words nor the user's\]\nOlder messages of this conversation are outside Kimi's window and not shown here\.$/);
    expect(requestTokens(turnBody) + 1_000).toBeLessThanOrEqual(8_000);
  });

  it('with compaction failing, twenty turns past the window cut older rows in blocks: the request keeps its start between cuts and stays below the emergency line', async () => {
    const { db, scripted, engine } = setup('kimi');
    seedExchanges(db, 40, 150);
    engine.windows.setOverride('kimi', 'kimi-k2.6', { contextWindow: 8_000, outputLimit: 1_000 });
    const overloaded = { type: 'error' as const, error: { code: 'overloaded' as const, message: 'The provider is overloaded (HTTP 529): busy', retryable: true, status: 529 } };
    const bodies: Array<{ messages: unknown[] }> = [];
    let newTokens = 0;
    for (let turn = 0; turn < 20; turn += 1) {
      const question = `Question ${turn}: ${'and so on '.repeat(20)}`;
      const answer = `Answer ${turn}: ${'lorem ipsum '.repeat(100)}`;
      newTokens += estimateTokens(question) + estimateTokens(answer);
      const started = engine.send('c1', question);
      scripted.push(overloaded, ...replyParts(answer));
      const done = await started.done;
      expect(done.status, `turn ${turn}: ${JSON.stringify(done.error)} after ${scripted.calls.length} calls`).toBe('complete');
      bodies.push(sentBody(scripted.calls.at(-1)!) as { messages: unknown[] });
    }
    const cuts = bodies.slice(1).filter((body, index) => {
      const previous = bodies[index]!.messages;
      return JSON.stringify(body.messages.slice(0, previous.length)) !== JSON.stringify(previous);
    }).length;
    // Half a window of new text (4,000 tokens) between cuts at least; and the history did get cut.
    expect(cuts).toBeGreaterThanOrEqual(1);
    expect(cuts).toBeLessThanOrEqual(Math.ceil(newTokens / 4_000));
    for (const body of bodies) expect(requestTokens(body)).toBeLessThanOrEqual(6_400);
    expect(readBrainState(db, 'c1', 'kimi')).toMatchObject({ trimWindow: 8_000 });
  });

  it('a compaction that fails leaves the conversation as it was', async () => {
    const { db, events, scripted, engine } = setup('kimi');
    seedExchanges(db, 40, 150);
    engine.windows.setOverride('kimi', 'kimi-k2.6', { contextWindow: 8_000, outputLimit: 1_000 });
    const before = listAllMessages(db, 'c1');
    const started = engine.send('c1', 'Go on');
    scripted.push({ type: 'error', error: { code: 'overloaded', message: 'The provider is overloaded (HTTP 529): busy', retryable: true, status: 529 } }, 'end');
    scripted.push(...replyParts('Still here.'));
    await started.done;
    expect(events.find((event) => event.type === 'compaction-failed')).toMatchObject({
      reason: 'failed',
      message: 'Kimi could not summarise the conversation, so nothing was changed: The provider is overloaded (HTTP 529): busy',
    });
    expect(listAllMessages(db, 'c1').slice(0, before.length)).toEqual(before);
  });

  it('a summary the brain declines to write fails the compaction with its words, and changes nothing', async () => {
    const { db, events, scripted, engine } = setup('kimi');
    seedExchanges(db, 40, 150);
    engine.windows.setOverride('kimi', 'kimi-k2.6', { contextWindow: 8_000, outputLimit: 1_000 });
    const before = listAllMessages(db, 'c1');
    const started = engine.send('c1', 'Go on');
    scripted.push({ type: 'text-delta', text: 'Summary: the user' }, { type: 'refusal', explanation: 'Not this.', category: null }, { type: 'finish', reason: 'stop', rawReason: 'stop' }, 'end');
    scripted.push(...replyParts('Still here.'));
    await started.done;
    expect(events.find((event) => event.type === 'compaction-failed')).toMatchObject({
      reason: 'failed',
      message: 'Kimi could not summarise the conversation, so nothing was changed: Kimi declined to answer: Not this.',
    });
    expect(listAllMessages(db, 'c1').slice(0, before.length)).toEqual(before);
  });

  it('a size refusal marks the brain full with the limit named, and the retry compacts first and fits below it', async () => {
    const { db, scripted, engine } = setup('kimi');
    seedExchanges(db, 20, 150);
    const first = engine.send('c1', 'Next');
    scripted.push(
      { type: 'error', error: { code: 'context-too-large', message: "The conversation is too large for Kimi's window.", retryable: false, status: 400, limitTokens: 4_000 } },
      'end',
    );
    const refused = await first.done;
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'context-too-large', limitTokens: 4_000 } });
    expect(readBrainState(db, 'c1', 'kimi')).toMatchObject({ full: true, refusedTokens: 4_000, refusedModel: 'kimi-k2.6' });

    const retried = engine.retry('c1');
    // Kimi refused at 4,000 tokens, so the summary requests keep below that too: the span is read in three parts.
    const summaries = ['Summary: the first third.', 'Summary: two thirds.', 'Summary: a long talk about lorem ipsum.'];
    scripted.push(...summaries.flatMap(replyParts), ...replyParts('Fits now.'));
    const reply = await retried.done;
    expect(reply).toMatchObject({ status: 'complete', text: 'Fits now.' });
    expect(listAllMessages(db, 'c1').filter((row) => row.kind === 'summary').map((row) => row.text)).toEqual(['Summary: a long talk about lorem ipsum.']);
    const [, ...retryCalls] = scripted.calls;
    const systemLine = (call: (typeof retryCalls)[number]) => (sentBody(call) as { messages: Array<{ content: string }> }).messages[0]!.content;
    expect(retryCalls.map((call) => systemLine(call).startsWith(SUMMARY_REQUEST_MARKER))).toEqual([true, true, true, false]);
    for (const call of retryCalls) expect(requestTokens(sentBody(call))).toBeLessThanOrEqual(4_000 * 0.8);
    expect(readBrainState(db, 'c1', 'kimi')).toMatchObject({ full: false });
  });

  it('a span longer than the summarising brain\'s window is read in parts, each carrying the summary so far', async () => {
    const { db, events, scripted, engine } = setup('kimi');
    seedExchanges(db, 40, 150);
    engine.windows.setOverride('kimi', 'kimi-k2.6', { contextWindow: 8_000, outputLimit: 1_000 });
    const done = engine.compact('c1');
    for (let part = 1; part <= 6; part += 1) scripted.push(...replyParts(`Part ${part} summary.`));
    const result = await done;
    const summaryCalls = scripted.calls.length;
    expect(summaryCalls).toBeGreaterThanOrEqual(2);
    expect(result).toMatchObject({ outcome: 'compacted', summary: { text: `Part ${summaryCalls} summary.` } });
    for (const call of scripted.calls) expect(requestTokens(sentBody(call)) + 1_000).toBeLessThanOrEqual(8_000);
    const second = (sentBody(scripted.calls[1]!) as { messages: Array<{ content: string }> }).messages[1]!.content;
    expect(second).toContain('Summary of what came before: Part 1 summary.');
    const progress = events.filter((event) => event.type === 'compaction-progress' && event.characters > 0);
    expect(progress.at(-1)).toMatchObject({ summarisedMessages: result.coveredMessages, totalMessages: result.coveredMessages });
  });

  it('a later compaction summarises the earlier summary with the rows after it', async () => {
    const { db, scripted, engine } = setup('kimi');
    seedExchanges(db, 30, 150);
    engine.windows.setOverride('kimi', 'kimi-k2.6', { contextWindow: 8_000, outputLimit: 1_000 });
    engine.windows.setSummariser('claude');
    scripted.push(...replyParts('Summary one.'));
    expect(await engine.compact('c1')).toMatchObject({ outcome: 'compacted' });
    const first = listAllMessages(db, 'c1').find((row) => row.kind === 'summary')!;
    seedMore(db, 30);
    scripted.push(...replyParts('Summary two.'));
    const second = await engine.compact('c1');
    expect(second).toMatchObject({ outcome: 'compacted', summary: { text: 'Summary two.', kind: 'summary' } });
    expect(JSON.stringify(sentBody(scripted.calls[1]!))).toContain('Summary of what came before: Summary one.');
    const rows = listAllMessages(db, 'c1');
    expect(rows.find((row) => row.id === first.id)?.compactedInto).toBe(second.summary!.id);
    expect(rows.filter((row) => row.kind === 'summary' && row.compactedInto === null).map((row) => row.text)).toEqual(['Summary two.']);
  });

  it('holds the conversation while a compaction the user started runs: a send is refused saying so, Stop ends it unchanged', async () => {
    const { db, scripted, engine } = setup('kimi');
    seedExchanges(db, 40, 150);
    engine.windows.setOverride('kimi', 'kimi-k2.6', { contextWindow: 8_000, outputLimit: 1_000 });
    const before = listAllMessages(db, 'c1');
    const compaction = engine.compact('c1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(engine.isCompacting('c1')).toBe(true);
    expect(() => engine.send('c1', 'hello')).toThrow('This conversation is being compacted. Wait for it, or press Stop, then send again.');
    await expect(engine.compact('c1')).rejects.toThrow('This conversation is being compacted. Wait for it, or press Stop, then compact.');
    expect(engine.stop('c1')).toBe(true);
    scripted.push('end');
    expect(await compaction).toMatchObject({ outcome: 'stopped', message: 'Compaction stopped. Nothing was changed.' });
    expect(engine.isCompacting('c1')).toBe(false);
    expect(listAllMessages(db, 'c1')).toEqual(before);
  });

  it('says when there is nothing to compact', async () => {
    const { db, engine } = setup('kimi');
    seedExchanges(db, 2, 20);
    const words = 'Nothing to fold yet: Compact now keeps the newest 2 turns as they are, and there is no earlier turn.';
    expect(await engine.previewCompaction('c1')).toMatchObject({ brain: 'kimi', messages: 0, through: null, message: words });
    expect(await engine.compact('c1')).toEqual({ outcome: 'nothing-to-compact', summary: null, coveredMessages: 0, message: words });
  });

  it('Compact now on an ordinary conversation: its preview, whole turns folded, and the figure that brain sees at once', async () => {
    const { db, scripted, engine } = setup('kimi');
    seedExchanges(db, 5, 200);
    const rows = listAllMessages(db, 'c1');
    const before = await engine.contextStatus('c1', {});
    expect(before).toMatchObject({ level: 'ok', summary: null });

    const preview = await engine.previewCompaction('c1');
    expect(preview).toMatchObject({ brain: 'kimi', model: 'kimi-k2.6', summariser: 'kimi', messages: 6, through: { messageId: rows[5]!.id } });
    expect(preview.message).toBe(
      "Kimi will summarise 6 messages, up to “answer 2: lorem ipsum lorem ipsum lorem ipsum lorem ipsum…”, for Kimi's window. " +
        'They stay in the conversation, folded under the summary, and other brains keep them while their windows hold them.',
    );
    const compacting = engine.compact('c1');
    scripted.push({ type: 'usage', usage: { inputTokens: 1_400, outputTokens: 12 } }, ...replyParts('Summary: three exchanges of lorem ipsum.'));
    expect(await compacting).toMatchObject({ outcome: 'compacted', coveredMessages: 6 });
    const summary = listAllMessages(db, 'c1').find((row) => row.kind === 'summary')!;
    // What the summary's request cost is kept under the summary's turn.
    const at = db.$client.prepare('SELECT created_at FROM request_usage WHERE turn_id = ?').pluck().get(summary.turnId) as string;
    const costUsd = costOf('kimi', 'kimi-k2.6', { inputTokens: 1_400, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 12 }, new Date(at));
    expect(costUsd).toBeGreaterThan(0);
    expect(usageOfTurn(db, summary.turnId)).toEqual({ requests: 1, inputTokens: 1_400, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 12, reasoningTokens: 0, costUsd });
    // Whole turns: the three oldest questions with their answers, none of the newest two turns.
    expect(listAllMessages(db, 'c1').filter((row) => row.compactedInto === summary.id).map((row) => row.id)).toEqual(rows.slice(0, 6).map((row) => row.id));
    const after = await engine.contextStatus('c1', {});
    expect(after).toMatchObject({ summary: { messageId: summary.id, madeFor: 'kimi' }, outsideWindow: 0 });
    expect(after.tokens).toBeLessThan(before.tokens - 500);
    // Claude, whose window holds every message, keeps them.
    expect(await engine.contextStatus('c1', { brain: 'claude' })).toMatchObject({ summary: null, outsideWindow: 0 });
  });
});

function seedMore(db: AppDatabase, exchanges: number): void {
  const start = listAllMessages(db, 'c1').reduce((max, row) => Math.max(max, row.seq), 0) + 1;
  for (let index = 0; index < exchanges; index += 1) {
    const turnId = newId();
    const text = `more ${index}: ${'dolor sit amet '.repeat(40)}`;
    insertMessage(db, { id: newId(), conversationId: 'c1', seq: start + index * 2, turnId, role: 'user', text, status: 'complete', createdAt: NOW });
    insertMessage(db, { id: newId(), conversationId: 'c1', seq: start + index * 2 + 1, turnId, role: 'assistant', text, status: 'complete', brain: 'kimi', createdAt: NOW });
  }
}

describe('a reply whose own tool answers fill the window', () => {
  it('lets older rows give way in its next round, so the request stays inside the window and carries the answer whole', async () => {
    const longFile = `${'Notes on the trip. '.repeat(1_400)}The END.`;
    const readFile = {
      name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object' }, server: null,
      execute: async () => ({ output: longFile, isError: false }),
    };
    const { db, engine, scripted } = scriptedEngine({ brain: 'kimi', title: 'Long talk', toolbox: { ...clockOnlyToolbox(), list: async () => [readFile] } });
    seedExchanges(db, 30, 150, 'kimi');
    engine.windows.setOverride('kimi', 'kimi-k2.6', { contextWindow: 16_000, outputLimit: 2_000 });

    const started = engine.send('c1', 'Read trip.md and sum it up.');
    scripted.push(
      { type: 'tool-call', providerCallId: 'functions.read_file:0', name: 'read_file', input: { path: 'trip.md' } }, 'end',
      { type: 'text-delta', text: 'It is about a trip.' }, 'end',
    );
    expect((await started.done).status).toBe('complete');

    const [first, second] = scripted.calls.map((call) => sentBody(call) as { messages: Array<{ role: string; content: unknown }> });
    const notice = /^\[System line, notice: neither the assistant's words nor the user's\]\nOlder messages of this conversation are outside Kimi's window and not shown here\.$/;
    // The first round holds the whole conversation; the answer then needs the room of the oldest exchanges.
    expect(first!.messages.some((message) => typeof message.content === 'string' && notice.test(message.content))).toBe(false);
    expect(second!.messages[1]!.content).toMatch(notice);
    expect(second!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'functions.read_file:0', content: longFile });
    expect(second!.messages.some((message) => message.content === 'Read trip.md and sum it up.')).toBe(true);
    // The window holds the request and the reply's 2,000 tokens.
    expect(requestTokens(second) + 2_000).toBeLessThanOrEqual(16_000);
    expect(requestTokens(first) + 2_000).toBeLessThanOrEqual(16_000);
  });
});
