import { describe, expect, it } from 'vitest';
import type { ReplayRequest, ReplayTurn } from '../types';
import { convertToAnthropicMessages } from './anthropic-messages';
import { convertToChatCompletionsMessages } from './chat-completions';
import { buildWireRequest } from './index';

const turns: ReplayTurn[] = [
  { messageId: 'u1', role: 'user', kind: 'chat', text: 'Hello 안녕 👋', calls: [] },
  {
    messageId: 'a1', role: 'assistant', kind: 'chat', text: 'Hi from Kimi.', calls: [], brain: 'kimi',
    reasoning: { brain: 'kimi', model: 'kimi-k2.6', text: 'greet back', opaque: { reasoning_content: 'greet back' } },
  },
  { messageId: 's1', role: 'system-line', kind: 'notice', text: 'Switched to Claude.', calls: [] },
  { messageId: 'u2', role: 'user', kind: 'chat', text: 'And you?', calls: [] },
];

function request(overrides: Partial<ReplayRequest>): ReplayRequest {
  return { brain: 'claude', model: 'claude-sonnet-4-6', reasoningLevel: 'off', system: 'SYSTEM', turns, tools: [], maxOutputTokens: 32000, contextWindow: 200_000, cacheKey: 'anybrain-c1', ...overrides };
}

describe('anthropic-messages', () => {
  it('renders text turns, labels system lines, merges same-role neighbours and places cache breakpoints', () => {
    const { body, warnings } = convertToAnthropicMessages(request({}));
    expect(warnings).toEqual([]);
    expect(JSON.stringify(body)).toBe(
      JSON.stringify({
        model: 'claude-sonnet-4-6',
        max_tokens: 32000,
        system: [{ type: 'text', text: 'SYSTEM', cache_control: { type: 'ephemeral' } }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hello 안녕 👋', cache_control: { type: 'ephemeral' } }] },
          { role: 'assistant', content: [{ type: 'text', text: 'Hi from Kimi.' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: "[System line, notice: neither the assistant's words nor the user's]\nSwitched to Claude." },
              { type: 'text', text: 'And you?', cache_control: { type: 'ephemeral' } },
            ],
          },
        ],
        stream: true,
      }),
    );
  });

  it('replays thinking blocks verbatim only to the model that signed them', () => {
    const signed: ReplayTurn[] = [
      { messageId: 'u1', role: 'user', kind: 'chat', text: 'Q', calls: [] },
      {
        messageId: 'a1', role: 'assistant', kind: 'chat', text: 'A', calls: [], brain: 'claude',
        reasoning: {
          brain: 'claude', model: 'claude-sonnet-4-6', text: 'hmm',
          opaque: { blocks: [{ type: 'thinking', thinking: 'hmm', signature: 'c2ln' }, { type: 'redacted_thinking', data: 'cmVk' }] },
        },
      },
      { messageId: 'u2', role: 'user', kind: 'chat', text: 'Q2', calls: [] },
    ];
    const same = convertToAnthropicMessages(request({ turns: signed, reasoningLevel: 'high' })).body;
    expect((same.messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'hmm', signature: 'c2ln' },
        { type: 'redacted_thinking', data: 'cmVk' },
        { type: 'text', text: 'A' },
      ],
    });
    // Claude Sonnet 4.6 deprecates budget_tokens: adaptive thinking with an effort.
    expect(same.thinking).toEqual({ type: 'adaptive' });
    expect(same.output_config).toEqual({ effort: 'high' });
    const otherModel = convertToAnthropicMessages(request({ turns: signed, reasoningLevel: 'high', model: 'claude-opus-4-6' })).body;
    expect((otherModel.messages as unknown[])[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'A' }] });
    const glm = convertToAnthropicMessages(request({ turns: signed, reasoningLevel: 'high', brain: 'glm', model: 'claude-sonnet-4-6' })).body;
    expect((glm.messages as unknown[])[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'A' }] });
  });

  it('adds a user line and a warning when the replay starts with a reply', () => {
    const { body, warnings } = convertToAnthropicMessages(
      request({ turns: [{ messageId: 'a0', role: 'assistant', kind: 'chat', text: 'Earlier', calls: [] }] }),
    );
    expect((body.messages as Array<{ role: string }>).map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(warnings).toEqual([{ messageId: 'a0', message: 'The replay began with a reply; a user line was added before it.' }]);
  });
});

describe('chat-completions', () => {
  it('renders the system prompt, text turns and labelled system lines', () => {
    const { body } = convertToChatCompletionsMessages(request({ brain: 'kimi', model: 'kimi-k2.6' }));
    expect(JSON.stringify(body)).toBe(
      JSON.stringify({
        model: 'kimi-k2.6',
        messages: [
          { role: 'system', content: 'SYSTEM' },
          { role: 'user', content: 'Hello 안녕 👋' },
          { role: 'assistant', content: 'Hi from Kimi.' },
          { role: 'user', content: "[System line, notice: neither the assistant's words nor the user's]\nSwitched to Claude." },
          { role: 'user', content: 'And you?' },
        ],
        max_completion_tokens: 32000,
        thinking: { type: 'disabled' },
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
  });

  it("returns Kimi's own reasoning to Kimi on the same model when thinking is on", () => {
    const { body } = convertToChatCompletionsMessages(request({ brain: 'kimi', model: 'kimi-k2.6', reasoningLevel: 'high' }));
    expect((body.messages as unknown[])[2]).toEqual({ role: 'assistant', content: 'Hi from Kimi.', reasoning_content: 'greet back' });
  });
});

describe('buildWireRequest', () => {
  it('is byte-stable: the same input gives the same bytes', () => {
    const first = JSON.stringify(buildWireRequest('anthropic-messages', request({})).body);
    const second = JSON.stringify(buildWireRequest('anthropic-messages', request({})).body);
    expect(second).toBe(first);
  });

});
