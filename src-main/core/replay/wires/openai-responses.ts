/**
 * Neutral replay → OpenAI Responses request body (codex, grok). Nothing lives at the provider: store:false, no
 * previous_response_id, every request rebuilt from rows.
 * https://platform.openai.com/docs/api-reference/responses/create
 */
import { declaredName, sanitiseResponsesCallId } from '../call-shaping';
import { inWrittenShape, type ReasoningPlace, type ReplayCall, type ReplayRequest, type ReplayTurn, type ReplayWarning, type TurnPlacement, type WireRequest } from '../types';
import type { OpenAiResponsesBody, ResponsesFunctionCallOutput, ResponsesItem, ResponsesReasoningItem, ResponsesUserContent } from './openai-responses-types';
import {
  assistantParts,
  attachmentParts,
  dataUrl,
  opaqueBlocks,
  planAttachments,
  reasoningFields,
  renderTurns,
  replayableReasoning,
  toolAnswer,
  type AttachmentPart,
} from './shared';

/** An attachment as the Responses API takes it: `input_image` or `input_file` with a base64 data URL, or `input_text`. */
function attachmentContent(part: AttachmentPart): ResponsesUserContent {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'image':
      return { type: 'input_image', image_url: dataUrl(part.mediaType, part.data), detail: 'auto' };
    case 'pdf':
      return { type: 'input_file', filename: part.name, file_data: dataUrl('application/pdf', part.data) };
    default: {
      const unknownPart: never = part;
      throw new Error(`Unknown attachment part ${String(unknownPart)}`);
    }
  }
}

/** A reasoning item this request may carry, and what it stood before when the reply streamed (undefined: not recorded). */
export interface PlacedReasoningItem {
  readonly item: ResponsesReasoningItem;
  readonly place: ReasoningPlace | undefined;
}

/**
 * Reasoning items replay only to the same provider and model, and only with encrypted_content: with store:false the
 * provider cannot look an item up by id. The item goes back exactly as received; its place is stored beside it.
 */
function reasoningItems(turn: ReplayTurn, request: ReplayRequest): PlacedReasoningItem[] {
  const reasoning = replayableReasoning('openai-responses', turn, request);
  const blocks = opaqueBlocks(reasoning);
  const places = opaquePlaces(reasoning);
  return blocks.flatMap((block, index) => (isEncryptedReasoningItem(block) ? [{ item: block, place: places[index] }] : []));
}

function isEncryptedReasoningItem(block: unknown): block is ResponsesReasoningItem {
  if (typeof block !== 'object' || block === null) return false;
  const { type, encrypted_content: encryptedContent } = block as { type?: unknown; encrypted_content?: unknown };
  return type === 'reasoning' && typeof encryptedContent === 'string';
}

/** The stored places beside the blocks, one per block; rows written before places were recorded have none. */
function opaquePlaces(reasoning: ReplayTurn['reasoning'] | undefined): (ReasoningPlace | undefined)[] {
  const places = (reasoning?.opaque as { places?: unknown } | null | undefined)?.places;
  return Array.isArray(places) ? places.map((place) => (isReasoningPlace(place) ? place : undefined)) : [];
}

function isReasoningPlace(value: unknown): value is ReasoningPlace {
  if (typeof value !== 'object' || value === null) return false;
  const { before, providerCallId } = value as { before?: unknown; providerCallId?: unknown };
  return before === 'words' || before === 'other' || (before === 'call' && typeof providerCallId === 'string');
}

/**
 * Puts each reasoning item right before the item it preceded when the reply streamed ("reasoning items replay in place,
 * each before the call or message that followed it"): before the function_call of the call it stood before
 * (`calls` maps the replayed call_ids back to the provider's), or before the assistant's words. An item stored without
 * a place goes first, as such rows always replayed. An item whose call or words do not replay goes nowhere: OpenAI
 * refuses a reasoning item out of place with "Item 'rs_…' of type 'reasoning' was provided without its required
 * following item.". Works on any stretch of a reply: its items, its reasoning and its calls.
 */
