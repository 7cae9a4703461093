/**
 * Each wire's model list, as its provider answers it: the cheapest call a client can make, used by Settings' "Test".
 * The fake lists the models of every brain that speaks the wire (the fake serves any model name anyway).
 */
import { BRAIN_IDS, BRAINS, type WireId } from '../../src-shared/brains';
import type { ModelLookup } from './fake-wire';
import { offeredModels } from '../../src-shared/models/catalogue';

function modelsOn(wire: WireId): string[] {
  return BRAIN_IDS.filter((brain) => BRAINS[brain].wire === wire).flatMap((brain) => offeredModels(brain));
}

/** The 200 answer of `GET` on the wire's list path, in the shape of the provider's docs. */
export function fakeModelList(wire: WireId): unknown {
  const models = modelsOn(wire);
  switch (wire) {
    case 'anthropic-messages':
      return {
        data: models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2026-01-01T00:00:00Z' })),
        has_more: false,
        first_id: models[0] ?? null,
        last_id: models.at(-1) ?? null,
      };
    case 'chat-completions':
    case 'openai-responses':
      return { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1_767_225_600, owned_by: 'system' })) };
    case 'gemini-generate-content':
      return { models: models.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ['generateContent'] })) };
    case 'ollama-chat':
      return { models: models.map((name) => ({ name, model: name, modified_at: '2026-01-01T00:00:00Z', size: 5_225_376_047 })) };
    default: {
      const unknownWire: never = wire;
      throw new Error(`No model list for wire ${String(unknownWire)}`);
    }
  }
}

/** The list lookup at `GET listPath` (after the brain prefix: `/v1/models` for the OpenAI-style wires), or null elsewhere. */
export function modelListLookup(wire: WireId, listPath: string): (method: string, path: string) => ModelLookup | null {
  const lookup: ModelLookup = { check: () => null, answer: () => fakeModelList(wire) };
  return (method, path) => (method === 'GET' && path === listPath ? lookup : null);
}
