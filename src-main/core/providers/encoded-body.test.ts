import { describe, expect, it } from 'vitest';
import { useFakeBrains } from '../../../e2e/fake-brains/use-fake-brains';
import type { BrainId, WireId } from '../../../src-shared/brains';
import { encodeBody, encodedBodyOptions } from './encoded-body';
import { streamProvider } from './index';
import { collect } from './testing/recorded-streams';

const fake = useFakeBrains();

describe('a body serialised once', () => {
  it('holds the bytes JSON.stringify gives, and the top-level fields that are not arrays', () => {
    const body = {
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      stream: true,
      thinking: { type: 'adaptive' },
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: '오늘 회의는 세 시 🙂 "quoted" \\ lone \ud800 surrogate' }],
    };
    const encoded = encodeBody(body);
    expect(new TextDecoder().decode(encoded.json)).toBe(JSON.stringify(body));
    expect(encoded.fields).toEqual({ model: 'claude-sonnet-4-6', max_tokens: 1024, stream: true, thinking: { type: 'adaptive' } });
  });

  it('adds no request options when there are no bytes', () => {
    expect(encodedBodyOptions(undefined)).toEqual({});
    const json = new TextEncoder().encode('{}');
    expect(encodedBodyOptions(json)).toEqual({ body: json, headers: { 'content-type': 'application/json' } });
  });
});

interface WireCase {
  readonly brain: BrainId;
  readonly wire: WireId;
  readonly label: string;
  readonly model: string;
  readonly body: Record<string, unknown>;
}

const TEXT = 'hello 🙂';

const EVERY_WIRE: readonly WireCase[] = [
  { brain: 'claude', wire: 'anthropic-messages', label: 'Claude', model: 'claude-sonnet-4-6', body: { model: 'claude-sonnet-4-6', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: TEXT }] } },
  { brain: 'kimi', wire: 'chat-completions', label: 'Kimi', model: 'kimi-k2.6', body: { model: 'kimi-k2.6', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: TEXT }] } },
  { brain: 'codex', wire: 'openai-responses', label: 'Codex', model: 'gpt-5.5-codex', body: { model: 'gpt-5.5-codex', stream: true, store: false, input: [{ role: 'user', content: TEXT }] } },
  { brain: 'gemini', wire: 'gemini-generate-content', label: 'Gemini', model: 'gemini-3.1-pro-preview', body: { contents: [{ role: 'user', parts: [{ text: TEXT }] }] } },
  { brain: 'ollama', wire: 'ollama-chat', label: 'Ollama', model: 'qwen3', body: { model: 'qwen3', messages: [{ role: 'user', content: TEXT }] } },
];

describe.each(EVERY_WIRE)('$wire sends the encoded bytes as they are ($brain)', (testCase) => {
  it('the provider receives the whole body, as JSON, and answers it', async () => {
    const encoded = encodeBody(testCase.body);
    const parts = await collect(
      streamProvider({
        wire: testCase.wire,
        baseUrl: fake.baseUrlFor(testCase.brain),
        apiKey: 'test-key-123',
        model: testCase.model,
        body: encoded.fields,
        encodedBody: encoded.json,
        signal: new AbortController().signal,
      }),
    );
    expect(parts.map((part) => (part.type === 'text-delta' ? part.text : '')).join('')).toBe(`Fake ${testCase.label} reply to: ${TEXT}`);
    const [recorded] = fake.requests();
    expect(recorded?.body).toEqual(testCase.body);
    expect(recorded?.headers['content-type']).toBe('application/json');
    expect(fake.violations()).toEqual([]);
  });
});
