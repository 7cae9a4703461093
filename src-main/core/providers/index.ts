/**
 * One entry point for every wire: the engine hands over a `ProviderCall` and reads neutral stream parts back.
 */
import { streamAnthropicMessages } from './anthropic-messages';
import { streamChatCompletions } from './chat-completions';
import { streamGeminiGenerateContent } from './gemini-generate-content';
import { streamOllamaChat } from './ollama-chat';
import { streamOpenAiResponses } from './openai-responses';
import type { ProviderCall, StreamPart } from './stream-parts';

export type { FinishReason, ProviderCall, ProviderError, ProviderErrorCode, StreamPart } from './stream-parts';

/** A size refusal names the brain whose window the conversation outgrew, as the person chose it (`call.label`). */
export function streamProvider(call: ProviderCall): AsyncIterable<StreamPart> {
  switch (call.wire) {
    case 'anthropic-messages':
      return streamAnthropicMessages(call);
    case 'chat-completions':
      return streamChatCompletions(call);
    case 'openai-responses':
      return streamOpenAiResponses(call);
    case 'gemini-generate-content':
      return streamGeminiGenerateContent(call);
    case 'ollama-chat':
      return streamOllamaChat(call);
    default: {
      const unknownWire: never = call.wire;
      return wireNotAvailable(String(unknownWire));
    }
  }
}

/** A wire id from a newer build (settings synced from elsewhere) reaches here only through an unchecked cast. */
async function* wireNotAvailable(wire: string): AsyncIterable<StreamPart> {
  yield {
    type: 'error',
    error: { code: 'provider-error', message: `The ${wire} wire is not available in this build.`, retryable: false },
  };
}
