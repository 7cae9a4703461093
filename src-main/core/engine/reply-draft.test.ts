import { describe, expect, it } from 'vitest';
import type { StreamPart } from '../providers/stream-parts';
import { afterToolRound, applyStreamPart, draftReasoning, draftRounds, EMPTY_DRAFT, failDraft, finalStatus, type ReplyDraft } from './reply-draft';

const fold = (parts: readonly StreamPart[], from: ReplyDraft = EMPTY_DRAFT): ReplyDraft => parts.reduce(applyStreamPart, from);

describe('applyStreamPart', () => {
  it('gathers words, reasoning, calls, usage and the served model, leaving the draft it was given unchanged', () => {
    const before = fold([{ type: 'text-delta', text: 'Hel' }]);
    const after = fold(
      [
        { type: 'text-delta', text: 'lo' },
        { type: 'reasoning-delta', text: 'Think.' },
        { type: 'reasoning-opaque', opaque: { type: 'thinking', signature: 'c2ln' } },
        { type: 'tool-call', providerCallId: 'call_1', name: 'current_time', input: {} },
        { type: 'usage', usage: { inputTokens: 10 } },
        { type: 'usage', usage: { outputTokens: 3 } },
        { type: 'response-model', model: 'kimi-k2.6-0901' },
        { type: 'finish', reason: 'tool-calls', rawReason: 'tool_calls' },
      ],
      before,
    );
    expect(before.text).toBe('Hel');
    expect(after).toEqual({
      text: 'Hello',
      reasoningText: 'Think.',
      reasoningBlocks: [{ type: 'thinking', signature: 'c2ln' }],
      reasoningPlaces: [null],
      pendingCalls: [{ type: 'tool-call', providerCallId: 'call_1', name: 'current_time', input: {} }],
      roundEnds: [],
      servedModel: 'kimi-k2.6-0901',
      usage: { inputTokens: 10, outputTokens: 3 },
      error: null,
      contextTooLarge: false,
      refusal: null,
    });
  });

  it('records a cut-short reply as `length` unless an error came first, and a size refusal as too large', () => {
    expect(fold([{ type: 'finish', reason: 'length', rawReason: 'length' }]).error?.code).toBe('length');
    const refused = fold([
      { type: 'error', error: { code: 'context-too-large', message: 'Too long.', retryable: false, status: 400 } },
      { type: 'finish', reason: 'length', rawReason: 'length' },
    ]);
    expect(refused.error).toEqual({ code: 'context-too-large', message: 'Too long.', retryable: false, status: 400 });
    expect(refused.contextTooLarge).toBe(true);
  });

  it('keeps the figures a size refusal named', () => {
    const refused = fold([
      { type: 'error', error: { code: 'context-too-large', message: 'Too long.', retryable: false, status: 400, limitTokens: 262144, requestTokens: 300000 } },
    ]);
    expect(refused.error).toEqual({ code: 'context-too-large', message: 'Too long.', retryable: false, status: 400, limitTokens: 262144, requestTokens: 300000 });
  });

  it('clears the pending calls after a round and records where the round ended', () => {
    const asked = fold([{ type: 'text-delta', text: 'Checking.' }, { type: 'tool-call', providerCallId: null, name: 'current_time', input: {} }]);
    expect(afterToolRound(asked, 1)).toMatchObject({
      pendingCalls: [],
      roundEnds: [{ textLength: 9, reasoningTextLength: 0, reasoningBlockCount: 0, callCount: 1 }],
    });
  });
});

describe('draftRounds', () => {
  it('gives each finished round only the words and reasoning its own stream gave, and leaves the open round out', () => {
    const firstRound = afterToolRound(
      fold([
        { type: 'reasoning-delta', text: 'Read first.' },
        { type: 'reasoning-opaque', opaque: { type: 'thinking', thinking: 'Read first.', signature: 'c2lnMQ==' } },
        { type: 'text-delta', text: 'Reading. ' },
        { type: 'tool-call', providerCallId: 'a', name: 'read_file', input: { path: 'a.md' } },
        { type: 'tool-call', providerCallId: 'b', name: 'read_file', input: { path: 'b.md' } },
      ]),
      2,
    );
    const secondRound = afterToolRound(
      fold([{ type: 'text-delta', text: 'Now the clock. ' }, { type: 'tool-call', providerCallId: 'c', name: 'current_time', input: {} }], firstRound),
      1,
    );
    const open = fold([{ type: 'reasoning-delta', text: 'Answer now.' }, { type: 'text-delta', text: 'Done.' }], secondRound);
    expect(draftRounds(open, 'claude', 'claude-sonnet-4-6')).toEqual([
      {
        text: 'Reading. ',
        reasoning: {
          brain: 'claude', model: 'claude-sonnet-4-6', text: 'Read first.',
          opaque: { blocks: [{ type: 'thinking', thinking: 'Read first.', signature: 'c2lnMQ==' }] },
        },
        callCount: 2,
      },
      { text: 'Now the clock. ', reasoning: null, callCount: 1 },
    ]);
    expect(draftRounds(EMPTY_DRAFT, 'claude', 'claude-sonnet-4-6')).toEqual([]);
  });
});

