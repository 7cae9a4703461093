/**
 * Neutral replay → Anthropic Messages request body (claude, glm).
 */
import { systemLineLabel, type ReplayRequest, type ReplayTurn, type ReplayWarning, type WireRequest } from '../types';

type AnthropicTextBlock = { type: 'text'; text: string; cache_control?: { type: 'ephemeral' } };
type AnthropicBlock = AnthropicTextBlock | Record<string, unknown>;
interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

/** Thinking budgets per reasoning level. Anthropic requires max_tokens to exceed budget_tokens. */
const THINKING_BUDGET = { low: 2048, medium: 8192, high: 24576 } as const;

function isThinkingBlock(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return type === 'thinking' || type === 'redacted_thinking';
}

/**
 * Thinking blocks go back verbatim, and only to the model that signed them: any other model answers
 * "Invalid `signature` in `thinking` block".
 */
function replayableThinking(turn: ReplayTurn, request: ReplayRequest): AnthropicBlock[] {
  const reasoning = turn.reasoning;
  if (!reasoning || request.reasoningLevel === 'off') return [];
  if (reasoning.brain !== request.brain || reasoning.model !== request.model) return [];
  const blocks = (reasoning.opaque as { blocks?: unknown } | null)?.blocks;
  return Array.isArray(blocks) ? blocks.filter(isThinkingBlock) : [];
}

function toMessage(turn: ReplayTurn, request: ReplayRequest): AnthropicMessage {
  switch (turn.role) {
    case 'user':
      return { role: 'user', content: [{ type: 'text', text: turn.text }] };
    case 'system-line':
      return { role: 'user', content: [{ type: 'text', text: `${systemLineLabel(turn.kind)}\n${turn.text}` }] };
    case 'assistant':
      return { role: 'assistant', content: [...replayableThinking(turn, request), { type: 'text', text: turn.text }] };
    default: {
      const unreachable: never = turn.role;
      throw new Error(`Unknown replay role ${String(unreachable)}`);
    }
  }
}

export function convertToAnthropicMessages(request: ReplayRequest): WireRequest {
  const warnings: ReplayWarning[] = [];
  const messages: AnthropicMessage[] = [];
  for (const turn of request.turns) {
    const message = toMessage(turn, request);
    const previous = messages.at(-1);
    // Anthropic requires alternating roles: adjacent same-role content merges into one message.
    if (previous && previous.role === message.role) previous.content.push(...message.content);
    else messages.push(message);
  }
  const first = messages[0];
  if (first && first.role !== 'user') {
    // The first message must come from the user.
    messages.unshift({ role: 'user', content: [{ type: 'text', text: '[The conversation so far begins with a reply.]' }] });
    warnings.push({ messageId: request.turns[0]?.messageId ?? '', message: 'The replay began with a reply; a user line was added before it.' });
  }
  // Prompt caching: one breakpoint on the system prompt, one on the newest block, so the next turn finds this prefix.
  const lastBlock = messages.at(-1)?.content.at(-1);
  if (lastBlock) lastBlock.cache_control = { type: 'ephemeral' };

  const body: Record<string, unknown> = {
    model: request.model,
    max_tokens: request.maxOutputTokens,
    system: [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }],
    messages,
  };
  if (request.reasoningLevel !== 'off') {
    body.thinking = { type: 'enabled', budget_tokens: THINKING_BUDGET[request.reasoningLevel] };
  }
  body.stream = true;
  return { body, warnings };
}
