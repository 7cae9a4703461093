import { describe, expect, it } from 'vitest';
import { classifyProviderFailure, formatSeconds, namingTheBrain, retryAfterSecondsFrom } from './provider-errors';

const NOW = Date.parse('2026-12-01T12:00:00.000Z');

describe('retryAfterSecondsFrom', () => {
  it.each([
    [{ 'retry-after': '20' }, 20],
    [{ 'retry-after': ' 7 ' }, 7],
    [{ 'retry-after': '0' }, 0],
    [{ 'retry-after': '2.5' }, 2.5],
    // RFC 9110 HTTP date, 45 s after NOW.
    [{ 'retry-after': 'Tue, 01 Dec 2026 12:00:45 GMT' }, 45],
    // A date already past asks for no wait.
    [{ 'retry-after': 'Tue, 01 Dec 2026 11:59:00 GMT' }, 0],
    // OpenAI's retry-after-ms wins over the coarser retry-after.
    [{ 'retry-after-ms': '1500', 'retry-after': '2' }, 1.5],
    [{ 'retry-after-ms': 'soon', 'retry-after': '2' }, 2],
    [{ 'retry-after': 'soon' }, null],
    [{ 'retry-after': '-3' }, null],
    [{}, null],
  ])('%j gives %j', (headers, seconds) => {
    expect(retryAfterSecondsFrom(new Headers(headers), NOW)).toBe(seconds);
  });

  it('gives null without headers', () => {
    expect(retryAfterSecondsFrom(undefined, NOW)).toBeNull();
  });
});

describe('formatSeconds', () => {
  it.each([
    [90, '90'],
    [0.2, '0.2'],
    [1.5, '1.5'],
    [1.26, '1.3'],
  ])('%d reads %s', (seconds, text) => {
    expect(formatSeconds(seconds)).toBe(text);
  });
});

describe('classifyProviderFailure with a requested wait', () => {
  it('names the wait and carries it as a number', () => {
    expect(classifyProviderFailure({ status: 529, type: 'overloaded_error', message: 'Overloaded', retryAfterSeconds: 30 })).toEqual({
      code: 'overloaded',
      message: 'The provider is overloaded (HTTP 529); the provider asks to wait 30 s: Overloaded',
      status: 529,
      retryable: true,
      retryAfterSeconds: 30,
    });
  });

  it('leaves the message and the error as they were without one', () => {
    expect(classifyProviderFailure({ status: 429, message: 'Slow down', retryAfterSeconds: null })).toEqual({
      code: 'rate-limited',
      message: 'The provider is rate-limiting requests (HTTP 429): Slow down',
      status: 429,
      retryable: true,
    });
  });
});

const ADVICE = 'Compact and retry: Anybrain summarises the oldest messages first.';