describe('reasoning across tool rounds', () => {
  it('stores each round as a paragraph of its own, and gives each round back only its own words', () => {
    const first = afterToolRound(
      fold([
        { type: 'reasoning-delta', text: 'Look up the time' },
        { type: 'tool-call', providerCallId: 'call_1', name: 'current_time', input: {} },
      ]),
      1,
    );
    const second = afterToolRound(
      fold(
        [
          { type: 'reasoning-delta', text: '' },
          { type: 'reasoning-delta', text: 'It is noon' },
          { type: 'reasoning-delta', text: '; check again' },
          { type: 'tool-call', providerCallId: 'call_2', name: 'current_time', input: {} },
        ],
        first,
      ),
      1,
    );
    const done = fold([{ type: 'reasoning-delta', text: 'Answer' }], second);
    expect(draftReasoning(done, 'kimi', 'kimi-k2.6')?.text).toBe('Look up the time\n\nIt is noon; check again\n\nAnswer');
    expect(draftRounds(done, 'kimi', 'kimi-k2.6').map((round) => round.reasoning?.text)).toEqual(['Look up the time', 'It is noon; check again']);
  });
});

describe('draftReasoning', () => {
  it('is null without reasoning, and otherwise names the brain and model that produced it', () => {
    expect(draftReasoning(EMPTY_DRAFT, 'claude', 'claude-sonnet-4-6')).toBeNull();
    const draft = fold([{ type: 'reasoning-opaque', opaque: { type: 'redacted_thinking', data: 'x' } }]);
    expect(draftReasoning(draft, 'claude', 'claude-sonnet-4-6')).toEqual({
      brain: 'claude', model: 'claude-sonnet-4-6', text: '', opaque: { blocks: [{ type: 'redacted_thinking', data: 'x' }] },
    });
  });

  it('keeps the items verbatim and, beside them, what each stood before, across tool rounds', () => {
    const first = { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'enc-1' };
    const second = { id: 'rs_2', type: 'reasoning', summary: [], encrypted_content: 'enc-2' };
    const afterRound = afterToolRound(
      fold([
        { type: 'reasoning-opaque', opaque: first, place: { before: 'call', providerCallId: 'call_a' } },
        { type: 'tool-call', providerCallId: 'call_a', name: 'current_time', input: {} },
      ]),
      1,
    );
    const draft = fold([{ type: 'reasoning-opaque', opaque: second, place: { before: 'words' } }, { type: 'text-delta', text: 'Noon.' }], afterRound);
    expect(draftReasoning(draft, 'codex', 'gpt-5.5-codex')).toEqual({
      brain: 'codex',
      model: 'gpt-5.5-codex',
      text: '',
      opaque: { blocks: [first, second], places: [{ before: 'call', providerCallId: 'call_a' }, { before: 'words' }] },
    });
  });
});

describe('finalStatus', () => {
  const words = fold([{ type: 'text-delta', text: 'Some words' }]);

  it('completes a reply with words or calls, keeping a `length` error beside it', () => {
    expect(finalStatus(words, null, 'Kimi')).toEqual({ status: 'complete', error: null });
    expect(finalStatus(afterToolRound(EMPTY_DRAFT, 1), null, 'Kimi')).toEqual({ status: 'complete', error: null });
    const cut = fold([{ type: 'finish', reason: 'length', rawReason: 'length' }], words);
    expect(finalStatus(cut, null, 'Kimi')).toEqual({ status: 'complete', error: cut.error });
  });

  it('fails an empty reply, naming the brain, and a reply that ended in an error', () => {
    expect(finalStatus(fold([{ type: 'text-delta', text: '  \n' }]), null, 'Kimi')).toEqual({
      status: 'failed',
      error: { code: 'empty-reply', message: 'Kimi sent back an empty reply. Retry, or switch brain.', retryable: true },
    });
    const error = { code: 'tool-rounds', message: 'Too many rounds.', retryable: false } as const;
    expect(finalStatus(failDraft(words, error), null, 'Kimi')).toEqual({ status: 'failed', error });
  });

  it("fails a refused reply as a refusal, naming the brain and quoting the provider's words, with the text before it kept", () => {
    const refused = fold([
      { type: 'refusal', explanation: 'This request could enable <script>cyber</script> harm.', category: 'cyber' },
      { type: 'finish', reason: 'content-filter', rawReason: 'refusal' },
    ]);
    expect(finalStatus(refused, null, 'Claude')).toEqual({
      status: 'failed',
      error: { code: 'refusal', message: 'Claude declined to answer (cyber): This request could enable <script>cyber</script> harm.', retryable: false },
    });
    const afterWords = fold([{ type: 'refusal', explanation: "I can't help with that.", category: null }, { type: 'finish', reason: 'stop', rawReason: 'completed' }], words);
    expect(afterWords.text).toBe('Some words');
    expect(finalStatus(afterWords, null, 'Codex')).toEqual({
      status: 'failed',
      error: { code: 'refusal', message: "Codex declined to answer: I can't help with that.", retryable: false },
    });
    // A filter that stopped the reply without saying why (Chat Completions `content_filter`) is a refusal too.
    const filtered = fold([{ type: 'finish', reason: 'content-filter', rawReason: 'content_filter' }]);
    expect(finalStatus(filtered, null, 'Kimi')).toEqual({
      status: 'failed',
      error: { code: 'refusal', message: 'Kimi declined to answer.', retryable: false },
    });
  });

  it('keeps a stopped reply as stopped, even an empty one, and a shutdown as interrupted', () => {
    expect(finalStatus(EMPTY_DRAFT, 'stop', 'Kimi')).toEqual({ status: 'stopped', error: null });
    expect(finalStatus(words, 'shutdown', 'Kimi')).toEqual({
      status: 'interrupted',
      error: { code: 'interrupted', message: 'Anybrain closed while this reply was being written. Retry to get a full reply.', retryable: true },
    });
  });
});
