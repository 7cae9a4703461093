/**
 * The request body the Anthropic Messages converter builds, narrowed from the SDK's own parameter types to the
 * blocks a replay writes, so a misspelt field or block type fails to compile.
 * https://docs.anthropic.com/en/api/messages
 */
import type {
  Base64ImageSource,
  Base64PDFSource,
  DocumentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  RedactedThinkingBlockParam,
  OutputConfig,
  TextBlockParam,
  ThinkingBlockParam,
  ThinkingConfigAdaptive,
  ThinkingConfigDisabled,
  ThinkingConfigEnabled,
  Tool,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages';

/** Signed thinking, replayed verbatim from what the provider sent. */
export type AnthropicThinkingBlock = ThinkingBlockParam | RedactedThinkingBlockParam;

/** An attached image, always inline base64. */
export type AnthropicImageBlock = ImageBlockParam & { source: Base64ImageSource };
/** An attached PDF, always inline base64, titled with its file name. */
export type AnthropicDocumentBlock = DocumentBlockParam & { source: Base64PDFSource; title: string };

export type AnthropicBlock = TextBlockParam | AnthropicThinkingBlock | ToolUseBlockParam | ToolResultBlockParam | AnthropicImageBlock | AnthropicDocumentBlock;

/** Content is always a block list here (the SDK also allows a bare string), so adjacent messages can merge. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

export type AnthropicTool = Required<Pick<Tool, 'name' | 'description' | 'input_schema'>>;

export interface AnthropicMessagesBody {
  readonly model: string;
  readonly max_tokens: number;
  readonly system: TextBlockParam[];
  readonly tools?: AnthropicTool[];
  readonly messages: AnthropicMessage[];
  readonly thinking?: ThinkingConfigEnabled | ThinkingConfigAdaptive | ThinkingConfigDisabled;
  readonly output_config?: Required<Pick<OutputConfig, 'effort'>>;
  readonly stream: true;
}

/** Compile-time proof that the SDK accepts what the converter builds: `Holds` rejects `false`. */
type Holds<Claim extends true> = Claim;
export type AnthropicBodyIsSdkParams = Holds<AnthropicMessagesBody extends MessageCreateParamsStreaming ? true : false>;
