import type { WireId } from '../../../../src-shared/brains';
import type { ReplayRequest, WireRequest } from '../types';
import { convertToAnthropicMessages } from './anthropic-messages';
import { convertToChatCompletionsMessages } from './chat-completions';

/** Thrown for a wire this build cannot yet build requests for. */
export class UnsupportedWireError extends Error {
  constructor(readonly wire: WireId) {
    super(`Anybrain cannot build ${wire} requests yet.`);
    this.name = 'UnsupportedWireError';
  }
}

export function buildWireRequest(wire: WireId, request: ReplayRequest): WireRequest {
  switch (wire) {
    case 'anthropic-messages':
      return convertToAnthropicMessages(request);
    case 'chat-completions':
      return convertToChatCompletionsMessages(request);
    case 'openai-responses':
    case 'gemini-generate-content':
    case 'ollama-chat':
      throw new UnsupportedWireError(wire);
    default: {
      const unreachable: never = wire;
      throw new Error(`Unknown wire ${String(unreachable)}`);
    }
  }
}
