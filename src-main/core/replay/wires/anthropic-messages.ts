/**
 * Neutral replay → Anthropic Messages request body (claude, glm).
 * https://docs.anthropic.com/en/api/messages
 */
import { declaredName, sanitiseAnthropicId } from '../call-shaping';
import type { AnthropicReasoningFields } from '../../../../src-shared/reasoning';
import { inWrittenShape, systemLineLabel, type PromptCachePlan, type PromptCacheTtl, type ReplayCall, type ReplayRequest, type ReplayTurn, type ReplayWarning, type TurnPlacement, type WireRequest } from '../types';
import type { Base64ImageSource, CacheControlEphemeral, ImageBlockParam, TextBlockParam, ToolResultBlockParam, ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { AnthropicBlock, AnthropicMessage, AnthropicMessagesBody, AnthropicThinkingBlock, AnthropicTool } from './anthropic-messages-types';
import {
  assistantParts,
  attachmentParts,
  NEXT_REPLY_LINE,
  opaqueBlocks,
  planAttachments,
  reasoningFields,
  renderTurns,
  replayableReasoning,
  toolAnswer,
  type AttachmentPart,
} from './shared';

const EPHEMERAL = { type: 'ephemeral' } as const;
/** Anthropic: "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024". */
const MIN_THINKING_BUDGET = 1024;

/**
 * The level's fields within the reply's room: Anthropic refuses a budget that reaches max_tokens ("`max_tokens` must
 * be greater than `thinking.budget_tokens`."), so such a budget is cut to half the room; a room too small for the
 * least budget sends no thinking, leaving the model to its default.
 */
function fittedReasoning(fields: AnthropicReasoningFields, maxTokens: number): AnthropicReasoningFields {
  const thinking = fields.thinking;
  if (thinking?.type !== 'enabled' || thinking.budget_tokens < maxTokens) return fields;
  const budget = Math.floor(maxTokens / 2);
  if (budget >= MIN_THINKING_BUDGET) return { ...fields, thinking: { type: 'enabled', budget_tokens: budget } };
  const { thinking: _tooSmall, ...rest } = fields;
  return rest;
}

/** Separators Python's `str.isspace` counts as space and JavaScript's `trim` keeps. */
const PYTHON_ONLY_SPACES = '\u001c\u001d\u001e\u001f\u0085';

/** Stands for a user message of only blank space, which Anthropic would refuse as a text block. */
const BLANK_USER_LINE = `${systemLineLabel('notice')}\nThe user sent a message with no visible text.`;

/**
 * Anthropic rejects a text block without a visible character: "text content blocks must contain non-whitespace text".
 * Blank is taken broadly (what `trim` removes, and what Python counts as space too): leaving out a blank block loses
 * nothing, and sending one is a 400.
 */
function hasVisibleText(text: string): boolean {
  for (const character of text) if (character.trim() !== '' && !PYTHON_ONLY_SPACES.includes(character)) return true;
  return false;
}

/** A text block, or none for text Anthropic would refuse as blank. */
function textBlocks(text: string): TextBlockParam[] {
  return hasVisibleText(text) ? [{ type: 'text', text }] : [];
}

function isThinkingBlock(value: unknown): value is AnthropicThinkingBlock {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return type === 'thinking' || type === 'redacted_thinking';
}

/**
 * Thinking blocks go back verbatim, and only to the model that signed them: any other model answers
 * "Invalid `signature` in `thinking` block".
 */
function thinkingBlocks(turn: ReplayTurn, request: ReplayRequest): AnthropicThinkingBlock[] {
  return opaqueBlocks(replayableReasoning('anthropic-messages', turn, request)).filter(isThinkingBlock);
}

function toolUse(call: ReplayCall, request: ReplayRequest): ToolUseBlockParam {
  // Anthropic rejects tool_use ids outside ^[a-zA-Z0-9_-]+$; derived ids are used for every brain's calls.
  return { type: 'tool_use', id: sanitiseAnthropicId(call.callId), name: declaredName(call, request.tools), input: call.input };
}

function toolResult(call: ReplayCall, request: ReplayRequest): ToolResultBlockParam {
  const { text, images } = toolAnswer(call, request);
  // Text alone stays a string, as before images could come along, so earlier requests remain a cached prefix.
  const content: ToolResultBlockParam['content'] = images.length === 0
    ? text
    : [
        ...textBlocks(text),
        ...images.map((image): ImageBlockParam => ({
          type: 'image',
          // TOOL_RESULT_IMAGES shows Claude only the four types this field admits.
          source: { type: 'base64', media_type: image.mimeType as Base64ImageSource['media_type'], data: image.data },
        })),
      ];
  return {
    type: 'tool_result',
    tool_use_id: sanitiseAnthropicId(call.callId),
    content,
    ...(call.isError ? { is_error: true } : {}),
  };
}

function assistantMessages(turn: ReplayTurn, placement: TurnPlacement, request: ReplayRequest, warnings: ReplayWarning[]): AnthropicMessage[] {
  const asWritten = inWrittenShape(placement);
  const { native, recordLine } = assistantParts(turn, placement, request, warnings);
  const thinking = thinkingBlocks(turn, request);
  const text = textBlocks(turn.text);
  const messages: AnthropicMessage[] = [];
  if (native.length > 0) {
    // A live reply keeps the provider's own order (words, then calls); a finished one replays its calls first.
    const leading = asWritten ? text : [];
    messages.push({ role: 'assistant', content: [...thinking, ...leading, ...native.map((call) => toolUse(call, request))] });
    messages.push({ role: 'user', content: native.map((call) => toolResult(call, request)) });
  }
  const words: AnthropicMessage[] = text.length > 0 && !(asWritten && native.length > 0)
    ? [{ role: 'assistant', content: [...(native.length > 0 ? [] : thinking), ...text] }]
    : [];
  const records: AnthropicMessage[] = recordLine === null ? [] : [{ role: 'user', content: [{ type: 'text', text: recordLine }] }];
  // A live round's words come before the record of its calls: a request may not end on the assistant's words.
  messages.push(...(asWritten ? [...words, ...records] : [...records, ...words]));
  return messages;
}

/** An attachment as Anthropic takes it: an `image` or `document` block with base64 bytes, or a text block. */
function attachmentBlock(part: AttachmentPart): AnthropicBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } };
    case 'pdf':
      return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: part.data }, title: part.name };
    default: {
      const unknownPart: never = part;
      throw new Error(`Unknown attachment part ${String(unknownPart)}`);
    }
  }
}

