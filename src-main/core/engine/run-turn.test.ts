import { DiskConfirmation } from '../outside/disk-confirmation';
import { NotAnswering } from '../outside/not-answering';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { costOf } from '../prices';
import { describe, expect, it, vi } from 'vitest';
import type { ApiEvent } from '../../../src-shared/api';
import { updateConversation } from '../store/conversations';
import { useFileSyncFor } from '../store/log-sync';
import { listAllMessages } from '../store/messages';
import { openDatabase, type AppDatabase } from '../store/open';
import { heldFileSyncs } from '../store/testing/held-file-syncs';
import { readBrainState, readCounters } from '../store/settings';
import { listInvocationsByMessage } from '../store/invocations';
import { usageOfConversation, usageOfTurn } from '../store/request-usage';
import { MAX_TOOL_ROUNDS } from './run-turn';
import { clockOnlyToolbox, type TurnToolbox } from './turn-toolbox';
import { ApprovalGate, type ApprovalRequest, type ToolPolicy } from '../tools/approvals';
import { createRunSkillTool, parseSkill, type Skill } from '../tools/skills';
import { currentTimeTool } from '../tools/current-time';
import { scriptedEngine } from './testing';
import { FOREIGN_REASONING_PLACEHOLDER } from '../replay/wires/chat-completions';

function setup(options: { apiKey?: string | null; baseUrl?: string; toolbox?: TurnToolbox; db?: AppDatabase; disk?: DiskConfirmation } = {}) {
  return scriptedEngine(options);
}

const shownText = (events: ApiEvent[], messageId: string) =>
  events
    .filter((event): event is Extract<ApiEvent, { type: 'message-delta' }> => event.type === 'message-delta' && event.messageId === messageId)
    .map((event) => event.textDelta)
    .join('');

