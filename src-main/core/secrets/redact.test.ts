import { describe, expect, it } from 'vitest';
import { REDACTED_KEY, redactKeys } from './redact';

describe('redactKeys', () => {
  it('replaces a known key wherever it appears, whatever its shape', () => {
    expect(redactKeys('Invalid key my-own-proxy-key-123 (my-own-proxy-key-123)', ['my-own-proxy-key-123'])).toBe(
      `Invalid key ${REDACTED_KEY} (${REDACTED_KEY})`,
    );
  });

  it('leaves short placeholders and absent keys alone: they would match ordinary words', () => {
    expect(redactKeys('ollama answered: model not found', ['ollama', null, undefined, ''])).toBe('ollama answered: model not found');
  });

  it.each([
    ['Anthropic', 'sk-ant-api03-Zx9_abcdefghijklmnopqrstuvwxyz0123456789-ABCDEFGHIJKLMNOP_AA'],
    ['OpenAI project', 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abc'],
    ['OpenAI service account', 'sk-svcacct-AbCdEfGhIjKlMnOpQrStUvWxYz01234'],
    ['Moonshot', 'sk-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKl'],
    ['xAI', 'xai-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCd'],
    ['Google AI Studio', 'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'],
    ['Zhipu', '0123456789abcdef0123456789abcdef.AbCdEfGhIjKlMnOp'],
  ])('recognises a %s key by its shape', (_provider, key) => {
    expect(redactKeys(`Incorrect API key provided: ${key}. See the console.`)).toBe(`Incorrect API key provided: ${REDACTED_KEY}. See the console.`);
  });

  it('redacts keys where they are named: a bearer header, a key= parameter, an x-api-key header', () => {
    expect(redactKeys('sent Authorization: Bearer abc.DEF-123_456~xyz to https://host/v1beta/models?alt=sse&key=plainkey123&x=1; x-api-key: "s3cr3tvalue"')).toBe(
      `sent Authorization: Bearer ${REDACTED_KEY} to https://host/v1beta/models?alt=sse&key=${REDACTED_KEY}&x=1; x-api-key: "${REDACTED_KEY}"`,
    );
  });

  it('keeps ordinary provider messages word for word', () => {
    const message = "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens (request req_0123456789abcdef, task-runner sk-tools).";
    expect(redactKeys(message)).toBe(message);
  });
});