export function placeReasoningItems(items: readonly ResponsesItem[], reasoning: readonly PlacedReasoningItem[], calls: readonly ReplayCall[]): ResponsesItem[] {
  const providerCallIds = new Map<string, string>();
  for (const call of calls) {
    if (call.providerCallId !== undefined) providerCallIds.set(sanitiseResponsesCallId(call.callId), call.providerCallId);
  }
  let waiting = reasoning.filter((placed) => placed.place !== undefined);
  const takeBefore = (matches: (place: ReasoningPlace) => boolean): ResponsesItem[] => {
    const taken = waiting.filter((placed) => placed.place !== undefined && matches(placed.place));
    waiting = waiting.filter((placed) => !taken.includes(placed));
    return taken.map((placed) => placed.item);
  };
  const placed: ResponsesItem[] = reasoning.filter((unplaced) => unplaced.place === undefined).map((unplaced) => unplaced.item);
  for (const item of items) {
    if ('type' in item && item.type === 'function_call') {
      const providerCallId = providerCallIds.get(item.call_id);
      placed.push(...takeBefore((place) => place.before === 'call' && place.providerCallId === providerCallId));
    } else if ('role' in item && item.role === 'assistant') {
      placed.push(...takeBefore((place) => place.before === 'words'));
    }
    placed.push(item);
  }
  return placed;
}

/** The answer as text, or, when this brain is shown images, as `input_text` and `input_image` items. */
function functionCallOutput(call: ReplayCall, request: ReplayRequest): ResponsesFunctionCallOutput['output'] {
  const { text, images } = toolAnswer(call, request);
  const answer = call.isError ? `Error: ${text}` : text;
  if (images.length === 0) return answer;
  return [
    ...(answer.length > 0 ? [{ type: 'input_text' as const, text: answer }] : []),
    ...images.map((image) => ({ type: 'input_image' as const, image_url: `data:${image.mimeType};base64,${image.data}` })),
  ];
}

function assistantItems(turn: ReplayTurn, placement: TurnPlacement, request: ReplayRequest, warnings: ReplayWarning[]): ResponsesItem[] {
  const asWritten = inWrittenShape(placement);
  const { native, recordLine } = assistantParts(turn, placement, request, warnings);
  const items: ResponsesItem[] = [];
  const words: ResponsesItem[] = turn.text.length > 0 ? [{ role: 'assistant', content: turn.text }] : [];
  if (asWritten) items.push(...words);
  for (const call of native) {
    // No item `id`: ids must exist server-side unless store:false, and replayed calls never do.
    items.push({ type: 'function_call', call_id: sanitiseResponsesCallId(call.callId), name: declaredName(call, request.tools), arguments: JSON.stringify(call.input) });
  }
  for (const call of native) {
    items.push({ type: 'function_call_output', call_id: sanitiseResponsesCallId(call.callId), output: functionCallOutput(call, request) });
  }
  if (recordLine !== null) items.push({ role: 'user', content: recordLine });
  if (!asWritten) items.push(...words);
  return placeReasoningItems(items, reasoningItems(turn, request), native);
}

export function convertToOpenAiResponsesInput(request: ReplayRequest): WireRequest<OpenAiResponsesBody> {
  const warnings: ReplayWarning[] = [];
  const plan = planAttachments(request, 'openai-responses');
  const input = renderTurns<ResponsesItem>(request.turns, {
    userText: (text) => ({ role: 'user', content: text }),
    userWithAttachments: (turn) => ({
      role: 'user',
      content: [
        ...attachmentParts(turn, plan, request, warnings).map(attachmentContent),
        ...(turn.text.length > 0 ? [{ type: 'input_text' as const, text: turn.text }] : []),
      ],
    }),
    assistant: (turn, placement) => assistantItems(turn, placement, request, warnings),
  }, request.live);
  const body: OpenAiResponsesBody = {
    model: request.model,
    instructions: request.system,
    input,
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            name: tool.name,
            description: tool.description,
            parameters: tool.inputSchema,
            strict: false as const,
          })),
        }
      : {}),
    // "Off" is the lowest effort the model has, never nothing: a model that reasons by default would reason.
    ...reasoningFields('openai-responses', request),
    max_output_tokens: request.maxOutputTokens,
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: request.cacheKey,
    stream: true,
  };
  return { body, warnings };
}
