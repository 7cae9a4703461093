/**
 * The app's provider adapters read the fake's scripted tool calls over real HTTP, on all five wires: names, parsed
 * inputs and the provider's own call ids come out as neutral `tool-call` parts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BrainId, WireId } from '../../src-shared/brains';
import { streamProvider, type StreamPart } from '../../src-main/core/providers/index';
import { useFakeBrains } from './use-fake-brains';

const fake = useFakeBrains();
afterEach(() => {
  expect(fake.violations()).toEqual([]);
});

const PROMPT = 'Time? [tool:current_time][tool:current_time {"zone":"UTC","hours":[9,17]}]';
const INPUTS = [{}, { zone: 'UTC', hours: [9, 17] }];

interface AdapterCase {
  readonly brain: BrainId;
  readonly wire: WireId;
  readonly model: string;
  readonly body: Record<string, unknown>;
  /** The provider call ids the adapter must report, in order. */
  readonly callIds: readonly (string | null)[];
  readonly rawReason: string;
  /** What rides on each call part for replay (Gemini's thought signature), if anything. */
  readonly opaque?: readonly unknown[];
}

const anthropicBody = { model: 'claude-sonnet-4-6', max_tokens: 1024, stream: true, tools: [{ name: 'current_time', description: 'The time', input_schema: { type: 'object' } }], messages: [{ role: 'user', content: PROMPT }] };
const responsesBody = (model: string): Record<string, unknown> => ({
  model,
  stream: true,
  store: false,
  tools: [{ type: 'function', name: 'current_time', description: 'The time', parameters: { type: 'object', properties: {} }, strict: false }],
  input: [{ role: 'user', content: PROMPT }],
});
const ANTHROPIC_IDS = ['toolu_758a5f73759c379d2bbf7974', 'toolu_ca73ff2c6a546d55b2eb5153'];
const RESPONSES_IDS = ['call_29b1f47b0adb938056f97393', 'call_ad89724dc7d1d9639742b751'];

const CASES: readonly AdapterCase[] = [
  { brain: 'claude', wire: 'anthropic-messages', model: 'claude-sonnet-4-6', body: anthropicBody, callIds: ANTHROPIC_IDS, rawReason: 'tool_use' },
  { brain: 'glm', wire: 'anthropic-messages', model: 'glm-5.1', body: { ...anthropicBody, model: 'glm-5.1' }, callIds: ANTHROPIC_IDS, rawReason: 'tool_use' },
  {
    brain: 'kimi',
    wire: 'chat-completions',
    model: 'kimi-k2.6',
    body: {
      model: 'kimi-k2.6',
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'current_time', description: 'The time', parameters: { type: 'object', properties: {} } } }],
      messages: [{ role: 'user', content: PROMPT }],
    },
    callIds: ['functions.current_time:0', 'functions.current_time:1'],
    rawReason: 'tool_calls',
  },
  { brain: 'codex', wire: 'openai-responses', model: 'gpt-5.5-codex', body: responsesBody('gpt-5.5-codex'), callIds: RESPONSES_IDS, rawReason: 'completed' },
  { brain: 'grok', wire: 'openai-responses', model: 'grok-4.3', body: responsesBody('grok-4.3'), callIds: RESPONSES_IDS, rawReason: 'completed' },
  {
    brain: 'gemini',
    wire: 'gemini-generate-content',
    model: 'gemini-3.1-pro-preview',
    body: { tools: [{ functionDeclarations: [{ name: 'current_time', description: 'The time' }] }], contents: [{ role: 'user', parts: [{ text: PROMPT }] }] },
    // The Gemini API names no call ids; Gemini 3 signs the first call of the step.
    callIds: [null, null],
    rawReason: 'STOP',
    opaque: [{ thoughtSignature: Buffer.from('anybrain-fake-thought|gemini-3.1-pro-preview|fake0001').toString('base64') }, undefined],
  },
  {
    brain: 'ollama',
    wire: 'ollama-chat',
    model: 'qwen3',
    body: { model: 'qwen3', tools: [{ type: 'function', function: { name: 'current_time', description: 'The time', parameters: { type: 'object', properties: {} } } }], messages: [{ role: 'user', content: PROMPT }] },
    callIds: [null, null],
    rawReason: 'stop',
  },
];

async function collectParts(testCase: Pick<AdapterCase, 'brain' | 'wire' | 'model' | 'body'>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  const call = { wire: testCase.wire, baseUrl: fake.baseUrlFor(testCase.brain), apiKey: 'test-key', model: testCase.model, body: testCase.body, signal: new AbortController().signal };
  for await (const part of streamProvider(call)) parts.push(part);
  return parts;
}

describe.each(CASES)('$wire ($brain)', (testCase) => {
  it('yields one tool-call part per scripted call, then finishes for tool calls', async () => {
    const parts = await collectParts(testCase);
    expect(parts.filter((part) => part.type === 'error')).toEqual([]);
    expect(parts.filter((part) => part.type === 'tool-call')).toEqual(
      testCase.callIds.map((providerCallId, index) => ({
        type: 'tool-call',
        providerCallId,
        name: 'current_time',
        input: INPUTS[index],
        ...(testCase.opaque?.[index] === undefined ? {} : { opaque: testCase.opaque[index] }),
      })),
    );
    expect(parts.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', rawReason: testCase.rawReason });
  });
});

describe('reasoning through the adapters', () => {
  it('anthropic-messages: thinking deltas, then the signed block kept for replay', async () => {
    const parts = await collectParts({ brain: 'claude', wire: 'anthropic-messages', model: 'claude-sonnet-4-6', body: { ...anthropicBody, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } } });
    const thinking = `Fake Claude thinks about: ${PROMPT.slice(0, 60)}`;
    expect(parts.filter((part) => part.type === 'reasoning-delta').map((part) => (part.type === 'reasoning-delta' ? part.text : '')).join('')).toBe(thinking);
    expect(parts.find((part) => part.type === 'reasoning-opaque')).toEqual({
      type: 'reasoning-opaque',
      opaque: { type: 'thinking', thinking, signature: expect.any(String) as unknown },
    });
  });

  it('chat-completions: Kimi K2.6 reasons before its calls', async () => {
    const kimi = CASES.find((testCase) => testCase.brain === 'kimi') as AdapterCase;
    const parts = await collectParts(kimi);
    expect(parts.findIndex((part) => part.type === 'reasoning-delta')).toBeLessThan(parts.findIndex((part) => part.type === 'tool-call'));
  });
});