describe('classifyProviderFailure with each wire’s size refusal', () => {
  it.each([
    {
      wording: 'Anthropic, prompt is too long',
      report: { status: 400, type: 'invalid_request_error', message: 'prompt is too long: 212345 tokens > 200000 maximum' },
      expected: { limitTokens: 200000, requestTokens: 212345, text: 'prompt is too long: 212345 tokens > 200000 maximum.' },
    },
    {
      wording: 'Anthropic, input and `max_tokens` over the limit',
      report: { status: 400, type: 'invalid_request_error', message: 'input length and `max_tokens` exceed context limit: 190000 + 32000 > 200000, decrease input length or `max_tokens` and try again' },
      expected: {
        limitTokens: 200000,
        requestTokens: 222000,
        text: 'input length and `max_tokens` exceed context limit: 190000 + 32000 > 200000, decrease input length or `max_tokens` and try again.',
      },
    },
    {
      wording: 'Anthropic, max_tokens without backticks',
      report: { status: 400, type: 'invalid_request_error', message: 'input length and max_tokens exceed context limit: 199000 + 8192 > 204800' },
      expected: { limitTokens: 204800, requestTokens: 207192, text: 'input length and max_tokens exceed context limit: 199000 + 8192 > 204800.' },
    },
    {
      wording: 'OpenAI Responses, context_length_exceeded without numbers',
      report: { status: 400, type: 'invalid_request_error', code: 'context_length_exceeded', message: 'Your input exceeds the context window of this model. Please adjust your input and try again.' },
      expected: { text: 'Your input exceeds the context window of this model. Please adjust your input and try again.' },
    },
    {
      wording: 'OpenAI, maximum context length with both counts',
      report: {
        status: 400,
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
        message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130500 tokens. Please reduce the length of the messages.",
      },
      expected: {
        limitTokens: 128000,
        requestTokens: 130500,
        text: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130500 tokens. Please reduce the length of the messages.",
      },
    },
    {
      wording: 'xAI, maximum prompt length',
      report: { status: 400, message: "This model's maximum prompt length is 131072 but the request contains 140000 tokens." },
      expected: { limitTokens: 131072, requestTokens: 140000, text: "This model's maximum prompt length is 131072 but the request contains 140000 tokens." },
    },
    {
      wording: 'xAI, input_too_large code',
      report: { status: 400, type: 'invalid_request_error', code: 'input_too_large', message: 'The request input is too large.' },
      expected: { text: 'The request input is too large.' },
    },
    {
      wording: 'xAI, exceeds budget',
      report: { status: 400, message: 'Prompt of 300000 tokens exceeds budget' },
      expected: { text: 'Prompt of 300000 tokens exceeds budget.' },
    },
    {
      wording: 'Moonshot',
      report: { status: 400, type: 'invalid_request_error', message: 'Invalid request: Your request exceeded model token limit: 262144' },
      expected: { limitTokens: 262144, text: 'Invalid request: Your request exceeded model token limit: 262144.' },
    },
    {
      wording: 'Gemini',
      report: { status: 400, type: 'INVALID_ARGUMENT', message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).' },
      expected: { limitTokens: 1048576, requestTokens: 1200000, text: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).' },
    },
    {
      wording: 'Ollama passing on llama.cpp',
      report: { status: 400, type: 'exceed_context_size_error', message: 'request (8889 tokens) exceeds the available context size (4096 tokens), try increasing it' },
      expected: { limitTokens: 4096, requestTokens: 8889, text: 'request (8889 tokens) exceeds the available context size (4096 tokens), try increasing it.' },
    },
    {
      wording: 'Ollama, input length',
      report: { status: 400, message: 'the input length exceeds the context length' },
      expected: { text: 'the input length exceeds the context length.' },
    },
    {
      wording: 'Ollama with shift off',
      report: { status: 400, message: 'the prompt is longer than the context length currently available to the model' },
      expected: { text: 'the prompt is longer than the context length currently available to the model.' },
    },
  ])('$wording', ({ report, expected }) => {
    const { text, ...figures } = expected;
    expect(classifyProviderFailure(report)).toEqual({
      code: 'context-too-large',
      message: `The conversation is too large for the model's window (HTTP 400): ${text} ${ADVICE}`,
      status: 400,
      retryable: false,
      ...figures,
    });
  });

  it('reads a refusal that arrives inside the stream, without a status', () => {
    expect(classifyProviderFailure({ type: 'invalid_request_error', message: 'prompt is too long: 5000 tokens > 4096 maximum' })).toEqual({
      code: 'context-too-large',
      message: `The conversation is too large for the model's window during the reply: prompt is too long: 5000 tokens > 4096 maximum. ${ADVICE}`,
      retryable: false,
      limitTokens: 4096,
      requestTokens: 5000,
    });
  });

  it('takes a 413 as a size refusal without figures', () => {
    expect(classifyProviderFailure({ status: 413, type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' })).toEqual({
      code: 'context-too-large',
      message: `The conversation is too large for the model's window (HTTP 413): Request exceeds the maximum allowed number of bytes. ${ADVICE}`,
      status: 413,
      retryable: false,
    });
  });

  it.each([
    { status: 429, type: 'tokens', code: 'rate_limit_exceeded', message: 'Rate limit reached for gpt-5 on tokens per min (TPM): Limit 30000, Used 29000, Requested 4000.' },
    { status: 429, type: 'rate_limit_error', message: 'This request would exceed the rate limit for your organization of 400,000 input tokens per minute.' },
    { status: 413, type: 'tokens', code: 'rate_limit_exceeded', message: 'Request too large for model on tokens per minute (TPM): Limit 6000, Requested 14810, please reduce your message size and try again.' },
  ])('keeps a per-minute token limit rate-limited: $message', (report) => {
    expect(classifyProviderFailure(report).code).toBe('rate-limited');
  });
});

describe('namingTheBrain', () => {
  it('names the brain in a size refusal', () => {
    const refusal = classifyProviderFailure({ status: 400, message: 'Invalid request: Your request exceeded model token limit: 262144' });
    expect(namingTheBrain(refusal, 'Kimi')).toEqual({
      code: 'context-too-large',
      message: `The conversation is too large for Kimi's window (HTTP 400): Invalid request: Your request exceeded model token limit: 262144. ${ADVICE}`,
      status: 400,
      retryable: false,
      limitTokens: 262144,
    });
  });

  it('leaves every other error as it was', () => {
    const overloaded = classifyProviderFailure({ status: 529, message: 'Overloaded' });
    expect(namingTheBrain(overloaded, 'Claude')).toBe(overloaded);
  });
});
