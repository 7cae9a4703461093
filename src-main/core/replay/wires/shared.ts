/**
 * Pieces every converter shares: how an assistant turn splits into native calls and labelled records, and where
 * reasoning may go.
 */
import { BRAIN_IDS, BRAINS, type BrainId, type WireId } from '../../../../src-shared/brains';
import { wireReasoning, type WireReasoningFields } from '../../../../src-shared/reasoning';
import { MAX_REPLAYED_CALLS, partitionCalls, withImageStandIns } from '../call-shaping';
import {
  systemLineLabel,
  type LiveTurn,
  type ReplayCall,
  type ReplayImage,
  type ReplayReasoning,
  type ReplayRequest,
  type ReplayTurn,
  type ReplayWarning,
  type TurnPlacement,
} from '../types';
import type { FunctionToolDeclaration } from './chat-completions-types';

export interface AssistantParts {
  readonly native: ReplayCall[];
  /** A labelled system line standing for calls that cannot replay natively, or null. */
  readonly recordLine: string | null;
}

/** "1 call", "8 earlier calls". */
function callCount(count: number, adjective: string): string {
  return `${count} ${adjective === '' ? '' : `${adjective} `}call${count === 1 ? '' : 's'}`;
}

export function assistantParts(turn: ReplayTurn, placement: TurnPlacement, request: ReplayRequest, warnings: ReplayWarning[]): AssistantParts {
  const { native, records, dropped } = partitionCalls(turn, request.tools, placement);
  const lines = [...records];
  if (dropped > 0) {
    lines.unshift(`[System line, tool record: ${callCount(dropped, 'earlier')} of this reply ${dropped === 1 ? 'is' : 'are'} not shown; the last ${MAX_REPLAYED_CALLS} follow.]`);
    warnings.push({ messageId: turn.messageId, message: `${callCount(dropped, 'older')} of this reply ${dropped === 1 ? 'was' : 'were'} left out of the replay.` });
  }
  if (records.length > 0) {
    warnings.push({ messageId: turn.messageId, message: `${callCount(records.length, '')} to tools not offered now replay${records.length === 1 ? 's' : ''} as text.` });
  }
  return { native, recordLine: lines.length > 0 ? lines.join('\n') : null };
}

/** Put after a reply that another reply follows (a Retry after a stopped reply), so neither reads as the other. */
export const NEXT_REPLY_LINE = `${systemLineLabel('notice')}\nThe reply above ended there; another reply follows.`;

export function systemLineText(turn: ReplayTurn): string {
  return `${systemLineLabel(turn.kind)}\n${turn.text}`;
}

/** Whose reasoning a wire may be sent: never another brain's, and per wire only under the conditions below. */
export interface ReasoningReplayRule {
  /**
   * Only the very model that wrote it (the provider checks a signature or decrypts an item per model), or any model
   * of the same brain (plain text the brain reads back).
   */
  readonly sameModel: boolean;
  /** Only while this turn's reasoning level is not `off`. */
  readonly onlyWhileReasoning: boolean;
  /** What replays: the provider's opaque carriers (signatures, encrypted items), or the readable text. */
  readonly carries: 'opaque' | 'text';
}

export const REASONING_REPLAY: Readonly<Record<WireId, ReasoningReplayRule>> = {
  'anthropic-messages': { sameModel: true, onlyWhileReasoning: true, carries: 'opaque' },
  'openai-responses': { sameModel: true, onlyWhileReasoning: true, carries: 'opaque' },
  'gemini-generate-content': { sameModel: true, onlyWhileReasoning: true, carries: 'opaque' },
  'chat-completions': { sameModel: false, onlyWhileReasoning: true, carries: 'text' },
  'ollama-chat': { sameModel: false, onlyWhileReasoning: false, carries: 'text' },
};

/** A turn's reasoning if `wire`'s rule lets this request see it; another brain's reasoning never replays. */
export function replayableReasoning(wire: WireId, turn: ReplayTurn, request: ReplayRequest): ReplayReasoning | undefined {
  const reasoning = turn.reasoning;
  const rule = REASONING_REPLAY[wire];
  if (!reasoning || reasoning.brain !== request.brain) return undefined;
  if (rule.sameModel && reasoning.model !== request.model) return undefined;
  if (rule.onlyWhileReasoning && request.reasoningLevel === 'off') return undefined;
  if (rule.carries === 'text' && reasoning.text.length === 0) return undefined;
  return reasoning;
}

/**
 * The request fields that say this request's reasoning level to its model on `wire` (src-shared/reasoning.ts). A
 * request's brain decides its wire; a converter handed another brain's request speaks as its wire's own brain would.
 */
export function reasoningFields<Wire extends WireId>(wire: Wire, request: ReplayRequest): WireReasoningFields[Wire] {
  const brain = BRAINS[request.brain].wire === wire ? request.brain : BRAIN_IDS.find((candidate) => BRAINS[candidate].wire === wire);
  if (brain === undefined) throw new Error(`No brain speaks ${wire}.`);
  const reasoning = wireReasoning(brain, request.model, request.reasoningLevel);
  if (reasoning.wire !== wire) throw new Error(`The reasoning table says ${brain}'s ${request.model} on ${reasoning.wire}, not ${wire}.`);
  return reasoning.fields as WireReasoningFields[Wire];
}

