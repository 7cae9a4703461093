import { describe, expect, it } from 'vitest';
import { SUMMARY_REQUEST_MARKER } from '../../src-main/core/context/summary-prompt';
import { calledToolNames, continuationTranscript, DEFAULT_DELAY_MS, DEFAULT_REFUSAL_WORDS, LONG_DELAY_MS, LONG_PIECE_LENGTH, longReply, SLOW_CHUNK_COUNT, SLOW_DELAY_MS, conversationTail, parseDirectives, planReply, refusalWords, splitIntoChunks, splitIntoPieces, summaryOf } from './script';

describe('parseDirectives', () => {
  it('reads every directive anywhere in the text', () => {
    expect(parseDirectives('a [slow] b [empty] [markdown] [error-midstream] [drop] [stall] [json-instead] [echo-key] [retry-after:20] [too-large] [window:5000] [model: m-1 ] [status:503] [reply:x\\ny]')).toEqual({
      slow: true,
      empty: true,
      markdown: true,
      errorMidstream: true,
      drop: true,
      stall: true,
      jsonInstead: true,
      echoKey: true,
      retryAfterSeconds: 20,
      tooLarge: true,
      window: 5000,
      think: false,
      model: 'm-1',
      status: 503,
      reply: 'x\ny',
      tools: [],
      unreadableTool: null,
      refuse: null,
      long: null,
    });
  });

  it('reads tool directives in order, with JSON inputs that hold brackets', () => {
    const directives = parseDirectives('Go [tool:current_time][tool:current_time {"zone":"UTC"}] then [tool:search {"terms":["a]b", "c"],"nested":{"x":[1]}} ] [think]');
    expect(directives.tools).toEqual([
      { name: 'current_time', input: {} },
      { name: 'current_time', input: { zone: 'UTC' } },
      { name: 'search', input: { terms: ['a]b', 'c'], nested: { x: [1] } } },
    ]);
    expect(directives.think).toBe(true);
    expect(directives.unreadableTool).toBeNull();
  });

  it('keeps the first tool directive whose input is not a JSON object', () => {
    expect(parseDirectives('[tool:a {"x":}] [tool:b]').unreadableTool).toBe('[tool:a {"x":}]');
    expect(parseDirectives('[tool:a [1,2]]').unreadableTool).toBe('[tool:a [');
    expect(parseDirectives('[tool:a {"x":1}').unreadableTool).toBe('[tool:a {"x":1}');
    expect(parseDirectives('[tool:]').unreadableTool).toBe('[tool:]');
  });

  it('decodes a base64 reply, which may hold brackets, newlines and any UTF-8 text', () => {
    const reply = '[a](javascript:x) ]]\n\u202Eé 😀';
    expect(parseDirectives(`say [reply-base64:${Buffer.from(reply, 'utf8').toString('base64')}] [reply:plain]`).reply).toBe(reply);
  });

  it('finds none in plain text', () => {
    expect(parseDirectives('plain [words] here')).toEqual({
      slow: false,
      empty: false,
      markdown: false,
      errorMidstream: false,
      drop: false,
      stall: false,
      jsonInstead: false,
      echoKey: false,
      retryAfterSeconds: null,
      tooLarge: false,
      window: null,
      think: false,
      model: null,
      status: null,
      reply: null,
      tools: [],
      unreadableTool: null,
      refuse: null,
      long: null,
    });
  });
});

describe('long replies', () => {
  it('reads [long:KIND:BYTES] and streams the reply in many small pieces', () => {
    expect(parseDirectives('a [long:code:32768] b').long).toEqual({ kind: 'code', bytes: 32_768 });
    expect(parseDirectives('[long:poem:10]').long).toBeNull();
    const plan = planReply({ label: 'Claude', userText: 'go [long:code:32768]', requestedModel: 'claude-x' });
    expect(plan.text).toBe(longReply({ kind: 'code', bytes: 32_768 }));
    expect(plan.chunks.join('')).toBe(plan.text);
    expect(plan.chunks.every((chunk) => chunk.length <= LONG_PIECE_LENGTH)).toBe(true);
    expect(plan.chunks).toHaveLength(Math.ceil(plan.text.length / LONG_PIECE_LENGTH));
    expect(plan.delayMs).toBe(LONG_DELAY_MS);
  });

  it('makes one closed ts fence of whole numbered lines, about the size asked', () => {
    const text = longReply({ kind: 'code', bytes: 32_768 });
    const lines = text.split('\n');
    expect(lines[0]).toBe('```ts');
    expect(lines[1]).toBe('export const value0 = compute(0, "item 0", `${base}/0`); // line 1');
    expect(lines[lines.length - 1]).toBe('```');
    expect(text.length).toBeGreaterThanOrEqual(32_768);
    expect(text.length).toBeLessThan(32_768 + 100);
  });

  it('makes paragraphs, a tight list and a table', () => {
    expect(longReply({ kind: 'prose', bytes: 200 }).split('\n\n')).toHaveLength(2);
    expect(longReply({ kind: 'list', bytes: 150 })).toBe(
      '- item 1: **bold** words, `code` and a [link](https://example.com/0)\n- item 2: **bold** words, `code` and a [link](https://example.com/1)\n- item 3: **bold** words, `code` and a [link](https://example.com/2)',
    );
    expect(longReply({ kind: 'table', bytes: 80 })).toBe('| # | Name | Value | Group |\n| ---: | --- | --- | :-: |\n| 1 | name 0 | `value 0` | **0** |');
  });
});

