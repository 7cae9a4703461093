/**
 * Each provider's list read field by field. The answers are shaped as each provider documents its list: Anthropic's
 * `ModelInfo` as typed by `@anthropic-ai/sdk` 1.14 (`resources/models.d.ts`, MIT), OpenAI's and Moonshot's `/models`
 * entries, Gemini's `Model` resource, Ollama's `/api/tags` and `/api/show` (docs/api.md, MIT).
 */
import { describe, expect, it } from 'vitest';
import { reportedModel } from '../../../src-shared/models/reported';
import { anthropicModelsIn, geminiModelsIn, ollamaTagsIn, openAiStyleModelsIn, withOllamaShow } from './reported-models';

describe('anthropicModelsIn', () => {
  it('reads the window, output limit, inputs, thinking and life cycle of each ModelInfo', () => {
    const info = {
      type: 'model',
      id: 'claude-opus-5-5',
      display_name: 'Claude Opus 5.5',
      created_at: '2026-10-14T00:00:00Z',
      deprecated_at: null,
      line: 'opus',
      max_input_tokens: 1_000_000,
      max_tokens: 128_000,
      lifecycle: 'active',
      retires_at: null,
      capabilities: {
        image_input: { supported: true },
        pdf_input: { supported: true },
        thinking: { supported: true, types: { adaptive: { supported: true }, enabled: { supported: false } } },
        batch: { supported: true },
      },
    };
    const deprecated = { ...info, id: 'claude-sonnet-4-5', lifecycle: 'deprecated', retires_at: '2027-02-01T00:00:00Z', capabilities: null, max_input_tokens: null };
    expect(anthropicModelsIn([info, deprecated])).toEqual([
      reportedModel('claude-opus-5-5', {
        displayName: 'Claude Opus 5.5',
        createdAt: '2026-10-14T00:00:00Z',
        contextWindow: 1_000_000,
        outputLimit: 128_000,
        images: true,
        pdfs: true,
        thinking: true,
        lifecycle: 'active',
      }),
      reportedModel('claude-sonnet-4-5', {
        displayName: 'Claude Opus 5.5',
        createdAt: '2026-10-14T00:00:00Z',
        outputLimit: 128_000,
        lifecycle: 'deprecated',
        retiresAt: '2027-02-01',
      }),
    ]);
  });

  it('drops an entry without an id and any field not in its documented shape', () => {
    expect(anthropicModelsIn([{ display_name: 'nameless' }, 'text', { id: 'claude-x', max_input_tokens: '200000', max_tokens: -1, lifecycle: 'sunset' }])).toEqual([reportedModel('claude-x')]);
    expect(anthropicModelsIn(null)).toEqual([]);
  });
});

describe('openAiStyleModelsIn', () => {
  it("proves an OpenAI model exists and dates it; a shutdown date marks it deprecated", () => {
    expect(
      openAiStyleModelsIn([
        { id: 'gpt-5.6', object: 'model', created: 1_780_000_000, owned_by: 'system' },
        { id: 'gpt-4.1', object: 'model', created: 1_744_000_000, owned_by: 'system', shutdown_date: '2026-12-31' },
      ]),
    ).toEqual([
      reportedModel('gpt-5.6', { createdAt: '2026-05-28T20:26:40.000Z' }),
      reportedModel('gpt-4.1', { createdAt: '2025-04-07T04:26:40.000Z', lifecycle: 'deprecated', retiresAt: '2026-12-31' }),
    ]);
  });

  it("reads Moonshot's window, image input and reasoning", () => {
    expect(
      openAiStyleModelsIn([{ id: 'kimi-k3', object: 'model', created: 1_780_000_000, owned_by: 'moonshot', root: '', parent: '', context_length: 1_048_576, supports_image_in: true, supports_reasoning: true }]),
    ).toEqual([reportedModel('kimi-k3', { createdAt: '2026-05-28T20:26:40.000Z', contextWindow: 1_048_576, images: true, thinking: true })]);
  });
});