export function opaqueBlocks(reasoning: ReplayTurn['reasoning'] | undefined): unknown[] {
  const blocks = (reasoning?.opaque as { blocks?: unknown } | null | undefined)?.blocks;
  return Array.isArray(blocks) ? blocks : [];
}

/**
 * The brains that take images inside a tool result, the image types each takes, and (where it varies) which models.
 * The others get a labelled stand-in: GLM's Anthropic-compatible and xAI's Responses endpoints document no image in
 * a tool result, and Chat Completions' `tool` messages and Ollama's are text.
 */
interface ToolResultImageRule {
  readonly mimeTypes: readonly string[];
  readonly models?: RegExp;
}

export const TOOL_RESULT_IMAGES: Readonly<Partial<Record<BrainId, ToolResultImageRule>>> = {
  // Anthropic: `tool_result.content` may hold `image` blocks (base64 source) of these four types.
  claude: { mimeTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] },
  // OpenAI Responses: `function_call_output.output` may be a list of `input_text` and `input_image` items.
  codex: { mimeTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] },
  // Gemini: multimodal function responses (`functionResponse.parts[].inlineData`) are a Gemini 3 feature.
  gemini: { mimeTypes: ['image/png', 'image/jpeg', 'image/webp'], models: /^gemini-3/ },
};

/**
 * Anthropic rejects an image whose base64 string is longer than 5 MB, the smallest limit of the three: one limit for
 * all keeps a request valid on every wire that shows images.
 */
export const MAX_SHOWN_IMAGE_BASE64_CHARS = 5 * 1024 * 1024;

export interface ShownImage {
  readonly mimeType: string;
  /** Base64. */
  readonly data: string;
}

export interface ToolAnswer {
  /** The answer's text with a labelled stand-in for each image not shown; may be empty when every image is shown. */
  readonly text: string;
  readonly images: readonly ShownImage[];
}

function showsImage(request: ReplayRequest, image: ReplayImage): image is ReplayImage & ShownImage {
  const rule = TOOL_RESULT_IMAGES[request.brain];
  if (image.data === undefined || rule === undefined) return false;
  if (rule.models !== undefined && !rule.models.test(request.model)) return false;
  return rule.mimeTypes.includes(image.mimeType) && image.data.length <= MAX_SHOWN_IMAGE_BASE64_CHARS;
}

/** A call's answer for a wire that takes images in tool results: the images this request shows, and the text. */
export function toolAnswer(call: ReplayCall, request: ReplayRequest): ToolAnswer {
  const shown: ShownImage[] = [];
  const withheld: ReplayImage[] = [];
  for (const image of call.images ?? []) {
    if (showsImage(request, image)) shown.push({ mimeType: image.mimeType, data: image.data });
    else withheld.push(image);
  }
  return { text: withImageStandIns(call.answer, withheld), images: shown };
}

/** Tool answers as the wire's text, each image a labelled stand-in; an error is said to be one. */
export function answerText(call: ReplayCall): string {
  const text = withImageStandIns(call.answer, call.images ?? []);
  return call.isError ? `Error: ${text}` : text;
}

export interface TurnRenderers<Item> {
  /** A message on the user's side: the user's own words, or a labelled system line. */
  readonly userText: (text: string) => Item;
  /** A reply in the history, or one round of the reply being written (`live`). */
  readonly assistant: (turn: ReplayTurn, placement: TurnPlacement) => Item[];
}

/**
 * Each round of the reply being written as an assistant turn of its own: the words, reasoning and calls of one
 * request, under the reply's message id, brain and model (which decide where its reasoning and call ids may go).
 */
function liveRoundTurns(live: LiveTurn): ReplayTurn[] {
  return live.rounds.map((round): ReplayTurn => ({
    messageId: live.messageId,
    role: 'assistant',
    kind: 'chat',
    text: round.text,
    calls: round.calls,
    brain: live.brain,
    model: live.model,
    ...(round.reasoning ? { reasoning: round.reasoning } : {}),
  }));
}

/**
 * Every wire walks the turns the same way, the live reply last, one assistant message per round as the provider
 * streamed it; only the shape of each item differs.
 */
export function renderTurns<Item>(turns: readonly ReplayTurn[], renderers: TurnRenderers<Item>, live?: LiveTurn): Item[] {
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
  // A request never ends on a finished reply (a Retry after a stopped one): Anthropic reads that as a prefill to
  // continue ("This model does not support assistant message prefill. The conversation must end with a user
  // message."), and every brain should write a new reply, not extend the old one.
  if (turns.at(-1)?.role === 'assistant') items.push(renderers.userText(NEXT_REPLY_LINE));
  if (live !== undefined) {
    for (const round of liveRoundTurns(live)) items.push(...renderers.assistant(round, 'live'));
  }
  return items;
}

/** The `{type: "function", function: {…}}` tool declaration Chat Completions uses, and Ollama's /api/chat copies. */
export function functionToolDeclarations(tools: ReplayRequest['tools']): FunctionToolDeclaration[] {
  return tools.map((tool): FunctionToolDeclaration => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}
