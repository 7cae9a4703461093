/**
 * Pieces every converter shares: how an assistant turn splits into native calls and labelled records, and where
 * reasoning may go.
 */
import {
  attachmentStandIn,
  imageDimensions,
  modelInputs,
  modelTakesAttachment,
  textAttachmentBlock,
  type ImageMediaType,
} from '../../../../src-shared/attachments';
import { BRAIN_IDS, BRAINS, type BrainId, type WireId } from '../../../../src-shared/brains';
import { wireReasoning, type WireReasoningFields } from '../../../../src-shared/reasoning';
import { MAX_REPLAYED_CALLS, partitionCalls, withImageStandIns } from '../call-shaping';
import {
  systemLineLabel,
  type LiveTurn,
  type ReplayAttachment,
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
  /** A user message with attachments: its words (maybe empty) and its files, each as itself or as a labelled line. */
  readonly userWithAttachments: (turn: ReplayTurn) => Item;
  /** A reply in the history, or one round of the reply being written (`live`). */
  readonly assistant: (turn: ReplayTurn, placement: TurnPlacement) => Item[];
}

/**
 * Each round of a reply as an assistant turn of its own: the words, reasoning and calls of one request, under the
 * reply's message id, brain and model (which decide where its reasoning and call ids may go).
 */
