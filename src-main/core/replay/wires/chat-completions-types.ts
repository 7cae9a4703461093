/**
 * The request body the Chat Completions converter builds (kimi), from the OpenAI SDK's message types plus the two
 * fields Moonshot adds: `reasoning_content` on assistant messages and the `thinking` switch.
 * https://platform.openai.com/docs/api-reference/chat/create and Moonshot's Kimi guide.
 */
import type {
  ChatCompletionContentPart,
  ChatCompletionContentPartImage,
  ChatCompletionContentPartText,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionSystemMessageParam,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
} from 'openai/resources/chat/completions';
import type { KimiReasoningFields } from '../../../../src-shared/reasoning';

export type ChatToolCall = Pick<ChatCompletionMessageFunctionToolCall, 'id' | 'type' | 'function'>;

/** An attached image as a base64 `data:` URL; a PDF as a `file` part (only where the model takes PDFs). */
export type ChatContentPart =
  | Pick<ChatCompletionContentPartText, 'type' | 'text'>
  | (Pick<ChatCompletionContentPartImage, 'type'> & { image_url: { url: string } })
  | (Pick<ChatCompletionContentPart.File, 'type'> & { file: { filename: string; file_data: string } });

export type ChatMessage =
  | Required<Pick<ChatCompletionSystemMessageParam, 'role'>> & { content: string }
  | Required<Pick<ChatCompletionUserMessageParam, 'role'>> & { content: string | ChatContentPart[] }
  | { role: 'assistant'; content: string | null; reasoning_content?: string; tool_calls?: ChatToolCall[] }
  | Required<Pick<ChatCompletionToolMessageParam, 'role' | 'tool_call_id'>> & { content: string };

/** The `{type: "function", function: {…}}` declaration Chat Completions uses, and Ollama's /api/chat copies. */
export type FunctionToolDeclaration = Required<Pick<ChatCompletionFunctionTool, 'type'>> & {
  function: { name: string; description: string; parameters: Record<string, unknown> };
};

/** Moonshot's thinking switch. */
export type KimiThinking = NonNullable<KimiReasoningFields['thinking']>;

export interface ChatCompletionsBody {
  readonly model: string;
  readonly messages: ChatMessage[];
  readonly tools?: FunctionToolDeclaration[];
  readonly max_completion_tokens: number;
  readonly thinking?: KimiThinking;
  readonly stream: true;
  readonly stream_options: { include_usage: true };
}
