/**
 * Each brain's model list, as its provider answers it: the cheapest call a client can make, asked by Settings' "Test"
 * and kept as the witness of each model's window. The fake lists the brain's catalogue models in the shape of the
 * provider's docs, and Anthropic's list one model the catalogue has never heard of, with its own window.
 */
import { BRAINS, type BrainId } from '../../src-shared/brains';
import type { ModelLookup } from './fake-wire';
import { findModel, offeredModels } from '../../src-shared/models/catalogue';

/** A Claude model newer than the catalogue: only Anthropic's answer knows its window. */
export const INVENTED_CLAUDE_MODEL = { id: 'claude-nova-6', displayName: 'Claude Nova 6', contextWindow: 640_000, outputLimit: 96_000 } as const;

const LISTED_AT = '2026-01-01T00:00:00Z';

/** Anthropic's ModelInfo, every field its list documents. */
function anthropicModelInfo(id: string, displayName: string, window: { contextWindow: number; outputLimit: number }, inputs: { images: boolean; pdfs: boolean }) {
  return {
    type: 'model',
    id,
    display_name: displayName,
    created_at: id === INVENTED_CLAUDE_MODEL.id ? '2026-11-20T00:00:00Z' : LISTED_AT,
    max_input_tokens: window.contextWindow,
    max_tokens: window.outputLimit,
    capabilities: {
      image_input: { supported: inputs.images },
      pdf_input: { supported: inputs.pdfs },
      thinking: { supported: true, types: { adaptive: { supported: true }, enabled: { supported: true } } },
    },
    lifecycle: 'active',
    retires_at: null,
  };
}

/** The 200 answer of `GET` on the brain's list path, in the shape of the provider's docs. */
export function fakeModelList(brain: BrainId): unknown {
  const models = offeredModels(brain);
  const wire = BRAINS[brain].wire;
  switch (wire) {
    case 'anthropic-messages': {
      const data = models.map((id) => {
        const { entry } = findModel(brain, id);
        return anthropicModelInfo(id, id, entry.window, { images: entry.inputs.imageTypes.length > 0, pdfs: entry.inputs.pdfs });
      });
      const invented = brain === 'claude' ? [anthropicModelInfo(INVENTED_CLAUDE_MODEL.id, INVENTED_CLAUDE_MODEL.displayName, INVENTED_CLAUDE_MODEL, { images: true, pdfs: true })] : [];
      const all = [...data, ...invented];
      return { data: all, has_more: false, first_id: all[0]?.id ?? null, last_id: all.at(-1)?.id ?? null };
    }
    case 'chat-completions':
    case 'openai-responses':
      return { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1_767_225_600, owned_by: 'system' })) };
    case 'gemini-generate-content':
      return { models: models.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ['generateContent'] })) };
    case 'ollama-chat':
      return { models: models.map((name) => ({ name, model: name, modified_at: LISTED_AT, size: 5_225_376_047 })) };
    default: {
      const unknownWire: never = wire;
      throw new Error(`No model list for wire ${String(unknownWire)}`);
    }
  }
}

/** The list lookup at `GET listPath` (after the brain prefix: `/v1/models` for the OpenAI-style wires), or null elsewhere. */
export function modelListLookup(listPath: string): (method: string, path: string, brain: BrainId) => ModelLookup | null {
  return (method, path, brain) => (method === 'GET' && path === listPath ? { check: () => null, answer: () => fakeModelList(brain) } : null);
}