function roundTurns(live: Pick<LiveTurn, 'messageId' | 'brain' | 'model' | 'rounds'>): ReplayTurn[] {
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
 * A reply in the history. One that ran tools replays in the rounds it was written in, then its last words as the
 * brain streamed them; the newest with its calls whole, exactly as each round went to the brain while it wrote them,
 * so the request that follows starts with the last request the reply made, which a provider's prompt cache can read
 * back. Older replies keep that shape with their calls cut, so a reply changes its bytes once, when it stops being
 * the newest, and keeps them from then on.
 */
function assistantItems<Item>(turn: ReplayTurn, renderers: TurnRenderers<Item>): Item[] {
  const { rounds, roundsWhole, ...words } = turn;
  if (rounds === undefined || turn.brain === undefined || turn.model === undefined) return renderers.assistant(words, 'history');
  const placement = roundsWhole === true ? 'live' : 'written';
  const items = roundTurns({ messageId: turn.messageId, brain: turn.brain, model: turn.model, rounds }).flatMap((round) => renderers.assistant(round, placement));
  if (words.text.length > 0) items.push(...renderers.assistant(words, 'history'));
  return items;
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
        items.push((turn.attachments?.length ?? 0) > 0 ? renderers.userWithAttachments(turn) : renderers.userText(turn.text));
        break;
      case 'system-line':
        items.push(renderers.userText(systemLineText(turn)));
        break;
      case 'assistant':
        items.push(...assistantItems(turn, renderers));
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
    for (const round of roundTurns(live)) items.push(...renderers.assistant(round, 'live'));
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

/**
 * How much inline data a request may carry on each wire, in base64 characters. A history holds every earlier turn's
 * attachments; the newest are sent first, and what no longer fits replays as a labelled line instead of a request the
 * provider would refuse.
 */
export interface InlineLimits {
  /** The longest one image may be. */
  readonly perImage: number;
  /** All images and PDFs of one request together. */
  readonly perRequest: number;
  /** How many images one request may carry. */
  readonly imagesPerRequest: number;
  /** How many PDF pages one request may carry (a PDF whose pages are unknown counts as one). */
  readonly pdfPagesPerRequest: number;
}

const MEBIBYTE = 1024 * 1024;

export const INLINE_LIMITS: Readonly<Record<WireId, InlineLimits>> = {
  // Anthropic: "image exceeds 5 MB maximum" per image, at most 100 images and 100 PDF pages, and 32 MB per request,
  // its text included.
  'anthropic-messages': { perImage: MAX_SHOWN_IMAGE_BASE64_CHARS, perRequest: 24 * MEBIBYTE, imagesPerRequest: 100, pdfPagesPerRequest: 100 },
  // OpenAI: 50 MB of file and image inputs per request, at most 500 images; xAI: 10 MiB per image.
  'openai-responses': { perImage: 14 * MEBIBYTE, perRequest: 40 * MEBIBYTE, imagesPerRequest: 500, pdfPagesPerRequest: Number.POSITIVE_INFINITY },
  // Moonshot documents no request limit for inline images; 20 MB keeps to what its vision examples send.
  'chat-completions': { perImage: 14 * MEBIBYTE, perRequest: 20 * MEBIBYTE, imagesPerRequest: 100, pdfPagesPerRequest: Number.POSITIVE_INFINITY },
  // Gemini: "use the Files API when the total request size (files, text, instructions) is over 20 MB"; a PDF of at
  // most 1,000 pages.
  'gemini-generate-content': { perImage: 14 * MEBIBYTE, perRequest: 18 * MEBIBYTE, imagesPerRequest: 3_000, pdfPagesPerRequest: 1_000 },
  // Ollama reads the whole request into the local server; its vision models take few images at a time.
  'ollama-chat': { perImage: 14 * MEBIBYTE, perRequest: 40 * MEBIBYTE, imagesPerRequest: 20, pdfPagesPerRequest: 0 },
};

/** What one attachment becomes in a request: itself, or a labelled line and why. */
export type AttachmentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly name: string; readonly mediaType: ImageMediaType; readonly data: string }
  | { readonly type: 'pdf'; readonly name: string; readonly data: string };

type AttachmentDecision = 'send' | 'cannot-take' | 'missing' | 'no-room';

/** "image photo.png (1280x720)", "PDF report.pdf". */
function attachmentLabel(attachment: ReplayAttachment): string {
  const dimensions = imageDimensions(attachment.width, attachment.height);
  const kind = attachment.kind === 'image' ? 'image' : attachment.kind === 'pdf' ? 'PDF' : 'text file';
  return `${kind} ${attachment.name}${dimensions === null ? '' : ` (${dimensions})`}`;
}

function standInLine(attachment: ReplayAttachment, decision: Exclude<AttachmentDecision, 'send'>): string {
  switch (decision) {
    case 'cannot-take':
      return attachmentStandIn(attachment);
    case 'missing':
      return `[${attachmentLabel(attachment)} was attached here, but its file is missing from the data folder]`;
    case 'no-room':
      return `[${attachmentLabel(attachment)} was shown earlier in this conversation; it is not sent again, for want of room in this request]`;
    default: {
      const unknownDecision: never = decision;
      throw new Error(`Unknown attachment decision ${String(unknownDecision)}`);
    }
  }
}

function warningFor(attachment: ReplayAttachment, decision: Exclude<AttachmentDecision, 'send'>, request: ReplayRequest): string {
  switch (decision) {
    case 'cannot-take':
      return `${attachment.name} replays as a text line: ${request.model} cannot take ${attachment.kind === 'image' ? `${attachment.mediaType} images` : 'PDFs'}.`;
    case 'missing':
      return `${attachment.name} replays as a text line: its file is missing from the data folder.`;
    case 'no-room':
      return `${attachment.name} replays as a text line: the request has no room for it beside newer attachments.`;
    default: {
      const unknownDecision: never = decision;
      throw new Error(`Unknown attachment decision ${String(unknownDecision)}`);
    }
  }
}

/**
 * Decides, for the whole request, which attachments go as themselves: those the model takes, whose files are there,
 * newest first while the wire's inline limits hold. Keyed by the attachment object of each turn.
 */
export function planAttachments(request: ReplayRequest, wire: WireId): ReadonlyMap<ReplayAttachment, AttachmentDecision> {
  const inputs = modelInputs(request.brain, request.model);
  const limits = INLINE_LIMITS[wire];
  const plan = new Map<ReplayAttachment, AttachmentDecision>();
  let used = 0;
  let images = 0;
  let pages = 0;
  for (const turn of [...request.turns].reverse()) {
    for (const attachment of [...(turn.attachments ?? [])].reverse()) {
      if (attachment.kind === 'text') {
        plan.set(attachment, attachment.text === undefined ? 'missing' : 'send');
        continue;
      }
      if (!modelTakesAttachment(inputs, attachment)) plan.set(attachment, 'cannot-take');
      else if (attachment.data === undefined) plan.set(attachment, 'missing');
      else {
        const isImage = attachment.kind === 'image';
        const pdfPages = isImage ? 0 : Math.max(1, attachment.pages ?? 1);
        const fits =
          used + attachment.data.length <= limits.perRequest &&
          (isImage ? attachment.data.length <= limits.perImage && images < limits.imagesPerRequest : pages + pdfPages <= limits.pdfPagesPerRequest);
        plan.set(attachment, fits ? 'send' : 'no-room');
        if (fits) {
          used += attachment.data.length;
          if (isImage) images += 1;
          pages += pdfPages;
        }
      }
    }
  }
  return plan;
}

/** A user turn's attachments in request order, each as itself or as its labelled line, per the request's plan. */
export function attachmentParts(
  turn: ReplayTurn,
  plan: ReadonlyMap<ReplayAttachment, AttachmentDecision>,
  request: ReplayRequest,
  warnings: ReplayWarning[],
): AttachmentPart[] {
  return (turn.attachments ?? []).map((attachment): AttachmentPart => {
    const decision = plan.get(attachment) ?? 'no-room';
    if (decision !== 'send') {
      warnings.push({ messageId: turn.messageId, message: warningFor(attachment, decision, request) });
      return { type: 'text', text: standInLine(attachment, decision) };
    }
    switch (attachment.kind) {
      case 'text':
        return { type: 'text', text: textAttachmentBlock(attachment.name, attachment.text ?? '') };
      case 'image':
        // planAttachments sends only an image of a type the model's table entry lists: one of the four.
        return { type: 'image', name: attachment.name, mediaType: attachment.mediaType as ImageMediaType, data: attachment.data ?? '' };
      case 'pdf':
        return { type: 'pdf', name: attachment.name, data: attachment.data ?? '' };
      default: {
        const unknownKind: never = attachment.kind;
        throw new Error(`Unknown attachment kind ${String(unknownKind)}`);
      }
    }
  });
}

/** `data:image/png;base64,…`: how the OpenAI wires and Moonshot take inline bytes. */
export function dataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}
