/**
 * Neutral replay → OpenAI Responses request body (codex, grok). Nothing lives at the provider: store:false, no
 * previous_response_id, every request rebuilt from rows.
 * https://platform.openai.com/docs/api-reference/responses/create
 */
import { declaredName, sanitiseResponsesCallId } from '../call-shaping';
import type { ReplayRequest, ReplayTurn, ReplayWarning, TurnPlacement, WireRequest } from '../types';
import type { OpenAiResponsesBody, ResponsesItem, ResponsesReasoningItem } from './openai-responses-types';
import { answerText, assistantParts, opaqueBlocks, renderTurns, replayableReasoning } from './shared';

/**
 * Reasoning items replay only to the same provider and model, and only with encrypted_content: with store:false the
 * provider cannot look an item up by id.
 */
function reasoningItems(turn: ReplayTurn, request: ReplayRequest): ResponsesReasoningItem[] {
  return opaqueBlocks(replayableReasoning('openai-responses', turn, request)).filter(isEncryptedReasoningItem);
}

function isEncryptedReasoningItem(block: unknown): block is ResponsesReasoningItem {
  if (typeof block !== 'object' || block === null) return false;
  const { type, encrypted_content: encryptedContent } = block as { type?: unknown; encrypted_content?: unknown };
  return type === 'reasoning' && typeof encryptedContent === 'string';
}

function assistantItems(turn: ReplayTurn, placement: TurnPlacement, request: ReplayRequest, warnings: ReplayWarning[]): ResponsesItem[] {
  const live = placement === 'live';
  const { native, recordLine } = assistantParts(turn, placement, request, warnings);
  const items: ResponsesItem[] = [...reasoningItems(turn, request)];
  const words: ResponsesItem[] = turn.text.length > 0 ? [{ role: 'assistant', content: turn.text }] : [];
  if (live) items.push(...words);
  for (const call of native) {
    // No item `id`: ids must exist server-side unless store:false, and replayed calls never do.
    items.push({ type: 'function_call', call_id: sanitiseResponsesCallId(call.callId), name: declaredName(call, request.tools), arguments: JSON.stringify(call.input) });
  }
  for (const call of native) {
    items.push({ type: 'function_call_output', call_id: sanitiseResponsesCallId(call.callId), output: answerText(call) });
  }
  if (recordLine !== null) items.push({ role: 'user', content: recordLine });
  if (!live) items.push(...words);
  return items;
}

export function convertToOpenAiResponsesInput(request: ReplayRequest): WireRequest<OpenAiResponsesBody> {
  const warnings: ReplayWarning[] = [];
  const input = renderTurns<ResponsesItem>(request.turns, {
    userText: (text) => ({ role: 'user', content: text }),
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
    ...(request.reasoningLevel === 'off' ? {} : { reasoning: { effort: request.reasoningLevel, summary: 'auto' as const } }),
    max_output_tokens: request.maxOutputTokens,
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: request.cacheKey,
    stream: true,
  };
  return { body, warnings };
}
