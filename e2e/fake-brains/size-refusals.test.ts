/**
 * Size refusals and compaction requests on all five wires: the fake's own refusal bodies, `[window:N]` on both sides of
 * its line, and the summary a compaction request gets, read back through the app's adapters over real HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BRAINS, type BrainId } from '../../src-shared/brains';
import { SUMMARY_REQUEST_MARKER } from '../../src-main/core/context/summary-prompt';
import { streamProvider, type ProviderError, type StreamPart } from '../../src-main/core/providers/index';
import { anthropicMessagesWire } from './anthropic-messages';
import { chatCompletionsWire } from './chat-completions';
import { estimateTokens, type FakeWire } from './fake-wire';
import { geminiGenerateContentWire } from './gemini-generate-content';
import { ollamaChatWire } from './ollama-chat';
import { openAiResponsesWire } from './openai-responses';
import { useFakeBrains } from './use-fake-brains';

const fake = useFakeBrains();
afterEach(() => {
  expect(fake.violations()).toEqual([]);
});

const ADVICE = 'Compact and retry: Anybrain summarises the oldest messages first.';
const SYSTEM = 'You are a helpful assistant.';

interface BrainCase {
  readonly brain: BrainId;
  readonly model: string;
  /** A complete streaming request with this system prompt and one user message. */
  readonly body: (system: string, userText: string) => Record<string, unknown>;
}

const anthropicBody = (model: string) => (system: string, userText: string) => ({
  model,
  max_tokens: 1024,
  stream: true,
  system: [{ type: 'text', text: system }],
  messages: [{ role: 'user', content: userText }],
});
const responsesBody = (model: string) => (system: string, userText: string) => ({
  model,
  stream: true,
  store: false,
  instructions: system,
  input: [{ role: 'user', content: userText }],
});

const BRAIN_CASES: readonly BrainCase[] = [
  { brain: 'claude', model: 'claude-sonnet-4-6', body: anthropicBody('claude-sonnet-4-6') },
  { brain: 'glm', model: 'glm-5.1', body: anthropicBody('glm-5.1') },
  {
    brain: 'kimi',
    model: 'kimi-k2.6',
    body: (system, userText) => ({
      model: 'kimi-k2.6',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: userText },
      ],
    }),
  },
  { brain: 'codex', model: 'gpt-5.5-codex', body: responsesBody('gpt-5.5-codex') },
  { brain: 'grok', model: 'grok-4.3', body: responsesBody('grok-4.3') },
  {
    brain: 'gemini',
    model: 'gemini-3.1-pro-preview',
    body: (system, userText) => ({ systemInstruction: { parts: [{ text: system }] }, contents: [{ role: 'user', parts: [{ text: userText }] }] }),
  },
  {
    brain: 'ollama',
    model: 'qwen3',
    body: (system, userText) => ({
      model: 'qwen3',
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: userText },
      ],
    }),
  },
];

async function collectParts(testCase: BrainCase, body: Record<string, unknown>): Promise<StreamPart[]> {
  const info = BRAINS[testCase.brain];
  const call = {
    wire: info.wire,
    baseUrl: fake.baseUrlFor(testCase.brain),
    apiKey: 'test-key',
    model: testCase.model,
    body,
    signal: new AbortController().signal,
    label: info.label,
  };
  const parts: StreamPart[] = [];
  for await (const part of streamProvider(call)) parts.push(part);
  return parts;
}

function textOf(parts: readonly StreamPart[]): string {
  return parts.map((part) => (part.type === 'text-delta' ? part.text : '')).join('');
}

/** What each brain's provider says when a request of `requestTokens` outgrows a `limitTokens` window. */
function refusalText(brain: BrainId, limitTokens: number, requestTokens: number): string {
  switch (brain) {
    case 'claude':
    case 'glm':
      return `prompt is too long: ${requestTokens} tokens > ${limitTokens} maximum.`;
    case 'kimi':
      return `Invalid request: Your request exceeded model token limit: ${limitTokens}.`;
    case 'codex':
      return `This model's maximum context length is ${limitTokens} tokens. However, your messages resulted in ${requestTokens} tokens. Please reduce the length of the messages.`;
    case 'grok':
      return `This model's maximum prompt length is ${limitTokens} but the request contains ${requestTokens} tokens.`;
    case 'gemini':
      return `The input token count (${requestTokens}) exceeds the maximum number of tokens allowed (${limitTokens}).`;
    case 'ollama':
      return `request (${requestTokens} tokens) exceeds the available context size (${limitTokens} tokens), try increasing it.`;
    default: {
      const unknownBrain: never = brain;
      throw new Error(`No refusal for ${String(unknownBrain)}`);
    }
  }
}

/** The error the adapter reports for that refusal: Moonshot names only the limit. */
function expectedRefusal(brain: BrainId, limitTokens: number, requestTokens: number): ProviderError {
  return {
    code: 'context-too-large',
    message: `The conversation is too large for ${BRAINS[brain].label}'s window (HTTP 400): ${refusalText(brain, limitTokens, requestTokens)} ${ADVICE}`,
    status: 400,
    retryable: false,
    limitTokens,
    ...(brain === 'kimi' ? {} : { requestTokens }),
  };
}