describe('planReply', () => {
  it('echoes by default, in the requested model, 5 ms apart', () => {
    expect(planReply({ label: 'Claude', userText: 'hi there', requestedModel: 'claude-x' })).toEqual({
      failure: null,
      reasoning: '',
      reasoningChunks: [],
      text: 'Fake Claude reply to: hi there',
      chunks: ['Fake', ' Claude', ' reply', ' to:', ' hi', ' there'],
      toolCalls: [],
      declined: null,
      delayMs: DEFAULT_DELAY_MS,
      model: 'claude-x',
      ending: 'complete',
      outputTokens: 6,
    });
  });

  it('plans failures: a status wins over too-large, a drop over a mid-stream error', () => {
    expect(planReply({ label: 'Kimi', userText: '[too-large] [status:429]', requestedModel: 'k' }).failure).toEqual({ kind: 'status', status: 429, retryAfterSeconds: null });
    expect(planReply({ label: 'Kimi', userText: '[status:429] [retry-after:20]', requestedModel: 'k' }).failure).toEqual({ kind: 'status', status: 429, retryAfterSeconds: 20 });
    expect(planReply({ label: 'Kimi', userText: '[json-instead]', requestedModel: 'k' }).failure).toEqual({ kind: 'json-instead' });
    expect(planReply({ label: 'Kimi', userText: '[stall]', requestedModel: 'k' }).ending).toBe('stall');
    expect(planReply({ label: 'Kimi', userText: '[stall] [drop]', requestedModel: 'k' }).ending).toBe('drop');
    expect(planReply({ label: 'Kimi', userText: '[too-large]', requestedModel: 'k' }).failure).toEqual({ kind: 'too-large', sizes: null });
    expect(planReply({ label: 'Kimi', userText: '[too-large] [window:10]', requestedModel: 'k', requestTokens: 50 }).failure).toEqual({ kind: 'too-large', sizes: null });
    expect(planReply({ label: 'Kimi', userText: '[status:503] [window:10]', requestedModel: 'k', requestTokens: 50 }).failure).toEqual({ kind: 'status', status: 503, retryAfterSeconds: null });
    expect(planReply({ label: 'Kimi', userText: '[reply:a b c] [drop] [error-midstream]', requestedModel: 'k' }).ending).toBe('drop');
  });

  it('plans a refusal after the text, with its explanation or none, and no calls', () => {
    expect(parseDirectives('x [refuse]').refuse).toEqual({ explanation: null });
    expect(parseDirectives('x [refuse: Not this one. ]').refuse).toEqual({ explanation: 'Not this one.' });
    const refused = planReply({ label: 'Gemini', userText: '[reply:Part one] [refuse:Blocked.] [tool:now]', requestedModel: 'g', declaredTools: ['now'] });
    expect([refused.text, refused.toolCalls, refused.declined]).toEqual(['Part one', [], { explanation: 'Blocked.' }]);
    expect(refusalWords(refused)).toBe('Blocked.');
    expect(refusalWords(planReply({ label: 'Kimi', userText: '[empty] [refuse]', requestedModel: 'k' }))).toBe(DEFAULT_REFUSAL_WORDS);
    expect(refusalWords(planReply({ label: 'Kimi', userText: 'hi', requestedModel: 'k' }))).toBeNull();
  });

  it('slows down to 60 words', () => {
    const plan = planReply({ label: 'GLM', userText: '[slow]', requestedModel: 'glm-5.1' });
    expect(plan.chunks).toHaveLength(60);
    expect(plan.text.endsWith('word59 word60')).toBe(true);
    expect(plan.delayMs).toBe(SLOW_DELAY_MS);
  });

  it('splits before spaces so the chunks join back to the text', () => {
    expect(splitIntoChunks('a  b\nc d')).toEqual(['a', ' ', ' b\nc', ' d']);
    expect(splitIntoChunks('')).toEqual([]);
  });
});

