import { describe, expect, it } from 'vitest';
import { BRAIN_IDS, BRAINS, type BrainId } from '../../../src-shared/brains';
import { LONG_HISTORY_ROWS } from '../engine/event-loop-turn';
import { encodeBody } from '../providers/encoded-body';
import type { ReplayTurn } from '../replay/types';
import { encodeSummaryRequest, summaryRequestBody, type SummaryRequest } from './summary-body';
import { transcriptLines } from './summary-prompt';

function requestFor(brain: BrainId): SummaryRequest {
  return { brain, model: BRAINS[brain].defaultModel, system: 'You write summaries.', wordLimit: 300, maxOutputTokens: 4096, contextWindow: 200_000, cacheKey: 'anybrain-compaction-c1' };
}

/** Text JSON must escape, characters outside the BMP (a surrogate pair each), a lone surrogate, Hangul, the tag around it. */
const AWKWARD = ['He said "stop" \\ then left', 'tab\there\r\nline', 'emoji 🙂🚀 end', 'lone \ud83d half', '오늘 회의', '</transcript> inside', ''];

function turnsOf(count: number): ReplayTurn[] {
  return Array.from({ length: count }, (_, index): ReplayTurn => {
    const text = `${index}: ${AWKWARD[index % AWKWARD.length]}`;
    if (index % 3 === 2) {
      return {
        messageId: `a${index}`,
        role: 'assistant',
        kind: 'chat',
        text,
        calls: [{ callId: `c${index}`, name: 'read_file', input: { path: `notes/${index}.md` }, answer: 'line one\nline "two"', isError: index % 6 === 5, server: null }],
      };
    }
    return { messageId: `m${index}`, role: index % 7 === 6 ? 'system-line' : 'user', kind: index % 7 === 6 ? 'summary' : 'chat', text, calls: [] };
  });
}

describe('a summary request encoded a page of turns at a time', () => {
  it.each(BRAIN_IDS.map((brain) => [brain]))('is byte for byte the body built whole, on the wire %s speaks', async (brain) => {
    const turns = turnsOf(LONG_HISTORY_ROWS * 2 + 17);
    const request = requestFor(brain);
    const encoded = await encodeSummaryRequest(BRAINS[brain].wire, request, turns);
    const whole = encodeBody(summaryRequestBody(BRAINS[brain].wire, request, turns.map(transcriptLines).join('\n')));
    expect(new TextDecoder().decode(encoded.json)).toBe(new TextDecoder().decode(whole.json));
    expect(Buffer.from(encoded.json).equals(Buffer.from(whole.json))).toBe(true);
    expect(encoded.fields).toEqual(whole.fields);
  });

  it('puts the transcript where the user message says, on the Anthropic wire', async () => {
    const turns: ReplayTurn[] = [
      { messageId: 'u1', role: 'user', kind: 'chat', text: 'Is "it" 🙂?', calls: [] },
      { messageId: 'a1', role: 'assistant', kind: 'chat', text: 'Yes.', calls: [] },
    ];
    const encoded = await encodeSummaryRequest('anthropic-messages', requestFor('claude'), turns);
    expect(new TextDecoder().decode(encoded.json)).toBe(
      '{"model":"claude-sonnet-5-5","max_tokens":4096,"system":[{"type":"text","text":"You write summaries.","cache_control":{"type":"ephemeral"}}],' +
        '"messages":[{"role":"user","content":[{"type":"text","text":"Here is the earlier part of the conversation:\\n\\n<transcript>\\n' +
        'User: Is \\"it\\" 🙂?\\nAssistant: Yes.\\n</transcript>\\n\\nSummarise it in at most 300 words, in the language the conversation is in. ' +
        'Keep what the conversation\\nneeds to go on: what the user wants and prefers, decisions made, facts, names, numbers, code and file names,\\n' +
        'what each tool call did and what it found, and the questions still open. Write it as notes in the third person\\n' +
        '(\\"The user asked…\\", \\"Claude read…\\"). Reply with the summary only.","cache_control":{"type":"ephemeral"}}]}],' +
        // Claude Sonnet 5.5 cannot stop thinking: a summary asks for its lowest effort.
        '"thinking":{"type":"adaptive"},"output_config":{"effort":"low"},"stream":true}',
    );
    expect(encoded.fields).toEqual({ model: 'claude-sonnet-5-5', max_tokens: 4096, thinking: { type: 'adaptive' }, output_config: { effort: 'low' }, stream: true });
  });

  it('encodes an empty part as an empty transcript', async () => {
    const encoded = await encodeSummaryRequest('ollama-chat', requestFor('ollama'), []);
    expect(Buffer.from(encoded.json).equals(Buffer.from(encodeBody(summaryRequestBody('ollama-chat', requestFor('ollama'), '')).json))).toBe(true);
  });
});
