import type { WireId } from '../../../../src-shared/brains';
import type { ReplayRequest, WireRequest } from '../types';
import { convertToAnthropicMessages } from './anthropic-messages';
import { convertToChatCompletionsMessages } from './chat-completions';
import { convertToGeminiContents } from './gemini-generate-content';
import { convertToOllamaMessages } from './ollama-chat';
import { convertToOpenAiResponsesInput } from './openai-responses';

/**
 * The request for `wire`. Each converter types its body as its wire's request; from here on the body is the JSON
 * object the provider sends, and only its bytes matter.
 */
export function buildWireRequest(wire: WireId, request: ReplayRequest): WireRequest {
  switch (wire) {
    case 'anthropic-messages':
      return asJsonBody(convertToAnthropicMessages(request));
    case 'chat-completions':
      return asJsonBody(convertToChatCompletionsMessages(request));
    case 'openai-responses':
      return asJsonBody(convertToOpenAiResponsesInput(request));
    case 'gemini-generate-content':
      return asJsonBody(convertToGeminiContents(request));
    case 'ollama-chat':
      return asJsonBody(convertToOllamaMessages(request));
    default: {
      const unreachable: never = wire;
      throw new Error(`Unknown wire ${String(unreachable)}`);
    }
  }
}

/** A typed body is a plain JSON object; TypeScript gives interfaces no index signature, hence the one cast. */
function asJsonBody<Body extends object>(wireRequest: WireRequest<Body>): WireRequest {
  return wireRequest as unknown as WireRequest;
}
