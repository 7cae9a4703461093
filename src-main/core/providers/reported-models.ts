/**
 * Each provider's model list read into `ReportedModel`s, field by field as the provider documents it. A field the
 * provider leaves out, or sends in a shape it does not document, stays null: the catalogue answers for it.
 * - Anthropic `GET /v1/models` (ModelInfo): `max_input_tokens`, `max_tokens`, `capabilities.{image_input,pdf_input,
 *   thinking}.supported`, `lifecycle`, `retires_at`, `created_at` (https://docs.anthropic.com/en/api/models-list);
 * - OpenAI, xAI and Z.ai `GET /models`: `id` and `created` (seconds) only, so the list proves existence; Moonshot's
 *   adds `context_length`, `supports_image_in` and `supports_reasoning`; OpenAI's may add `shutdown_date`;
 * - Gemini `GET /v1beta/models`: `inputTokenLimit`, `outputTokenLimit`, `thinking`, and `supportedGenerationMethods`
 *   (a model without `generateContent` cannot chat);
 * - Ollama `GET /api/tags`: names and `modified_at`; the window and abilities come from `/api/show` per model.
 */
import { MODEL_STAGES, type ModelStage } from '../../../src-shared/models/entry';
import { reportedModel, type ReportedModel } from '../../../src-shared/models/reported';
import { arrayField, isRecord, numberField, recordField, stringField, type JsonRecord } from './json-fields';

function recordsIn(items: readonly unknown[] | null): JsonRecord[] {
  return (items ?? []).filter(isRecord);
}

function positiveTokens(value: number | null): number | null {
  return value !== null && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** `capabilities.<name>.supported`, or null when the provider did not say. */
function supported(capabilities: JsonRecord | null, name: string): boolean | null {
  const capability = capabilities === null ? null : recordField(capabilities, name);
  const value = capability === null ? undefined : capability['supported'];
  return typeof value === 'boolean' ? value : null;
}

function stageOf(value: string | null): ModelStage | null {
  return value !== null && (MODEL_STAGES as readonly string[]).includes(value) ? (value as ModelStage) : null;
}

/** `YYYY-MM-DD` of an RFC 3339 time or a date, or null for anything else. */
function dayOf(value: string | null): string | null {
  return value !== null && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
}

function isoOfSeconds(seconds: number | null): string | null {
  if (seconds === null || seconds <= 0 || !Number.isSafeInteger(seconds)) return null;
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function booleanField(record: JsonRecord, key: string): boolean | null {
  const value = record[key];
  return typeof value === 'boolean' ? value : null;
}

export function anthropicModelsIn(items: readonly unknown[] | null): ReportedModel[] {
  return recordsIn(items).flatMap((item) => {
    const id = stringField(item, 'id');
    if (id === null || id === '') return [];
    const capabilities = recordField(item, 'capabilities');
    return [
      reportedModel(id, {
        displayName: stringField(item, 'display_name'),
        createdAt: stringField(item, 'created_at'),
        contextWindow: positiveTokens(numberField(item, 'max_input_tokens')),
        outputLimit: positiveTokens(numberField(item, 'max_tokens')),
        images: supported(capabilities, 'image_input'),
        pdfs: supported(capabilities, 'pdf_input'),
        thinking: supported(capabilities, 'thinking'),
        lifecycle: stageOf(stringField(item, 'lifecycle')),
        retiresAt: dayOf(stringField(item, 'retires_at')),
      }),
    ];
  });
}

export function openAiStyleModelsIn(items: readonly unknown[] | null): ReportedModel[] {
  return recordsIn(items).flatMap((item) => {
    const id = stringField(item, 'id');
    if (id === null || id === '') return [];
    const shutdown = dayOf(stringField(item, 'shutdown_date'));
    return [
      reportedModel(id, {
        createdAt: isoOfSeconds(numberField(item, 'created')),
        contextWindow: positiveTokens(numberField(item, 'context_length')),
        images: booleanField(item, 'supports_image_in'),
        thinking: booleanField(item, 'supports_reasoning'),
        // A shutdown date on an answered model means it is on its way out.
        ...(shutdown === null ? {} : { lifecycle: 'deprecated' as const, retiresAt: shutdown }),
      }),
    ];
  });
}

export function geminiModelsIn(items: readonly unknown[] | null): ReportedModel[] {
  return recordsIn(items).flatMap((item) => {
    const name = stringField(item, 'name');
    if (name === null || name === '') return [];
    const id = name.startsWith('models/') ? name.slice('models/'.length) : name;
    const methods = arrayField(item, 'supportedGenerationMethods');
    return [
      reportedModel(id, {
        displayName: stringField(item, 'displayName'),
        contextWindow: positiveTokens(numberField(item, 'inputTokenLimit')),
        outputLimit: positiveTokens(numberField(item, 'outputTokenLimit')),
        thinking: booleanField(item, 'thinking'),
        chats: methods === null || methods.includes('generateContent'),
      }),
    ];
  });
}

export function ollamaTagsIn(items: readonly unknown[] | null): ReportedModel[] {
  return recordsIn(items).flatMap((item) => {
    const name = stringField(item, 'name') ?? stringField(item, 'model');
    if (name === null || name === '') return [];
    return [reportedModel(name, { createdAt: stringField(item, 'modified_at') })];
  });
}

/**
 * An Ollama model from `/api/tags` completed with its `/api/show` answer: the trained length as its window and its
 * `capabilities` (`completion`, `vision`, `thinking`, `tools`, `embedding`).
 */
export function withOllamaShow(model: ReportedModel, trainedContextLength: number | null, capabilities: readonly string[] | null): ReportedModel {
  if (capabilities === null) return { ...model, contextWindow: trainedContextLength ?? model.contextWindow };
  return {
    ...model,
    contextWindow: trainedContextLength ?? model.contextWindow,
    images: capabilities.includes('vision'),
    thinking: capabilities.includes('thinking'),
    chats: capabilities.includes('completion'),
  };
}