describe('TurnEngine', () => {
  it('runs a turn: one turn id on both rows, streamed text, served model and usage stored', async () => {
    const { db, events, scripted, engine } = setup();
    const started = engine.send('c1', 'Hello there');
    scripted.push(
      { type: 'response-model', model: 'kimi-k2.6' },
      { type: 'text-delta', text: 'Hi' },
      { type: 'text-delta', text: ' you' },
      { type: 'usage', usage: { inputTokens: 12, outputTokens: 2 } },
      { type: 'finish', reason: 'stop', rawReason: 'stop' },
      'end',
    );
    const message = await started.done;
    expect(message).toMatchObject({ status: 'complete', text: 'Hi you', brain: 'kimi', modelRequested: 'kimi-k2.6', modelResponded: 'kimi-k2.6', modelMismatch: false, usage: { inputTokens: 12, outputTokens: 2 }, error: null });
    const rows = listAllMessages(db, 'c1');
    expect(rows.map((row) => [row.role, row.turnId, row.status, row.text])).toEqual([
      ['user', started.result.turnId, 'complete', 'Hello there'],
      ['assistant', started.result.turnId, 'complete', 'Hi you'],
    ]);
    expect(events.map((event) => event.type)).toEqual([
      'turn-started', 'conversation-updated', 'context-pressure', 'message-delta', 'message-delta', 'turn-receipt', 'turn-done', 'conversation-updated',
    ]);
    expect(events[5]).toEqual({
      type: 'turn-receipt', conversationId: 'c1', turnId: started.result.turnId, messageId: message.id,
      receipt: { counts: { memory: 0, tool: 0, skill: 0 }, summary: '', chips: [] },
    });
    expect(shownText(events, message.id)).toBe('Hi you');
    // The first message names the conversation.
    expect(events[1]).toMatchObject({ type: 'conversation-updated', conversation: { title: 'Hello there' } });
    // The provider got the conversation's brain, the default model and the exact replay.
    expect(scripted.calls[0]?.body).toMatchObject({ model: 'kimi-k2.6', messages: [{ role: 'system' }, { role: 'user', content: 'Hello there' }] });
    expect(readBrainState(db, 'c1', 'kimi')?.usage).toEqual({ inputTokens: 12, outputTokens: 2 });
  });

  it('refuses a second send while a turn runs, and stores nothing for it', async () => {
    const { db, scripted, engine } = setup();
    const first = engine.send('c1', 'one');
    expect(() => engine.send('c1', 'two')).toThrow(/still being written/);
    scripted.push({ type: 'text-delta', text: 'ok' }, 'end');
    await first.done;
    expect(listAllMessages(db, 'c1').map((row) => row.text)).toEqual(['one', 'ok']);
  });

  it('stops midway and stores exactly the text that was shown, as stopped', async () => {
    const { db, events, scripted, engine } = setup();
    const started = engine.send('c1', 'long one');
    scripted.push({ type: 'text-delta', text: 'alpha ' }, { type: 'text-delta', text: 'beta ' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(engine.stop('c1')).toBe(true);
    scripted.push({ type: 'text-delta', text: 'never shown' }, 'end');
    const message = await started.done;
    expect(message.status).toBe('stopped');
    expect(message.text).toBe('alpha beta ');
    expect(shownText(events, message.id)).toBe(message.text);
    expect(listAllMessages(db, 'c1')[1]).toMatchObject({ status: 'stopped', text: 'alpha beta ' });
    expect(engine.isRunning('c1')).toBe(false);
  });

  it('checkpoints the streaming text before the reply finishes', async () => {
    const { db, scripted, engine } = setup();
    const started = engine.send('c1', 'hi');
    scripted.push({ type: 'text-delta', text: 'partial' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(listAllMessages(db, 'c1')[1]).toMatchObject({ status: 'streaming', text: 'partial' });
    scripted.push('end');
    await started.done;
  });

  it('writes checkpoints and the reply\u2019s end without waiting for the disk, and says done once the end is on it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'anybrain-run-turn-'));
    const db = openDatabase(join(folder, 'anybrain.db'));
    try {
      const syncs = heldFileSyncs();
      useFileSyncFor(db, syncs.syncFile);
      const { events, scripted, engine } = setup({ db });
      const started = engine.send('c1', 'hi');
      scripted.push({ type: 'text-delta', text: 'partial' });
      await vi.waitFor(() => expect(listAllMessages(db, 'c1')[1]).toMatchObject({ status: 'streaming', text: 'partial' }));
      // The checkpoint was committed while its sync still runs, and asked for a sync of the log.
      expect(syncs.paths).toEqual([`${join(folder, 'anybrain.db')}-wal`]);
      scripted.push('end');
      await vi.waitFor(() => expect(listAllMessages(db, 'c1')[1]).toMatchObject({ status: 'complete', text: 'partial' }));
      expect(events.map((event) => event.type)).not.toContain('turn-done');
      expect(db.$client.pragma('synchronous', { simple: true })).toBe(1);
      // The checkpoint's sync ends, then the one queued behind it for the reply's end.
      await syncs.finishNext();
      expect(events.map((event) => event.type)).not.toContain('turn-done');
      await syncs.finishNext();
      await expect(started.done).resolves.toMatchObject({ status: 'complete', text: 'partial' });
      expect(events.map((event) => event.type).slice(-3)).toEqual(['turn-receipt', 'turn-done', 'conversation-updated']);
      expect(syncs.running()).toBe(0);
    } finally {
      db.$client.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('ends a reply whose sync the disk refused as done, saying so in the log', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'anybrain-run-turn-'));
    const db = openDatabase(join(folder, 'anybrain.db'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const syncs = heldFileSyncs();
      useFileSyncFor(db, syncs.syncFile);
      const { scripted, engine } = setup({ db });
      const started = engine.send('c1', 'hi');
      scripted.push({ type: 'text-delta', text: 'kept' }, 'end');
      await vi.waitFor(() => expect(syncs.running()).toBe(1));
      await syncs.finishNext(new Error('EIO: i/o error, fsync'));
      await expect(started.done).resolves.toMatchObject({ status: 'complete', text: 'kept' });
      expect(warn).toHaveBeenCalledWith('Anybrain: the disk did not confirm saving a reply: EIO: i/o error, fsync');
    } finally {
      warn.mockRestore();
      db.$client.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('ends a reply the disk does not confirm within its limit as done, and reports the disk until its sync comes back', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'anybrain-run-turn-'));
    const db = openDatabase(join(folder, 'anybrain.db'));
    const lines: string[] = [];
    const notAnswering = new NotAnswering((line) => lines.push(line));
    try {
      const syncs = heldFileSyncs();
      useFileSyncFor(db, syncs.syncFile);
      const { events, scripted, engine } = setup({ db, disk: new DiskConfirmation(notAnswering, 30) });
      const started = engine.send('c1', 'hi');
      scripted.push({ type: 'text-delta', text: 'kept' }, 'end');
      // The disk never confirms the sync: the window still hears the reply ended.
      await expect(started.done).resolves.toMatchObject({ status: 'complete', text: 'kept' });
      expect(events.map((event) => event.type)).toContain('turn-done');
      expect(syncs.running()).toBe(1);
      expect(notAnswering.list().map((entry) => [entry.key, entry.message])).toEqual([
        ['disk', "The disk has not confirmed Anybrain's writes for 0.03 s: what you see is saved, but a power cut now could still lose it."],
      ]);
      while (syncs.running() > 0) await syncs.finishNext();
      await vi.waitFor(() => expect(notAnswering.list()).toEqual([]));
      expect(lines.at(-1)).toBe('Anybrain: the disk answers again.');
    } finally {
      db.$client.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('treats an empty reply as a failed, retryable turn', async () => {
    const { scripted, engine, events } = setup();
    const started = engine.send('c1', 'hi');
    scripted.push({ type: 'finish', reason: 'stop', rawReason: 'end_turn' }, 'end');
    const message = await started.done;
    expect(message.status).toBe('failed');
    expect(message.error).toEqual({ code: 'empty-reply', message: 'Kimi sent back an empty reply. Retry, or switch brain.', retryable: true });
    expect(events.at(-2)?.type).toBe('turn-failed');
  });

  it('ends a refused reply as a refusal and runs none of the calls that came with it', async () => {
    const { db, scripted, engine } = setup();
    const started = engine.send('c1', 'hi');
    scripted.push(
      { type: 'text-delta', text: 'Let me ' },
      { type: 'tool-call', providerCallId: 'functions.current_time:0', name: 'current_time', input: {} },
      { type: 'refusal', explanation: 'Not this.', category: null },
      { type: 'finish', reason: 'tool-calls', rawReason: 'tool_calls' },
      'end',
    );
    const message = await started.done;
    expect(message).toMatchObject({ status: 'failed', text: 'Let me ', error: { code: 'refusal', message: 'Kimi declined to answer: Not this.', retryable: false } });
    expect(scripted.calls).toHaveLength(1);
    expect(listInvocationsByMessage(db, [message.id]).get(message.id) ?? []).toEqual([]);
  });

  it('keeps the partial text when a provider error arrives mid-stream', async () => {
    const { scripted, engine } = setup();
    const started = engine.send('c1', 'hi');
    scripted.push(
      { type: 'text-delta', text: 'Half a rep' },
      { type: 'error', error: { code: 'overloaded', message: 'Kimi is overloaded (Overloaded). Try again in a moment.', retryable: true, status: 529 } },
      'end',
    );
    const message = await started.done;
    expect(message).toMatchObject({ status: 'failed', text: 'Half a rep', error: { code: 'overloaded', retryable: true, status: 529 } });
  });

  it('names the brain to the provider and keeps the text and the asked wait of a stalled or rate-limited stream', async () => {
    const { scripted, engine } = setup();
    const stalled = engine.send('c1', 'hi');
    const stallMessage = 'Kimi stopped sending for 90 s; the reply so far is kept. Retry, or switch brain.';
    scripted.push({ type: 'text-delta', text: 'So far' }, { type: 'error', error: { code: 'provider-stalled', message: stallMessage, retryable: true } }, 'end');
    expect(await stalled.done).toMatchObject({ status: 'failed', text: 'So far', error: { code: 'provider-stalled', message: stallMessage, retryable: true } });
    expect(scripted.calls[0]?.label).toBe('Kimi');

    const limited = engine.send('c1', 'again');
    const limitMessage = 'The provider is rate-limiting requests (HTTP 429); the provider asks to wait 20 s: Slow down';
    scripted.push({ type: 'error', error: { code: 'rate-limited', message: limitMessage, status: 429, retryable: true, retryAfterSeconds: 20 } }, 'end');
    expect((await limited.done).error).toEqual({ code: 'rate-limited', message: limitMessage, status: 429, retryable: true, retryAfterSeconds: 20 });
  });

  it('flags a served model that differs from the requested one', async () => {
    const { scripted, engine } = setup();
    const started = engine.send('c1', 'hi');
    scripted.push({ type: 'response-model', model: 'kimi-k2.5' }, { type: 'text-delta', text: 'x' }, 'end');
    expect(await started.done).toMatchObject({ modelRequested: 'kimi-k2.6', modelResponded: 'kimi-k2.5', modelMismatch: true });
  });

  it('refuses a turn without a key on the official endpoint, naming where to put one, and stores nothing', () => {
    const { db, engine } = setup({ apiKey: null, baseUrl: 'https://api.moonshot.ai/v1' });
    expect(() => engine.send('c1', 'hi')).toThrow('No API key for Kimi. Add one in Settings, or set MOONSHOT_API_KEY before starting Anybrain.');
    expect(listAllMessages(db, 'c1')).toEqual([]);
  });

  it('lets a keyless turn through to a custom base URL with a placeholder key', async () => {
    const { scripted, engine } = setup({ apiKey: null });
    const started = engine.send('c1', 'hi');
    scripted.push({ type: 'text-delta', text: 'local' }, 'end');
    expect((await started.done).status).toBe('complete');
    expect(scripted.calls[0]?.apiKey).toBe('no-key-set');
  });

  it('retries the last user message without storing it again, and replays without the failed reply', async () => {
    const { db, scripted, engine } = setup();
    const first = engine.send('c1', 'question');
    scripted.push('end');
    await first.done;
    const retried = engine.retry('c1');
    expect(retried.result.userMessageId).toBe('');
    scripted.push({ type: 'text-delta', text: 'answer' }, 'end');
    await retried.done;
    expect(listAllMessages(db, 'c1').map((row) => [row.role, row.status, row.text])).toEqual([
      ['user', 'complete', 'question'],
      ['assistant', 'failed', ''],
      ['assistant', 'complete', 'answer'],
    ]);
    expect((scripted.calls[1]?.body.messages as unknown[]).slice(1)).toEqual([{ role: 'user', content: 'question' }]);
  });

  it('ends a regenerated reply with its place among its alternatives, so the window keeps its pager', async () => {
    const { events, scripted, engine } = setup();
    const first = engine.send('c1', 'question');
    scripted.push({ type: 'text-delta', text: 'one' }, 'end');
    const original = await first.done;
    const again = engine.answerAgain(original.id, null);
    scripted.push({ type: 'text-delta', text: 'two' }, 'end');
    const regenerated = await again.done;
    const done = events.filter((event): event is Extract<ApiEvent, { type: 'turn-done' }> => event.type === 'turn-done').at(-1);
    const place = { index: 2, count: 2, previousId: original.id, nextId: null };
    expect(done?.message.siblings).toEqual(place);
    expect(regenerated.siblings).toEqual(place);
  });

  it('marks the conversation full for its brain when the provider refuses the size', async () => {
    const { db, scripted, engine } = setup();
    const started = engine.send('c1', 'hi');
    scripted.push({ type: 'error', error: { code: 'context-too-large', message: 'too long', retryable: false, status: 400 } }, 'end');
    await started.done;
    expect(readBrainState(db, 'c1', 'kimi')?.full).toBe(true);
  });

  it('keeps a reply cut by shutdown as interrupted', async () => {
    const { events, scripted, engine } = setup();
    const started = engine.send('c1', 'hi');
    scripted.push({ type: 'text-delta', text: 'so far' });
    // Shown before the app closes (a fixed pause was too short on a busy machine).
    await expect.poll(() => shownText(events, started.result.assistantMessageId)).toBe('so far');
    await engine.dispose();
    expect(await started.done).toMatchObject({ status: 'interrupted', text: 'so far', error: { code: 'interrupted', retryable: true } });
  });

  it('keeps what each request of a reply cost: a two-round reply stores two usage rows, and its total is their sum', async () => {
    const { db, scripted, engine } = setup();
    const started = engine.send('c1', 'What time is it in Seoul?');
    scripted.push(
      { type: 'usage', usage: { inputTokens: 25_066, cacheReadTokens: 20_000 } },
      { type: 'tool-call', providerCallId: 'functions.current_time:0', name: 'current_time', input: { zone: 'Asia/Seoul' } },
      { type: 'usage', usage: { outputTokens: 40 } },
      { type: 'finish', reason: 'tool-calls', rawReason: 'tool_calls' },
      'end',
      { type: 'text-delta', text: 'It is 8 pm.' },
      { type: 'usage', usage: { inputTokens: 25_134, cacheReadTokens: 25_066, outputTokens: 6 } },
      { type: 'finish', reason: 'stop', rawReason: 'stop' },
      'end',
    );
    const message = await started.done;
    // The reply keeps the last request's count: the window's measure of the conversation.
    expect(message.usage).toEqual({ inputTokens: 25_134, cacheReadTokens: 25_066, outputTokens: 6 });
    const rows = db.$client
      .prepare('SELECT turn_id AS turnId, purpose, round, brain, model, input_tokens AS input, cache_read_tokens AS cacheRead, output_tokens AS output FROM request_usage ORDER BY round')
      .all();
    expect(rows).toEqual([
      { turnId: started.result.turnId, purpose: 'reply', round: 0, brain: 'kimi', model: 'kimi-k2.6', input: 25_066, cacheRead: 20_000, output: 40 },
      { turnId: started.result.turnId, purpose: 'reply', round: 1, brain: 'kimi', model: 'kimi-k2.6', input: 25_134, cacheRead: 25_066, output: 6 },
    ]);
    // Each request is priced on its own, cached reads at their own rate, by the price list's own arithmetic.
    const priced = db.$client.prepare('SELECT cost_usd AS cost, created_at AS at FROM request_usage ORDER BY round').all() as Array<{ cost: number; at: string }>;
    const expectedCosts = [
      costOf('kimi', 'kimi-k2.6', { inputTokens: 25_066, cacheReadTokens: 20_000, cacheWriteTokens: 0, outputTokens: 40 }, new Date(priced[0]!.at)),
      costOf('kimi', 'kimi-k2.6', { inputTokens: 25_134, cacheReadTokens: 25_066, cacheWriteTokens: 0, outputTokens: 6 }, new Date(priced[1]!.at)),
    ];
    expect(expectedCosts.every((cost) => typeof cost === 'number' && cost > 0)).toBe(true);
    expect(priced.map((row) => row.cost)).toEqual(expectedCosts);
    const costUsd = Math.round((expectedCosts[0]! + expectedCosts[1]!) * 1e8) / 1e8;
    expect(usageOfTurn(db, started.result.turnId)).toEqual({
      requests: 2, inputTokens: 50_200, cacheReadTokens: 45_066, cacheWriteTokens: 0, outputTokens: 46, reasoningTokens: 0, costUsd,
    });
    expect(usageOfConversation(db, 'c1')).toEqual(usageOfTurn(db, started.result.turnId));
    // The window hears the sum with the reply.
    expect(message.spend).toEqual({ requests: 2, inputTokens: 50_200, cacheReadTokens: 45_066, cacheWriteTokens: 0, outputTokens: 46, costUsd });
  });

  it('runs the tool loop: executes the call, stores it under the turn id, and sends it back in the wire\u2019s shape', async () => {
    const { db, events, scripted, engine } = setup();
    const started = engine.send('c1', 'What time is it in Seoul?');
    scripted.push(
      { type: 'text-delta', text: 'Checking. ' },
      { type: 'tool-call', providerCallId: 'functions.current_time:0', name: 'current_time', input: { zone: 'Asia/Seoul' } },
      { type: 'finish', reason: 'tool-calls', rawReason: 'tool_calls' },
      'end',
      { type: 'text-delta', text: 'It is 8 pm.' },
      { type: 'finish', reason: 'stop', rawReason: 'stop' },
      'end',
    );
    const message = await started.done;
    expect(message).toMatchObject({ status: 'complete', text: 'Checking. It is 8 pm.' });
    const invocations = listInvocationsByMessage(db, [message.id]).get(message.id) ?? [];
    expect(invocations.map(({ id: _id, startedAt: _started, endedAt: _ended, ...row }) => row)).toEqual([
      {
        turnId: started.result.turnId, messageId: message.id, seq: 0, kind: 'tool', server: null, tool: 'current_time',
        providerCallId: 'functions.current_time:0', input: { zone: 'Asia/Seoul' }, output: '2026-11-30T20:00:00+09:00 (Asia/Seoul)',
        status: 'ok', opaque: null, images: null,
      },
    ]);
    expect(scripted.calls).toHaveLength(2);
    // Kimi K2.6 thinks by default, and then wants reasoning_content on every assistant message with tool calls.
    expect((scripted.calls[1]?.body.messages as unknown[]).slice(2)).toEqual([
      {
        role: 'assistant',
        content: 'Checking. ',
        reasoning_content: FOREIGN_REASONING_PLACEHOLDER,
        tool_calls: [{ id: 'functions.current_time:0', type: 'function', function: { name: 'current_time', arguments: '{"zone":"Asia/Seoul"}' } }],
      },
      { role: 'tool', tool_call_id: 'functions.current_time:0', content: '2026-11-30T20:00:00+09:00 (Asia/Seoul)' },
    ]);
    expect(events.filter((event) => event.type.startsWith('tool-call')).map((event) => event.type)).toEqual(['tool-call-started', 'tool-call-finished']);
    expect(events.find((event) => event.type === 'turn-receipt')).toMatchObject({
      receipt: { summary: '1 tool', chips: [{ kind: 'tool', label: 'current_time', status: 'ok' }] },
    });

    // The next turn replays the finished reply as it was written: the reply's last request, then its last words.
    const next = engine.send('c1', 'Thanks');
    scripted.push({ type: 'text-delta', text: 'Welcome' }, 'end');
    await next.done;
    const lastOfReply = scripted.calls[1]?.body.messages as unknown[];
    const nextMessages = scripted.calls[2]?.body.messages as unknown[];
    expect(nextMessages.slice(0, lastOfReply.length)).toEqual(lastOfReply);
    expect(nextMessages.slice(lastOfReply.length)).toEqual([{ role: 'assistant', content: 'It is 8 pm.' }, { role: 'user', content: 'Thanks' }]);

    // Once a newer reply follows, it keeps the shape it was written in (its short answer needs no cut): the request
    // after that still starts with this one.
    const third = engine.send('c1', 'And now?');
    scripted.push({ type: 'text-delta', text: 'Still 8 pm' }, 'end');
    await third.done;
    const thirdMessages = scripted.calls[3]?.body.messages as unknown[];
    expect(thirdMessages.slice(0, nextMessages.length)).toEqual(nextMessages);
  });

  it('sends a tool\u2019s 5,000-character answer whole within its turn and the next, and cut to 500 once a newer reply follows', async () => {
    const fileText = `${'Seoul at night. '.repeat(312)}The END.`;
    const readFile = {
      name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object' }, server: null,
      execute: async () => ({ output: fileText, isError: false }),
    };
    const { scripted, engine } = setup({ toolbox: { ...clockOnlyToolbox(), list: async () => [readFile] } });
    const started = engine.send('c1', 'Read a.md');
    scripted.push(
      { type: 'tool-call', providerCallId: 'functions.read_file:0', name: 'read_file', input: { path: 'a.md' } }, 'end',
      { type: 'text-delta', text: 'It is about Seoul.' }, 'end',
    );
    await started.done;
    expect(fileText).toHaveLength(5000);
    expect((scripted.calls[1]?.body.messages as unknown[]).at(-1)).toEqual({ role: 'tool', tool_call_id: 'functions.read_file:0', content: fileText });

    const next = engine.send('c1', 'Thanks');
    scripted.push({ type: 'text-delta', text: 'Welcome' }, 'end');
    await next.done;
    // The newest reply replays as it was written, so the request it made is the start of this one.
    expect((scripted.calls[2]?.body.messages as unknown[]).slice(2, 4)[1]).toEqual({ role: 'tool', tool_call_id: 'functions.read_file:0', content: fileText });

    const third = engine.send('c1', 'And the next file?');
    scripted.push({ type: 'text-delta', text: 'None' }, 'end');
    await third.done;
    const replayed = (scripted.calls[3]?.body.messages as unknown[]).slice(2, 4);
    expect(replayed[1]).toEqual({ role: 'tool', tool_call_id: 'functions.read_file:0', content: `${fileText.slice(0, 493)}… [cut]` });
    expect(JSON.stringify(replayed)).not.toContain('The END.');
  });

  it('replays a live loop of two rounds as two assistant messages, each with its own words and reasoning', async () => {
    const { db, scripted, engine } = setup();
    updateConversation(db, 'c1', { reasoningLevel: 'high' });
    const started = engine.send('c1', 'Time in Seoul, then in Paris?');
    scripted.push(
      { type: 'reasoning-delta', text: 'Seoul first.' },
      { type: 'text-delta', text: 'Seoul: ' },
      { type: 'tool-call', providerCallId: 'functions.current_time:0', name: 'current_time', input: { zone: 'Asia/Seoul' } },
      'end',
      { type: 'reasoning-delta', text: 'Now Paris.' },
      { type: 'text-delta', text: 'Paris: ' },
      { type: 'tool-call', providerCallId: 'functions.current_time:1', name: 'current_time', input: { zone: 'Europe/Paris' } },
      'end',
      { type: 'reasoning-delta', text: 'Both known.' },
      { type: 'text-delta', text: 'done.' },
      'end',
    );
    const message = await started.done;
    expect(message.text).toBe('Seoul: Paris: done.');
    expect(scripted.calls).toHaveLength(3);
    expect((scripted.calls[2]?.body.messages as unknown[]).slice(2)).toEqual([
      {
        role: 'assistant',
        content: 'Seoul: ',
        reasoning_content: 'Seoul first.',
        tool_calls: [{ id: 'functions.current_time:0', type: 'function', function: { name: 'current_time', arguments: '{"zone":"Asia/Seoul"}' } }],
      },
      { role: 'tool', tool_call_id: 'functions.current_time:0', content: '2026-11-30T20:00:00+09:00 (Asia/Seoul)' },
      {
        role: 'assistant',
        content: 'Paris: ',
        reasoning_content: 'Now Paris.',
        tool_calls: [{ id: 'functions.current_time:1', type: 'function', function: { name: 'current_time', arguments: '{"zone":"Europe/Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'functions.current_time:1', content: '2026-11-30T12:00:00+01:00 (Europe/Paris)' },
    ]);
    // The stored reply keeps the whole reasoning as one record, each round's a paragraph of its own.
    expect(listAllMessages(db, 'c1')[1]?.reasoning).toMatchObject({ brain: 'kimi', text: 'Seoul first.\n\nNow Paris.\n\nBoth known.' });
  });

  it('answers a call to a tool that is not offered with a tool error, and carries on', async () => {
    const { db, scripted, engine } = setup();
    const started = engine.send('c1', 'hi');
    scripted.push({ type: 'tool-call', providerCallId: 'x1', name: 'launch_rockets', input: {} }, 'end', { type: 'text-delta', text: 'Sorry.' }, 'end');
    const message = await started.done;
    expect(message.status).toBe('complete');
    const [invocation] = listInvocationsByMessage(db, [message.id]).get(message.id) ?? [];
    expect(invocation).toMatchObject({ tool: 'launch_rockets', status: 'error', output: 'No tool named "launch_rockets" is offered. Use one of: current_time.' });
  });

  it('ends a reply that keeps calling tools after the round limit, with a clear message', async () => {
    const { scripted, engine } = setup();
    const started = engine.send('c1', 'loop');
    for (let round = 0; round <= MAX_TOOL_ROUNDS; round += 1) {
      scripted.push({ type: 'tool-call', providerCallId: `c${round}`, name: 'current_time', input: {} }, 'end');
    }
    const message = await started.done;
    expect(message.error).toEqual({
      code: 'tool-rounds',
      message: `Kimi kept calling tools for ${MAX_TOOL_ROUNDS} rounds, so the reply was ended here. Ask it to continue if you want more.`,
      retryable: false,
    });
    expect(scripted.calls).toHaveLength(MAX_TOOL_ROUNDS + 1);
  });

  it('stores a reply with lone escaped quotes outside code normalised, and counts them', async () => {
    const { db, scripted, engine } = setup();
    const started = engine.send('c1', 'quote me');
    scripted.push({ type: 'text-delta', text: 'She said \\"yes\\". `\\"code\\"`' }, 'end');
    const message = await started.done;
    expect(message.text).toBe('She said "yes". `\\"code\\"`');
    expect(readCounters(db)).toEqual({ quote_escape_normalizations: 2 });
  });

  describe('with memories, skills and approvals', () => {
    const skill = parseSkill('summarise.md', '---\nname: summarise\ndescription: Five bullets.\n---\nSummarise in five bullets.') as Skill;
    const echo = {
      name: 'everything__echo', description: 'Echo', inputSchema: { type: 'object' }, server: 'everything',
      execute: async (input: Record<string, unknown>) => ({ output: `Echo: ${String(input.message)}`, isError: false }),
    };
    function toolbox(policy: ToolPolicy, asked: ApprovalRequest[] = [], answer?: (gate: ApprovalGate, request: ApprovalRequest) => void): TurnToolbox {
      const gate: ApprovalGate = new ApprovalGate((request) => {
        asked.push(request);
        answer?.(gate, request);
      }, () => {});
      return {
        ...clockOnlyToolbox(),
        list: async () => [currentTimeTool, echo, createRunSkillTool(() => [skill])],
        policyFor: (server) => (server === null ? 'allow' : policy),
        approvals: gate,
        recall: (text) => (text.includes('whales') ? [{ id: 'm1', text: 'Blue whales sing.' }, { id: 'm2', text: 'Whales migrate.' }] : []),
        skills: () => [skill],
      };
    }

    it('takes memories and a /skill into the user message context only, recording them as invocations', async () => {
      const { db, scripted, engine } = setup({ toolbox: toolbox('allow') });
      const started = engine.send('c1', '/summarise what we know about whales');
      scripted.push({ type: 'text-delta', text: 'Bullets.' }, 'end');
      const message = await started.done;
      expect(listAllMessages(db, 'c1')[0]?.text).toBe('/summarise what we know about whales');
      const invocations = listInvocationsByMessage(db, [message.id]).get(message.id) ?? [];
      expect(invocations.map((row) => [row.seq, row.kind, row.tool, row.output])).toEqual([
        [0, 'skill', 'summarise', '[System line, skill "summarise" started by the user: follow these instructions for this reply]\nSummarise in five bullets.'],
        [1, 'memory', 'memory', 'Blue whales sing.'],
        [2, 'memory', 'memory', 'Whales migrate.'],
      ]);
      const sent = scripted.calls[0]?.body.messages as Array<{ role: string; content: string }>;
      expect(sent[1]).toEqual({
        role: 'user',
        content:
          '/summarise what we know about whales\n\n[System line, skill "summarise" started by the user: follow these instructions for this reply]\nSummarise in five bullets.' +
          '\n\n[System line, memories: notes the user saved earlier that may bear on this message]\n- Blue whales sing.\n- Whales migrate.',
      });
      expect(sent[0]?.content).toContain('- summarise: Five bullets.');
    });

    it('records a skill a brain runs through run_skill as a skill use that replays as the call it was', async () => {
      const { db, scripted, engine } = setup({ toolbox: toolbox('allow') });
      const started = engine.send('c1', 'tidy this up');
      scripted.push({ type: 'tool-call', providerCallId: 'functions.run_skill:0', name: 'run_skill', input: { name: 'summarise' } }, 'end', { type: 'text-delta', text: 'Done.' }, 'end');
      const message = await started.done;
      expect((listInvocationsByMessage(db, [message.id]).get(message.id) ?? []).map((row) => [row.kind, row.tool, row.status])).toEqual([['skill', 'summarise', 'ok']]);
      const next = engine.send('c1', 'again');
      scripted.push({ type: 'text-delta', text: 'ok' }, 'end');
      await next.done;
      expect(JSON.stringify(scripted.calls[2]?.body)).toContain('"id":"functions.run_skill:0","type":"function","function":{"name":"run_skill","arguments":"{\\"name\\":\\"summarise\\"}"}');
    });

    it('asks before an MCP tool runs, and a denial reaches the model as a tool error', async () => {
      const asked: ApprovalRequest[] = [];
      const { db, scripted, engine } = setup({ toolbox: toolbox('ask', asked, (gate, request) => queueMicrotask(() => gate.answer(request.approvalId, 'deny'))) });
      const started = engine.send('c1', 'echo hi');
      scripted.push({ type: 'tool-call', providerCallId: 'x1', name: 'everything__echo', input: { message: 'hi' } }, 'end', { type: 'text-delta', text: 'Okay.' }, 'end');
      const message = await started.done;
      expect(asked.map((request) => [request.server, request.tool, request.input])).toEqual([['everything', 'echo', { message: 'hi' }]]);
      expect((listInvocationsByMessage(db, [message.id]).get(message.id) ?? []).map((row) => [row.server, row.tool, row.status])).toEqual([['everything', 'echo', 'denied']]);
      expect(JSON.stringify(scripted.calls[1]?.body)).toContain('The user denied this call to echo.');
    });

    it('runs an allowed MCP tool once approved', async () => {
      const { db, scripted, engine } = setup({ toolbox: toolbox('ask', [], (gate, request) => queueMicrotask(() => gate.answer(request.approvalId, 'allow'))) });
      const started = engine.send('c1', 'echo hi');
      scripted.push({ type: 'tool-call', providerCallId: 'x1', name: 'everything__echo', input: { message: 'hi' } }, 'end', { type: 'text-delta', text: 'Okay.' }, 'end');
      const message = await started.done;
      expect((listInvocationsByMessage(db, [message.id]).get(message.id) ?? []).map((row) => [row.tool, row.status, row.output])).toEqual([['echo', 'ok', 'Echo: hi']]);
    });

    it('cancels a call waiting for approval when the user stops', async () => {
      const asked: ApprovalRequest[] = [];
      const { db, scripted, engine } = setup({ toolbox: toolbox('ask', asked) });
      const started = engine.send('c1', 'echo hi');
      scripted.push({ type: 'tool-call', providerCallId: 'x1', name: 'everything__echo', input: { message: 'hi' } }, 'end');
      await vi.waitFor(() => expect(asked).toHaveLength(1));
      engine.stop('c1');
      const message = await started.done;
      expect(message.status).toBe('stopped');
      expect((listInvocationsByMessage(db, [message.id]).get(message.id) ?? []).map((row) => row.status)).toEqual(['cancelled']);
    });

    it('never runs a denied tool', async () => {
      const { db, scripted, engine } = setup({ toolbox: toolbox('deny') });
      const started = engine.send('c1', 'echo hi');
      scripted.push({ type: 'tool-call', providerCallId: 'x1', name: 'everything__echo', input: { message: 'hi' } }, 'end', { type: 'text-delta', text: 'Okay.' }, 'end');
      const message = await started.done;
      expect((listInvocationsByMessage(db, [message.id]).get(message.id) ?? []).map((row) => [row.status, row.output])).toEqual([
        ['denied', 'The user does not allow echo to run. Do not call it again; answer without it.'],
      ]);
    });
  });
});
