/**
 * Neutral replay → Chat Completions request body (kimi).
 * https://platform.openai.com/docs/api-reference/chat/create and Moonshot's Kimi guide.
 */
import { declaredName } from '../call-shaping';
import { inWrittenShape, type ReplayCall, type ReplayRequest, type ReplayTurn, type ReplayWarning, type TurnPlacement, type WireRequest } from '../types';
import type { ChatCompletionsBody, ChatContentPart, ChatMessage } from './chat-completions-types';
import {
  answerText,
  assistantParts,
  attachmentParts,
  dataUrl,
  functionToolDeclarations,
  planAttachments,
  reasoningFields,
  renderTurns,
  replayableReasoning,
  type AttachmentPart,
} from './shared';

/**
 * An attachment as Chat Completions takes it: an `image_url` part with a base64 data URL, a `file` part for a PDF
 * (sent only to a model whose table entry takes PDFs; Kimi's does not), or a text part.
 */
function attachmentContent(part: AttachmentPart): ChatContentPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image_url', image_url: { url: dataUrl(part.mediaType, part.data) } };
    case 'pdf':
      return { type: 'file', file: { filename: part.name, file_data: dataUrl('application/pdf', part.data) } };
    default: {
      const unknownPart: never = part;
      throw new Error(`Unknown attachment part ${String(unknownPart)}`);
    }
  }
}

/**
 * Kimi with thinking on rejects an assistant message with tool_calls that lacks reasoning_content ("thinking is
 * enabled but reasoning_content is missing in assistant tool call message at index N"). Calls another brain made
 * carry this placeholder; another brain's reasoning is never passed off as Kimi's.
 */
export const FOREIGN_REASONING_PLACEHOLDER = '(These calls were made earlier in the conversation; no reasoning was recorded for them.)';

/** On unless switched off: a model sent no switch (Kimi K3) always thinks. */
function thinkingOn(request: ReplayRequest): boolean {
  return reasoningFields('chat-completions', request).thinking?.type !== 'disabled';
}

/** Kimi's own reasoning text goes back to Kimi; nobody else's. */
function ownReasoningText(turn: ReplayTurn, request: ReplayRequest): string | null {
  return replayableReasoning('chat-completions', turn, request)?.text ?? null;
}

/** Kimi's own call ids (`functions.NAME:IDX`) go back to Kimi unchanged; every other call gets its derived id. */
function callIdFor(call: ReplayCall, turn: ReplayTurn, request: ReplayRequest): string {
  return turn.brain === request.brain && call.providerCallId ? call.providerCallId : call.callId;
}

function assistantMessages(turn: ReplayTurn, placement: TurnPlacement, request: ReplayRequest, warnings: ReplayWarning[]): ChatMessage[] {
  const asWritten = inWrittenShape(placement);
  const { native, recordLine } = assistantParts(turn, placement, request, warnings);
  const reasoningText = ownReasoningText(turn, request);
  const messages: ChatMessage[] = [];
  if (native.length > 0) {
    const reasoningContent = thinkingOn(request) ? (reasoningText ?? FOREIGN_REASONING_PLACEHOLDER) : null;
    messages.push({
      role: 'assistant',
      // A live reply keeps its words with its calls; a finished one replays its calls first and its words after.
      content: asWritten && turn.text.length > 0 ? turn.text : null,
      ...(reasoningContent === null ? {} : { reasoning_content: reasoningContent }),
      tool_calls: native.map((call) => ({
        id: callIdFor(call, turn, request),
        type: 'function' as const,
        function: { name: declaredName(call, request.tools), arguments: JSON.stringify(call.input) },
      })),
    });
    for (const call of native) messages.push({ role: 'tool', tool_call_id: callIdFor(call, turn, request), content: answerText(call) });
  }
  const words: ChatMessage[] = [];
  if (turn.text.length > 0 && !(asWritten && native.length > 0)) {
    const reasoningHere = native.length === 0 ? reasoningText : null;
    words.push(reasoningHere === null ? { role: 'assistant', content: turn.text } : { role: 'assistant', content: turn.text, reasoning_content: reasoningHere });
  }
  const records: ChatMessage[] = recordLine === null ? [] : [{ role: 'user', content: recordLine }];
  // A live round's words come before the record of its calls: a request may not end on the assistant's words.
  messages.push(...(asWritten ? [...words, ...records] : [...records, ...words]));
  return messages;
}

export function convertToChatCompletionsMessages(request: ReplayRequest): WireRequest<ChatCompletionsBody> {
  const warnings: ReplayWarning[] = [];
  const plan = planAttachments(request, 'chat-completions');
  // An array literal, not push(...): spreading 100,000 messages as call arguments exceeds V8's argument limit.
  const messages: ChatMessage[] = [
    { role: 'system', content: request.system },
    ...renderTurns<ChatMessage>(request.turns, {
      userText: (text) => ({ role: 'user', content: text }),
      userWithAttachments: (turn) => ({
        role: 'user',
        content: [...attachmentParts(turn, plan, request, warnings).map(attachmentContent), ...(turn.text.length > 0 ? [{ type: 'text' as const, text: turn.text }] : [])],
      }),
      assistant: (turn, placement) => assistantMessages(turn, placement, request, warnings),
    }, request.live),
  ];
  const body: ChatCompletionsBody = {
    model: request.model,
    messages,
    ...(request.tools.length > 0 ? { tools: functionToolDeclarations(request.tools) } : {}),
    // Moonshot's output limit defaults to about 1,024 tokens, shared by reasoning and answer, unless the request sets one.
    max_completion_tokens: request.maxOutputTokens,
    // Kimi K2.5 and K2.6 think unless told not to; K2.6 keeps earlier turns' reasoning only with keep: "all".
    ...reasoningFields('chat-completions', request),
    stream: true,
    stream_options: { include_usage: true },
  };
  return { body, warnings };
}
