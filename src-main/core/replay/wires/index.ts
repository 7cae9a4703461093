import type { WireId } from '../../../../src-shared/brains';
import type { ReplayRequest, WireRequest } from '../types';
import { convertToAnthropicMessages } from './anthropic-messages';
import { convertToChatCompletionsMessages } from './chat-completions';
import { convertToGeminiContents } from './gemini-generate-content';
import { convertToOllamaMessages } from './ollama-chat';
import { convertToOpenAiResponsesInput } from './openai-responses';

export function buildWireRequest(wire: WireId, request: ReplayRequest): WireRequest {
  switch (wire) {
    case 'anthropic-messages':
      return convertToAnthropicMessages(request);
    case 'chat-completions':
      return convertToChatCompletionsMessages(request);
    case 'openai-responses':
      return convertToOpenAiResponsesInput(request);
    case 'gemini-generate-content':
      return convertToGeminiContents(request);
    case 'ollama-chat':
      return convertToOllamaMessages(request);
    default: {
      const unreachable: never = wire;
      throw new Error(`Unknown wire ${String(unreachable)}`);
    }
  }
}
