/**
 * The request body the Ollama converter builds. No Ollama SDK is installed, so the shape is written out from the
 * API reference: https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 */
import type { OllamaReasoningFields } from '../../../../src-shared/reasoning';
import type { FunctionToolDeclaration } from './chat-completions-types';

/** Arguments are an object on this wire, not a JSON string. */
export interface OllamaToolCall {
  function: { name: string; arguments: Record<string, unknown> };
}

export type OllamaMessage =
  | { role: 'system'; content: string }
  /** `images`: attached images' bytes in base64, for vision models. */
  | { role: 'user'; content: string; images?: string[] }
  | { role: 'assistant'; content: string; thinking?: string; tool_calls?: OllamaToolCall[] }
  | { role: 'tool'; content: string; tool_name: string };

export interface OllamaChatBody {
  readonly model: string;
  readonly messages: OllamaMessage[];
  readonly tools?: FunctionToolDeclaration[];
  /** A switch, or a level for models that take one; left out for a model without thinking. */
  readonly think?: OllamaReasoningFields['think'];
  /** `num_ctx`: the window the request was measured against, so Ollama never cuts the prompt's start to fit. */
  readonly options: { readonly num_ctx: number };
  readonly stream: true;
}
