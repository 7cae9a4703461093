/**
 * Neutral replay → Chat Completions request body (kimi).
 */
import { systemLineLabel, type ReplayRequest, type ReplayTurn, type WireRequest } from '../types';

type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; reasoning_content?: string };

/** Kimi's own reasoning goes back to Kimi on the same model; nobody else's reasoning is ever turned into Kimi's. */
function ownReasoningText(turn: ReplayTurn, request: ReplayRequest): string | null {
  const reasoning = turn.reasoning;
  if (!reasoning || request.reasoningLevel === 'off') return null;
  if (reasoning.brain !== request.brain || reasoning.model !== request.model) return null;
  return reasoning.text.length > 0 ? reasoning.text : null;
}

function toMessage(turn: ReplayTurn, request: ReplayRequest): ChatMessage {
  switch (turn.role) {
    case 'user':
      return { role: 'user', content: turn.text };
    case 'system-line':
      return { role: 'user', content: `${systemLineLabel(turn.kind)}\n${turn.text}` };
    case 'assistant': {
      const reasoningText = ownReasoningText(turn, request);
      return reasoningText === null
        ? { role: 'assistant', content: turn.text }
        : { role: 'assistant', content: turn.text, reasoning_content: reasoningText };
    }
    default: {
      const unreachable: never = turn.role;
      throw new Error(`Unknown replay role ${String(unreachable)}`);
    }
  }
}

export function convertToChatCompletionsMessages(request: ReplayRequest): WireRequest {
  const messages: ChatMessage[] = [{ role: 'system', content: request.system }];
  for (const turn of request.turns) messages.push(toMessage(turn, request));
  return {
    body: {
      model: request.model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    },
    warnings: [],
  };
}