describe('conversationTail', () => {
  it('keeps the last user text and only the answers after it', () => {
    expect(
      conversationTail([
        { kind: 'user-text', text: 'first' },
        { kind: 'tool-answer', text: 'old answer' },
        { kind: 'user-text', text: 'second' },
        { kind: 'tool-answer', text: 'a' },
        { kind: 'tool-answer', text: 'b' },
      ]),
    ).toEqual({ userText: 'second', toolAnswers: ['a', 'b'] });
    expect(conversationTail([])).toEqual({ userText: '', toolAnswers: [] });
  });
});

describe('planReply with tools and reasoning', () => {
  const userText = 'Time? [tool:current_time {"zone":"Europe/Paris"}]';

  it('plans the calls, in pieces, without text, when the conversation ends with the user', () => {
    const plan = planReply({ label: 'Kimi', userText, requestedModel: 'k', declaredTools: ['current_time'] });
    expect(plan.text).toBe('');
    expect(plan.toolCalls).toEqual([
      { name: 'current_time', input: { zone: 'Europe/Paris' }, argumentsJson: '{"zone":"Europe/Paris"}', argumentPieces: ['{"zone":', '"Europe/', 'Paris"}'] },
    ]);
    expect(plan.outputTokens).toBe(3);
  });

  it('answers with the echo and each answer cut to 60 characters once the answers are in', () => {
    const plan = planReply({ label: 'Kimi', userText, requestedModel: 'k', declaredTools: ['current_time'], toolAnswers: ['12:00', 'y'.repeat(70)] });
    expect(plan.toolCalls).toEqual([]);
    expect(plan.text).toBe(`Fake Kimi reply to: ${userText} (tools answered: 12:00 | ${'y'.repeat(60)})`);
  });

  it('refuses calls to tools the request does not offer', () => {
    expect(planReply({ label: 'GLM', userText: '[tool:a][tool:b][tool:c]', requestedModel: 'g', declaredTools: ['b'] }).text).toBe(
      'Fake GLM reply: the tools "a", "c" were not offered in this request.',
    );
  });

  it('reasons on [think] where shown, and before calls where the provider always does', () => {
    const thinks = (text: string, reasoning: { shown: boolean; beforeToolCalls: boolean }): string =>
      planReply({ label: 'Claude', userText: text, requestedModel: 'c', declaredTools: ['current_time'], reasoning }).reasoning;
    expect(thinks('Why? [think]', { shown: true, beforeToolCalls: false })).toBe('Fake Claude thinks about: Why? [think]');
    expect(thinks('Why? [think]', { shown: false, beforeToolCalls: false })).toBe('');
    expect(thinks('Why?', { shown: true, beforeToolCalls: true })).toBe('');
    expect(thinks('[tool:current_time]', { shown: true, beforeToolCalls: true })).toBe('Fake Claude thinks about: [tool:current_time]');
  });

  it('cuts argument text into pieces without splitting a character', () => {
    expect(splitIntoPieces('{"a":"😀😀😀😀"}', 8)).toEqual(['{"a":"😀😀', '😀😀"}']);
    expect(splitIntoPieces('', 8)).toEqual([]);
  });
});

describe('[window:N]', () => {
  it('refuses a request estimated above N tokens, naming N and the estimate', () => {
    expect(planReply({ label: 'Kimi', userText: 'hi [window:1000]', requestedModel: 'k', requestTokens: 1001 }).failure).toEqual({
      kind: 'too-large',
      sizes: { limitTokens: 1000, requestTokens: 1001 },
    });
  });

  it('answers normally at N tokens or fewer', () => {
    const plan = planReply({ label: 'Kimi', userText: 'hi [window:1000]', requestedModel: 'k', requestTokens: 1000 });
    expect(plan.failure).toBeNull();
    expect(plan.text).toBe('Fake Kimi reply to: hi [window:1000]');
  });
});