/** Tool input schemas are JSON Schema objects (`type: "object"`), which the SDK types only at their top level. */
function jsonSchemaObject(schema: Record<string, unknown>): AnthropicTool['input_schema'] {
  return schema as AnthropicTool['input_schema'];
}

/**
 * Anthropic requires alternating roles, so adjacent same-role content merges into one message, except a reply holding
 * thinking after another reply (a stopped reply, then its retry): "If an assistant message contains any thinking
 * blocks, the first block must be thinking or redacted_thinking", and signed blocks may be neither moved nor left out
 * of the latest reply (nor of any reply inside a tool loop). That reply keeps a message of its own behind a labelled
 * line; Anthropic would merge two assistant messages in a row itself, and Anthropic-compatible servers refuse them.
 */
function appendMessage(messages: AnthropicMessage[], message: AnthropicMessage): void {
  const previous = messages.at(-1);
  if (!previous || previous.role !== message.role) messages.push(message);
  else if (message.role === 'assistant' && message.content.some(isThinkingBlock)) {
    messages.push({ role: 'user', content: [{ type: 'text', text: NEXT_REPLY_LINE }] }, message);
  } else previous.content.push(...message.content);
}

function isToolResultMessage(message: AnthropicMessage): boolean {
  return message.role === 'user' && message.content.length > 0 && message.content.every((block) => block.type === 'tool_result');
}

/** Anthropic takes at most four breakpoints a request, wherever they sit. */
const MAX_BREAKPOINTS = 4;

function cacheControl(ttl: PromptCacheTtl): CacheControlEphemeral {
  // The default lifetime goes unsaid, so a request keeps the bytes it had before a lifetime could be chosen.
  return ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : EPHEMERAL;
}

/**
 * The newest reply this model wrote in the history: the last request to this model ended right before that reply's
 * last round (or with the last of its calls' answers, when it wrote nothing after them), and that is where its cache
 * entry sits, however many blocks other brains' turns have added since.
 */
function lastReplyOfThisModel(request: ReplayRequest): string | undefined {
  for (let index = request.turns.length - 1; index >= 0; index -= 1) {
    const turn = request.turns[index]!;
    if (turn.role === 'assistant' && turn.brain === request.brain && turn.model === request.model) return turn.messageId;
  }
  return undefined;
}

/** Where that reply's last request ended: the block before the message it was answered with, or the last block. */
type RequestEnd = { readonly before: AnthropicBlock } | { readonly at: AnthropicBlock };

function requestEndOf(rendered: readonly AnthropicMessage[]): RequestEnd | undefined {
  const last = rendered.at(-1);
  const block = last?.role === 'assistant' ? last.content[0] : last?.content.at(-1);
  if (block === undefined) return undefined;
  return last!.role === 'assistant' ? { before: block } : { at: block };
}

/** A request ends on the user's side: the end is the last block of the user message right before that reply. */
function blockAt(messages: readonly AnthropicMessage[], end: RequestEnd | undefined): AnthropicBlock | undefined {
  if (end === undefined) return undefined;
  if ('at' in end) return end.at;
  const index = messages.findIndex((message) => message.content[0] === end.before);
  const previous = index > 0 ? messages[index - 1] : undefined;
  return previous?.role === 'user' ? previous.content.at(-1) : undefined;
}

