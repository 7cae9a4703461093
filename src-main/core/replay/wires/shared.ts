/**
 * Pieces every converter shares: how an assistant turn splits into native calls and labelled records, and where
 * reasoning may go.
 */
import { MAX_REPLAYED_CALLS, partitionCalls } from '../call-shaping';
import { systemLineLabel, type ReplayCall, type ReplayRequest, type ReplayTurn, type ReplayWarning, type TurnPlacement } from '../types';

export interface AssistantParts {
  readonly native: ReplayCall[];
  /** A labelled system line standing for calls that cannot replay natively, or null. */
  readonly recordLine: string | null;
}

export function assistantParts(turn: ReplayTurn, request: ReplayRequest, warnings: ReplayWarning[]): AssistantParts {
  const { native, records, dropped } = partitionCalls(turn, request.tools);
  const lines = [...records];
  if (dropped > 0) {
    lines.unshift(`[System line, tool record: ${dropped} earlier calls of this reply are not shown; the last ${MAX_REPLAYED_CALLS} follow.]`);
    warnings.push({ messageId: turn.messageId, message: `${dropped} older calls of this reply were left out of the replay.` });
  }
  if (records.length > 0) {
    warnings.push({ messageId: turn.messageId, message: `${records.length} calls to tools not offered now replay as text.` });
  }
  return { native, recordLine: lines.length > 0 ? lines.join('\n') : null };
}

export function systemLineText(turn: ReplayTurn): string {
  return `${systemLineLabel(turn.kind)}\n${turn.text}`;
}

/** Reasoning the same brain and model produced: the only reasoning a signature-checking provider may see. */
export function ownReasoning(turn: ReplayTurn, request: ReplayRequest): ReplayTurn['reasoning'] | undefined {
  const reasoning = turn.reasoning;
  if (!reasoning || request.reasoningLevel === 'off') return undefined;
  return reasoning.brain === request.brain && reasoning.model === request.model ? reasoning : undefined;
}

export function opaqueBlocks(reasoning: ReplayTurn['reasoning'] | undefined): unknown[] {
  const blocks = (reasoning?.opaque as { blocks?: unknown } | null | undefined)?.blocks;
  return Array.isArray(blocks) ? blocks : [];
}

/** Tool answers as the wire's text; an error is said to be one. */
export function answerText(call: ReplayCall): string {
  return call.isError ? `Error: ${call.answer}` : call.answer;
}

export interface TurnRenderers<Item> {
  /** A message on the user's side: the user's own words, or a labelled system line. */
  readonly userText: (text: string) => Item;
  readonly assistant: (turn: ReplayTurn, placement: TurnPlacement) => Item[];
}

/** Every wire walks the turns the same way, the live reply last; only the shape of each item differs. */
export function renderTurns<Item>(turns: readonly ReplayTurn[], renderers: TurnRenderers<Item>, live?: ReplayTurn): Item[] {
  const items: Item[] = [];
  for (const turn of turns) {
    switch (turn.role) {
      case 'user':
        items.push(renderers.userText(turn.text));
        break;
      case 'system-line':
        items.push(renderers.userText(systemLineText(turn)));
        break;
      case 'assistant':
        items.push(...renderers.assistant(turn, 'history'));
        break;
      default: {
        const unreachable: never = turn.role;
        throw new Error(`Unknown replay role ${String(unreachable)}`);
      }
    }
  }
  if (live !== undefined) items.push(...renderers.assistant(live, 'live'));
  return items;
}

/** The `{type: "function", function: {…}}` tool declaration Chat Completions uses, and Ollama's /api/chat copies. */
export function functionToolDeclarations(tools: ReplayRequest['tools']): Array<Record<string, unknown>> {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}
