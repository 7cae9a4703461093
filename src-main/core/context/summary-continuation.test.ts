import { describe, expect, it } from 'vitest';
import { resolveTarget } from '../engine/resolve-target';
import { scriptedEngine, seedExchanges } from '../engine/testing';
import { buildTurnRequest } from '../engine/turn-request';
import { clockOnlyToolbox } from '../engine/turn-toolbox';
import { sentBody } from '../providers/testing/sent-body';
import { newId } from '../store/clock';
import { insertInvocation } from '../store/invocations';
import { listAllMessages, listLiveMessages } from '../store/messages';
import { usageOfTurn } from '../store/request-usage';
import { costOf } from '../prices';
import { SUMMARY_REQUEST_MARKER, summaryContinuationText } from './summary-prompt';

const NOW = '2026-12-01T10:00:00.000Z';
const WINDOW = 8_000;
/** A summary's words for an 8,000-token window: 4 % of it, at about 1.4 tokens a word (compaction.ts). */
const WORDS_FOR_WINDOW = 229;

const replyParts = (text: string) => [{ type: 'text-delta' as const, text }, { type: 'finish' as const, reason: 'stop' as const, rawReason: 'stop' }, 'end' as const];

interface ChatBody {
  readonly messages: ReadonlyArray<{ role: string; content?: unknown }>;
  readonly [field: string]: unknown;
}

function setup(exchanges: number) {
  const { db, scripted, engine } = scriptedEngine({ brain: 'kimi', title: 'Long talk' });
  seedExchanges(db, exchanges, 150, 'kimi', 'kimi-k2.6');
  const answered = listAllMessages(db, 'c1')[1]!;
  insertInvocation(db, {
    id: newId(), turnId: answered.turnId, messageId: answered.id, seq: 0, kind: 'tool', server: null, tool: 'current_time',
    providerCallId: 'call_1', input: { zone: 'Asia/Seoul' }, output: '2026-12-01 19:00', status: 'ok', opaque: null, startedAt: NOW, endedAt: NOW,
  });
  engine.windows.setOverride('kimi', 'kimi-k2.6', { contextWindow: WINDOW, outputLimit: 1_000 });
  return { db, scripted, engine };
}

describe('a target that writes its own summary continues its own request', () => {
  it('sends the span exactly as its turns send it, then asks for the summary, and keeps what the request cost', async () => {
    // About 6,900 tokens of history: past the 80 % line of 8,000, and the span to fold fits the window on its own.
    const { db, scripted, engine } = setup(23);
    const tools = await clockOnlyToolbox().list();
    // What Kimi would be sent for the whole conversation, had its window held it: the start every turn shares.
    const whole = buildTurnRequest(db, {
      conversationId: 'c1', target: resolveTarget(db, 'c1'), rows: listLiveMessages(db, 'c1'), tools, skills: [], maxOutputTokens: 1_000, contextWindow: WINDOW,
    }).body as ChatBody;

    const started = engine.send('c1', 'And now, in one line?');
    scripted.push({ type: 'usage', usage: { inputTokens: 4_300, cacheReadTokens: 4_096, outputTokens: 60 } }, ...replyParts('Summary: lorem ipsum, and the time in Seoul.'));
    scripted.push(...replyParts('In one line: lorem ipsum.'));
    const reply = await started.done;
    expect(reply.status).toBe('complete');

    const [summaryCall, turnCall] = scripted.calls;
    expect(scripted.calls).toHaveLength(2);
    const summaryBody = sentBody(summaryCall!) as ChatBody;
    // The request for the summary is the last message; everything before it is the start of Kimi's own request, to the byte.
    expect(summaryBody.messages.at(-1)).toEqual({ role: 'user', content: summaryContinuationText(WORDS_FOR_WINDOW) });
    const history = summaryBody.messages.slice(0, -1);
    expect(JSON.stringify(history)).toBe(JSON.stringify(whole.messages.slice(0, history.length)));
    expect({ ...summaryBody, messages: null }).toEqual({ ...whole, messages: null });
    expect(JSON.stringify(history)).toContain('"name":"current_time"');

    const summary = listAllMessages(db, 'c1').find((row) => row.kind === 'summary')!;
    expect(summary.text).toBe('Summary: lorem ipsum, and the time in Seoul.');
    // The system prompt, then every row the summary covers (the reply with a call is three: the call, its answer, its words).
    const covered = listAllMessages(db, 'c1').filter((row) => row.compactedInto === summary.id);
    expect(history).toHaveLength(1 + covered.length + 2);
    const at = db.$client.prepare('SELECT created_at FROM request_usage WHERE turn_id = ?').pluck().get(summary.turnId) as string;
    const costUsd = costOf('kimi', 'kimi-k2.6', { inputTokens: 4_300, cacheReadTokens: 4_096, cacheWriteTokens: 0, outputTokens: 60 }, new Date(at));
    expect(costUsd).toBeGreaterThan(0);
    expect(usageOfTurn(db, summary.turnId)).toEqual({ requests: 1, inputTokens: 4_300, cacheReadTokens: 4_096, cacheWriteTokens: 0, outputTokens: 60, reasoningTokens: 0, costUsd });

    // The turn after it starts with the same system prompt and tools, then the summary.
    const turnBody = sentBody(turnCall!) as ChatBody;
    expect(turnBody.messages[0]).toEqual(whole.messages[0]);
    expect(turnBody.tools).toEqual(whole.tools);
  });

  it('summarises a span its window cannot hold in parts, as a transcript', async () => {
    const { db, scripted, engine } = setup(60);
    const started = engine.send('c1', 'And now?');
    for (let part = 0; part < 4; part += 1) scripted.push(...replyParts(`Summary part ${part}.`));
    scripted.push(...replyParts('Now.'));
    await started.done;
    const summaryCalls = scripted.calls.slice(0, -1).map((call) => sentBody(call) as ChatBody);
    expect(summaryCalls.length).toBeGreaterThan(1);
    for (const body of summaryCalls) {
      expect(String(body.messages[0]!.content).startsWith(SUMMARY_REQUEST_MARKER)).toBe(true);
      expect(body.tools).toBeUndefined();
    }
    expect(listAllMessages(db, 'c1').filter((row) => row.kind === 'summary')).toHaveLength(1);
  });
});