/**
 * Cache breakpoints, at most four, by what each saves: the newest block (the entry the next request reads); right
 * before the newest assistant message (where the previous round of the reply being written ended, or the previous turn
 * to the same model); the end of the last request to this model (a breakpoint finds an earlier entry only 20 blocks
 * back, and the turns of other brains since then hold more); the system prompt, when long enough to be cached at all;
 * and right before the latest reply as a whole (a request to this model that failed before another brain answered).
 */
function placeCacheBreakpoints(messages: AnthropicMessage[], lastRequestEnd: AnthropicBlock | undefined, plan: PromptCachePlan): void {
  const last = messages.at(-1);
  if (!last) return;
  let newestAssistant = messages.length - 2;
  while (newestAssistant >= 0 && messages[newestAssistant]!.role !== 'assistant') newestAssistant -= 1;
  let replyStart = messages.length - 2;
  // Walk back over the latest reply: its assistant messages and the tool results between them.
  while (replyStart >= 0 && (messages[replyStart]!.role === 'assistant' || isToolResultMessage(messages[replyStart]!))) replyStart -= 1;
  const beforeReply = replyStart < messages.length - 2 && replyStart >= 0 ? messages[replyStart]!.content.at(-1) : undefined;
  const beforeNewest = newestAssistant > 0 ? messages[newestAssistant - 1]!.content.at(-1) : undefined;
  const room = MAX_BREAKPOINTS - (plan.cacheSystem ? 1 : 0);
  const marked = [...new Set([last.content.at(-1), beforeNewest, lastRequestEnd, beforeReply])]
    .filter((block): block is Exclude<AnthropicBlock, AnthropicThinkingBlock> => block !== undefined && !isThinkingBlock(block))
    .slice(0, room);
  for (const block of marked) block.cache_control = cacheControl(plan.ttl);
}

/** A request built without a plan (a preview of an old caller) caches the system prompt for five minutes, as before. */
const DEFAULT_CACHE_PLAN: PromptCachePlan = { cacheSystem: true, ttl: '5m' };

export function convertToAnthropicMessages(request: ReplayRequest): WireRequest<AnthropicMessagesBody> {
  const warnings: ReplayWarning[] = [];
  const messages: AnthropicMessage[] = [];
  const plan = planAttachments(request, 'anthropic-messages');
  const cachePlan = request.promptCache ?? DEFAULT_CACHE_PLAN;
  const lastReplyId = lastReplyOfThisModel(request);
  let lastRequestEnd: RequestEnd | undefined;
  const rendered = renderTurns<AnthropicMessage>(request.turns, {
    userText: (text) => ({ role: 'user', content: [{ type: 'text', text: hasVisibleText(text) ? text : BLANK_USER_LINE }] }),
    // Anthropic advises images and documents before the question about them.
    userWithAttachments: (turn) => ({
      role: 'user',
      content: [...attachmentParts(turn, plan, request, warnings).map(attachmentBlock), ...textBlocks(turn.text)],
    }),
    assistant: (turn, placement) => {
      const messagesOfTurn = assistantMessages(turn, placement, request, warnings);
      // Read as rendered: merging into a neighbour later may add blocks after a message's last one.
      if (turn.messageId === lastReplyId) lastRequestEnd = requestEndOf(messagesOfTurn) ?? lastRequestEnd;
      return messagesOfTurn;
    },
  }, request.live);
  for (const message of rendered) appendMessage(messages, message);
  const first = messages[0];
  if (first && first.role !== 'user') {
    // The first message must come from the user.
    messages.unshift({ role: 'user', content: [{ type: 'text', text: '[The conversation so far begins with a reply.]' }] });
    warnings.push({ messageId: request.turns[0]?.messageId ?? '', message: 'The replay began with a reply; a user line was added before it.' });
  }
  placeCacheBreakpoints(messages, blockAt(messages, lastRequestEnd), cachePlan);

  const body: AnthropicMessagesBody = {
    model: request.model,
    max_tokens: request.maxOutputTokens,
    system: [{ type: 'text', text: request.system, ...(cachePlan.cacheSystem ? { cache_control: cacheControl(cachePlan.ttl) } : {}) }],
    ...(request.tools.length > 0
      ? { tools: request.tools.map((tool): AnthropicTool => ({ name: tool.name, description: tool.description, input_schema: jsonSchemaObject(tool.inputSchema) })) }
      : {}),
    messages,
    // Budgeted thinking for older models, adaptive thinking with an effort for 4.6 and later (see src-shared/reasoning.ts).
    ...fittedReasoning(reasoningFields('anthropic-messages', request), request.maxOutputTokens),
    stream: true,
  };
  return { body, warnings };
}