/** The figures `[too-large]` uses on each brain: a request just over a window typical of it. */
const TYPICAL: Readonly<Record<BrainId, readonly [limitTokens: number, requestTokens: number]>> = {
  claude: [200_000, 212_345],
  glm: [200_000, 212_345],
  kimi: [262_144, 300_000],
  codex: [272_000, 300_000],
  grok: [131_072, 140_000],
  gemini: [1_048_576, 1_200_000],
  ollama: [4096, 8889],
};

/** `[window:N]` padded to seven digits, so the directive's length (and so the estimate) does not depend on N. */
const windowDirective = (limitTokens: number): string => `[window:${String(limitTokens).padStart(7, '0')}]`;

describe.each(BRAIN_CASES)('$brain', (testCase) => {
  it('[too-large] refuses with the provider’s own wording and figures', async () => {
    const [limitTokens, requestTokens] = TYPICAL[testCase.brain];
    expect(await collectParts(testCase, testCase.body(SYSTEM, 'hi [too-large]'))).toEqual([{ type: 'error', error: expectedRefusal(testCase.brain, limitTokens, requestTokens) }]);
  });

  it('[window:N] answers a request of N tokens and refuses one of N + 1, naming both figures', async () => {
    await collectParts(testCase, testCase.body(SYSTEM, `hi ${windowDirective(9_999_999)}`));
    const recorded = fake.requests()[0]?.body;
    const requestTokens = estimateTokens(recorded);
    // The whole body counts: the system prompt and every field, not only the messages.
    expect(requestTokens).toBeGreaterThan(estimateTokens(`hi ${windowDirective(9_999_999)}`) + estimateTokens(SYSTEM));

    const fits = await collectParts(testCase, testCase.body(SYSTEM, `hi ${windowDirective(requestTokens)}`));
    expect(fits.filter((part) => part.type === 'error')).toEqual([]);
    expect(textOf(fits)).toBe(`Fake ${BRAINS[testCase.brain].label} reply to: hi ${windowDirective(requestTokens)}`);

    const refused = await collectParts(testCase, testCase.body(SYSTEM, `hi ${windowDirective(requestTokens - 1)}`));
    expect(refused).toEqual([{ type: 'error', error: expectedRefusal(testCase.brain, requestTokens - 1, requestTokens) }]);
  });

  it('answers a compaction request with the summary, whatever directives the transcript holds', async () => {
    const transcript = ['User: hello [too-large] [status:500]', `${BRAINS[testCase.brain].label}: hi`, 'Tool call current_time {}', 'User: again [window:1] [drop]', '', 'Summarise.'].join('\n');
    const parts = await collectParts(testCase, testCase.body(`${SUMMARY_REQUEST_MARKER}\nKeep the facts.`, transcript));
    expect(parts.filter((part) => part.type === 'error')).toEqual([]);
    expect(textOf(parts)).toBe('Summary of the conversation so far: 2 user messages; tools used: current_time.');
    expect(parts.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
  });
});

describe('each wire’s refusal body', () => {
  const sizes = { limitTokens: 1000, requestTokens: 1234 };
  it.each<[string, FakeWire, BrainId, unknown]>([
    ['anthropic-messages', anthropicMessagesWire, 'claude', { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 1234 tokens > 1000 maximum' } }],
    ['anthropic-messages', anthropicMessagesWire, 'glm', { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 1234 tokens > 1000 maximum' } }],
    ['chat-completions', chatCompletionsWire, 'kimi', { error: { message: 'Invalid request: Your request exceeded model token limit: 1000', type: 'invalid_request_error', param: null, code: null } }],
    [
      'openai-responses',
      openAiResponsesWire,
      'codex',
      {
        error: {
          message: "This model's maximum context length is 1000 tokens. However, your messages resulted in 1234 tokens. Please reduce the length of the messages.",
          type: 'invalid_request_error',
          param: 'input',
          code: 'context_length_exceeded',
        },
      },
    ],
    ['openai-responses', openAiResponsesWire, 'grok', { code: 'Client specified an invalid argument', error: "This model's maximum prompt length is 1000 but the request contains 1234 tokens." }],
    [
      'gemini-generate-content',
      geminiGenerateContentWire,
      'gemini',
      { error: { code: 400, message: 'The input token count (1234) exceeds the maximum number of tokens allowed (1000).', status: 'INVALID_ARGUMENT' } },
    ],
    [
      'ollama-chat',
      ollamaChatWire,
      'ollama',
      {
        error:
          '{"error":{"code":400,"message":"request (1234 tokens) exceeds the available context size (1000 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":1234,"n_ctx":1000}}',
      },
    ],
  ])('%s for %s', (_wire, wire, brain, body) => {
    expect(wire.tooLarge(brain, sizes)).toEqual({ status: 400, body });
  });
});