describe('compaction requests', () => {
  const system = `${SUMMARY_REQUEST_MARKER}\nSummarise the conversation below.`;
  const transcript = [
    'User: first question [status:500] [too-large] [window:1] [refuse:no]',
    'Claude: first answer',
    '  Tool call current_time: {}',
    '  Tool answer: 12:00',
    'User: second [slow] [tool:search {"q":"x"}]',
    'Tool call search {"q":"x"}',
    'Tool call current_time, again',
    'Kimi: the last answer',
    'User: third [drop] [error-midstream]',
    '',
    'Write the summary now.',
  ].join('\n');

  it('summarises deterministically and ignores every directive in the transcript', () => {
    const plan = planReply({ label: 'Claude', userText: transcript, requestedModel: 'claude-x', systemText: system, requestTokens: 100_000 });
    const text = 'Summary of the conversation so far: 3 user messages; tools used: current_time, search.';
    expect(plan).toEqual({
      failure: null,
      reasoning: '',
      reasoningChunks: [],
      text,
      chunks: splitIntoChunks(text),
      toolCalls: [],
      declined: null,
      delayMs: DEFAULT_DELAY_MS,
      model: 'claude-x',
      ending: 'complete',
      outputTokens: splitIntoChunks(text).length,
    });
  });

  it('leaves the tools out when the transcript has no calls', () => {
    expect(summaryOf('User: hello\nGLM: hi\nUser: bye')).toBe('Summary of the conversation so far: 2 user messages.');
    expect(summaryOf('nothing to see')).toBe('Summary of the conversation so far: 0 user messages.');
  });

  it('streams the summary slowly for [slow-summary], and in its usual pieces without it', () => {
    const slow = planReply({ label: 'Claude', userText: `${transcript}\n[slow-summary]`, requestedModel: 'claude-x', systemText: system });
    expect(slow.text).toBe('Summary of the conversation so far: 3 user messages; tools used: current_time, search.');
    expect(slow.chunks).toHaveLength(SLOW_CHUNK_COUNT);
    expect(slow.chunks.join('')).toBe(slow.text);
    expect(slow.delayMs).toBe(SLOW_DELAY_MS);
    const short = planReply({ label: 'Claude', userText: 'User: hi [slow-summary]', requestedModel: 'c', systemText: system });
    expect(short.chunks).toEqual(Array.from('Summary of the conversation so far: 1 user messages.'));
    expect(short.delayMs).toBe(SLOW_DELAY_MS);
  });

  it('takes a request whose system prompt only mentions the marker later as an ordinary one', () => {
    expect(planReply({ label: 'Claude', userText: '[too-large]', requestedModel: 'c', systemText: `Be brief. ${SUMMARY_REQUEST_MARKER}` }).failure).toEqual({ kind: 'too-large', sizes: null });
  });

  it('summarises a continuation of the target\'s own request from its history, whatever its directives', () => {
    const entries = [
      { kind: 'user-text' as const, text: "[System line, summary: neither the assistant's words nor the user's]\nEarlier." },
      { kind: 'user-text' as const, text: 'first [tool:current_time] [slow-summary]' },
      { kind: 'tool-answer' as const, text: '12:00' },
      { kind: 'user-text' as const, text: 'second\n[drop]' },
      { kind: 'user-text' as const, text: `${SUMMARY_REQUEST_MARKER}\nSummarise the conversation above.` },
    ];
    const summarised = continuationTranscript(entries, ['current_time', 'search']);
    expect(summarised).toBe('User: first [tool:current_time] [slow-summary]\nUser: second\n  [drop]\n  Tool call current_time\n  Tool call search');
    const plan = planReply({ label: 'Kimi', userText: entries[4]!.text, requestedModel: 'k', systemText: 'You are Anybrain.', summarised });
    expect(plan.text).toBe('Summary of the conversation so far: 2 user messages; tools used: current_time, search.');
    expect(plan.delayMs).toBe(SLOW_DELAY_MS);
    expect(plan.ending).toBe('complete');
  });

  it('reads the calls of a history on every wire, and not the declarations', () => {
    expect(calledToolNames({
      tools: [{ name: 'declared_only', input_schema: {} }],
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'anthropic_call', input: {} }] },
        { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'chat_call', arguments: '{}' } }] },
      ],
      input: [{ type: 'function_call', call_id: 'r1', name: 'responses_call', arguments: '{}' }],
      contents: [{ role: 'model', parts: [{ functionCall: { name: 'gemini_call', args: {} } }] }],
    })).toEqual(['anthropic_call', 'chat_call', 'responses_call', 'gemini_call']);
  });
});
