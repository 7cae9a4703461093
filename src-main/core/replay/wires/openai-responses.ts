/**
 * Neutral replay → OpenAI Responses request body (codex, grok). Nothing lives at the provider: store:false, no
 * previous_response_id, every request rebuilt from rows.
 * https://platform.openai.com/docs/api-reference/responses/create
 */
import { declaredName, sanitiseResponsesCallId } from '../call-shaping';
import type { ReplayRequest, ReplayTurn, ReplayWarning, TurnPlacement, WireRequest } from '../types';
import { answerText, assistantParts, opaqueBlocks, ownReasoning, renderTurns } from './shared';

type ResponsesItem = Record<string, unknown>;

/**
 * Reasoning items replay only to the same provider and model, and only with encrypted_content: with store:false the
 * provider cannot look an item up by id.
 */
function reasoningItems(turn: ReplayTurn, request: ReplayRequest): ResponsesItem[] {
  return opaqueBlocks(ownReasoning(turn, request)).filter(
    (block): block is ResponsesItem =>
      typeof block === 'object' && block !== null && (block as ResponsesItem).type === 'reasoning' && typeof (block as ResponsesItem).encrypted_content === 'string',
  );
}

function assistantItems(turn: ReplayTurn, placement: TurnPlacement, request: ReplayRequest, warnings: ReplayWarning[]): ResponsesItem[] {
  const live = placement === 'live';
  const { native, recordLine } = assistantParts(turn, request, warnings);
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

export function convertToOpenAiResponsesInput(request: ReplayRequest): WireRequest {
  const warnings: ReplayWarning[] = [];
  const input = renderTurns<ResponsesItem>(request.turns, {
    userText: (text) => ({ role: 'user', content: text }),
    assistant: (turn, placement) => assistantItems(turn, placement, request, warnings),
  }, request.live);
  const body: Record<string, unknown> = { model: request.model, instructions: request.system, input };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      strict: false,
    }));
  }
  if (request.reasoningLevel !== 'off') body.reasoning = { effort: request.reasoningLevel, summary: 'auto' };
  body.max_output_tokens = request.maxOutputTokens;
  body.store = false;
  body.include = ['reasoning.encrypted_content'];
  body.prompt_cache_key = request.cacheKey;
  body.stream = true;
  return { body, warnings };
}