describe("the providers' own examples, verbatim", () => {
  it("reads OpenAI's list example (openai/openai-openapi openapi.yaml at f85dbe22, MIT) and its Model example", () => {
    const listExample = {
      object: 'list',
      data: [
        { id: 'model-id-0', object: 'model', created: 1686935002, owned_by: 'organization-owner', shutdown_date: null },
        { id: 'model-id-1', object: 'model', created: 1686935002, owned_by: 'organization-owner', shutdown_date: null },
      ],
    };
    const modelExample = { id: 'VAR_chat_model_id', object: 'model', created: 1686935002, owned_by: 'openai', shutdown_date: '2026-10-23' };
    expect(openAiStyleModelsIn([...listExample.data, modelExample])).toEqual([
      reportedModel('model-id-0', { createdAt: '2023-06-16T17:03:22.000Z' }),
      reportedModel('model-id-1', { createdAt: '2023-06-16T17:03:22.000Z' }),
      reportedModel('VAR_chat_model_id', { createdAt: '2023-06-16T17:03:22.000Z', lifecycle: 'deprecated', retiresAt: '2026-10-23' }),
    ]);
  });

  it("reads Ollama's /api/tags example (ollama/ollama docs/api.md at 948f6933, MIT)", () => {
    const tagsExample = {
      models: [
        {
          name: 'deepseek-r1:latest',
          model: 'deepseek-r1:latest',
          modified_at: '2025-05-10T08:06:48.639712648-07:00',
          size: 4683075271,
          digest: '0a8c266910232fd3291e71e5ba1e058cc5af9d411192cf88b6d30e92b6e73163',
          details: { parent_model: '', format: 'gguf', family: 'qwen2', families: ['qwen2'], parameter_size: '7.6B', quantization_level: 'Q4_K_M' },
        },
        {
          name: 'llama3.2:latest',
          model: 'llama3.2:latest',
          modified_at: '2025-05-04T17:37:44.706015396-07:00',
          size: 2019393189,
          digest: 'a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72',
          details: { parent_model: '', format: 'gguf', family: 'llama', families: ['llama'], parameter_size: '3.2B', quantization_level: 'Q4_K_M' },
        },
      ],
    };
    expect(ollamaTagsIn(tagsExample.models)).toEqual([
      reportedModel('deepseek-r1:latest', { createdAt: '2025-05-10T08:06:48.639712648-07:00' }),
      reportedModel('llama3.2:latest', { createdAt: '2025-05-04T17:37:44.706015396-07:00' }),
    ]);
  });
});

describe('geminiModelsIn', () => {
  it('reads the token limits and thinking, and marks a model without generateContent as not for chat', () => {
    expect(
      geminiModelsIn([
        {
          name: 'models/gemini-3.1-pro-preview',
          displayName: 'Gemini 3.1 Pro Preview',
          inputTokenLimit: 1_048_576,
          outputTokenLimit: 65_536,
          supportedGenerationMethods: ['generateContent', 'countTokens', 'createCachedContent'],
          thinking: true,
        },
        { name: 'models/gemini-embedding-001', displayName: 'Gemini Embedding 001', inputTokenLimit: 2_048, outputTokenLimit: 1, supportedGenerationMethods: ['embedContent'] },
      ]),
    ).toEqual([
      reportedModel('gemini-3.1-pro-preview', { displayName: 'Gemini 3.1 Pro Preview', contextWindow: 1_048_576, outputLimit: 65_536, thinking: true }),
      reportedModel('gemini-embedding-001', { displayName: 'Gemini Embedding 001', contextWindow: 2_048, outputLimit: 1, chats: false }),
    ]);
  });
});

describe('Ollama', () => {
  it('names the pulled models from /api/tags, then takes the trained length and abilities from /api/show', () => {
    const [llava] = ollamaTagsIn([{ name: 'llava:latest', model: 'llava:latest', modified_at: '2025-12-01T10:00:00Z', size: 4_109_865_159 }]);
    expect(llava).toEqual(reportedModel('llava:latest', { createdAt: '2025-12-01T10:00:00Z' }));
    expect(withOllamaShow(llava!, 8_192, ['completion', 'vision'])).toEqual(
      reportedModel('llava:latest', { createdAt: '2025-12-01T10:00:00Z', contextWindow: 8_192, images: true, thinking: false, chats: true }),
    );
    expect(withOllamaShow(llava!, null, ['embedding'])).toMatchObject({ chats: false, contextWindow: null });
    // An older server says nothing of abilities: they stay unknown.
    expect(withOllamaShow(llava!, 4_096, null)).toEqual(reportedModel('llava:latest', { createdAt: '2025-12-01T10:00:00Z', contextWindow: 4_096 }));
  });
});
