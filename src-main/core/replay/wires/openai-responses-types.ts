/**
 * The request body the OpenAI Responses converter builds (codex, grok), narrowed from the SDK's own types to the
 * items a replay writes, so a misspelt `call_id` or item type fails to compile.
 * https://platform.openai.com/docs/api-reference/responses/create
 */
import type {
  EasyInputMessage,
  FunctionTool,
  ResponseCreateParamsStreaming,
  ResponseFunctionToolCall,
  ResponseIncludable,
  ResponseInputFile,
  ResponseInputImage,
  ResponseInputImageContent,
  ResponseInputItem,
  ResponseInputText,
  ResponseInputTextContent,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import type { ResponsesReasoningFields } from '../../../../src-shared/reasoning';

/** Words of either speaker, as plain strings. */
export type ResponsesMessage = Required<Pick<EasyInputMessage, 'role'>> & { content: string };

/** An attached image: its bytes as a base64 `data:` URL. */
export type ResponsesInputImage = Pick<ResponseInputImage, 'type' | 'detail'> & { image_url: string };
/** An attached PDF: its bytes as a base64 `data:` URL, with its file name. */
export type ResponsesInputFile = Pick<ResponseInputFile, 'type'> & { filename: string; file_data: string };
export type ResponsesUserContent = Pick<ResponseInputText, 'type' | 'text'> | ResponsesInputImage | ResponsesInputFile;

/** A user message with attachments: a content list instead of a string. */
export type ResponsesUserMessage = { role: 'user'; content: ResponsesUserContent[] };

/** No item `id`: ids must exist server-side unless store:false, and replayed calls never do. */
export type ResponsesFunctionCall = Pick<ResponseFunctionToolCall, 'type' | 'call_id' | 'name' | 'arguments'>;

/** A tool answer with images: `input_text`, then each image as a base64 `data:` URL. */
export type ResponsesFunctionCallOutputContent =
  | Pick<ResponseInputTextContent, 'type' | 'text'>
  | (Pick<ResponseInputImageContent, 'type'> & { image_url: string });

export type ResponsesFunctionCallOutput = Pick<ResponseInputItem.FunctionCallOutput, 'type' | 'call_id'> & {
  output: string | ResponsesFunctionCallOutputContent[];
};

/** A reasoning item as the provider sent it, replayed verbatim with its `encrypted_content`. */
export type ResponsesReasoningItem = ResponseReasoningItem & { encrypted_content: string };

export type ResponsesItem = ResponsesMessage | ResponsesUserMessage | ResponsesFunctionCall | ResponsesFunctionCallOutput | ResponsesReasoningItem;

export type ResponsesTool = Pick<FunctionTool, 'type' | 'name' | 'description' | 'strict'> & {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: false;
};

export interface OpenAiResponsesBody {
  readonly model: string;
  readonly instructions: string;
  readonly input: ResponsesItem[];
  readonly tools?: ResponsesTool[];
  readonly reasoning?: ResponsesReasoningFields['reasoning'];
  readonly max_output_tokens: number;
  readonly store: false;
  readonly include: ResponseIncludable[];
  readonly prompt_cache_key: string;
  readonly stream: true;
}

/** Compile-time proof that the SDK accepts what the converter builds: `Holds` rejects `false`. */
type Holds<Claim extends true> = Claim;
export type OpenAiResponsesBodyIsSdkParams = Holds<OpenAiResponsesBody extends ResponseCreateParamsStreaming ? true : false>;
