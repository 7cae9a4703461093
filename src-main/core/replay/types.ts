/**
 * The neutral replay: what every wire converter takes. Converters are pure (no I/O) and import only this file.
 */
import type { AttachmentKind } from '../../../src-shared/attachments';
import type { BrainId, ReasoningLevel } from '../../../src-shared/brains';

export interface ReplayCall {
  /** Deterministic id derived from the message id and the call's position; sanitised per wire by the converter. */
  readonly callId: string;
  /** The id the brain itself gave, replayed only to the brain that minted it. */
  readonly providerCallId?: string;
  /** The bare tool name as declared this turn. */
  readonly name: string;
  readonly input: Record<string, unknown>;
  /** The answer's text; the images it held are in `images`. */
  readonly answer: string;
  readonly isError: boolean;
  /** Images the answer held, in order, each whole (`data`) only in the reply being written. */
  readonly images?: readonly ReplayImage[];
  /** The MCP server the tool belongs to, or null for a built-in tool. */
  readonly server?: string | null;
  /** Provider-opaque facts of this call (a Gemini thoughtSignature), replayed only to the brain that made them. */
  readonly opaque?: unknown;
}

/**
 * An image a tool answered with. Its bytes come along only while the reply that called the tool is being written: a
 * brain looks at an image when it asked for it, and the history carries a labelled stand-in, so an image is not resent
 * (and paid for) with every later turn, and the history's cut to 500 characters per answer holds.
 */
export interface ReplayImage {
  readonly mimeType: string;
  readonly byteLength: number;
  /** Base64; absent in the history. */
  readonly data?: string;
}

export interface ReplayReasoning {
  readonly brain: BrainId;
  readonly model: string;
  readonly text: string;
  /**
   * Signatures, encrypted items and the like, verbatim as the provider sent them: `{blocks: [...]}`, and, where the
   * wire puts reasoning between a reply's calls, `places` beside them (one `ReasoningPlace` or null per block).
   */
  readonly opaque: unknown;
}

/**
 * What a reasoning item stood right before in the reply's output, so it can replay in place: one of the reply's calls
 * (by the id the provider gave it), the reply's words, or something a replay does not carry (or nothing at all).
 */
export type ReasoningPlace =
  | { readonly before: 'call'; readonly providerCallId: string }
  | { readonly before: 'words' }
  | { readonly before: 'other' };

/**
 * A file the user attached to a message, with what a converter needs to send it: an image's or PDF's bytes, a text
 * file's text. Earlier turns' attachments replay too, each in the target wire's own shape or as a labelled stand-in
 * where the model cannot take it (wires/shared.ts `planAttachments`).
 */
export interface ReplayAttachment {
  readonly name: string;
  readonly kind: AttachmentKind;
  /** Sniffed from the bytes when the file was added. */
  readonly mediaType: string;
  readonly width: number | null;
  readonly height: number | null;
  /** A PDF's pages when its page tree could be read. */
  readonly pages?: number | null;
  /** Base64 of an image's or PDF's bytes; absent for a text file, and when the file is missing from the data folder. */
  readonly data?: string;
  /** A text file's text; absent for images and PDFs, and when the file is missing. */
  readonly text?: string;
}

export interface ReplayTurn {
  readonly messageId: string;
  readonly role: 'user' | 'assistant' | 'system-line';
  readonly kind: 'chat' | 'notice' | 'summary';
  readonly text: string;
  readonly calls: readonly ReplayCall[];
  /** Which brain and model wrote an assistant turn (decides where its reasoning, signatures and call ids may go). */
  readonly brain?: BrainId;
  readonly model?: string;
  readonly reasoning?: ReplayReasoning;
  /** The files attached to a user turn, in the order attached. */
  readonly attachments?: readonly ReplayAttachment[];
  /**
   * A reply's tool rounds as it wrote them, each round's words, reasoning and calls in their places: a request then
   * starts with what earlier requests sent of the reply. The turn's own `text` and `reasoning` are what it wrote after
   * its last round, and `calls` is empty. A reply stored without its rounds has none and replays as one message.
   */
  readonly rounds?: readonly LiveRound[];
  /**
   * The rounds' calls go whole, as they went while the reply was written (the newest reply): the next request starts
   * with the last one the reply made. Older replies' calls are cut as the history cuts them.
   */
  readonly roundsWhole?: boolean;
}

/**
 * Where an assistant turn sits in a request: in the history, or live (one round of the reply being written now, inside
 * its tool loop), or one round of a finished reply as it was written, its calls cut as the history cuts them
 * (`written`). A live or written round's words go before its calls (the provider's own order), since a request may not
 * end on an assistant's words; live calls and answers go whole, while the history replays at most 12 calls per reply
 * (per round, for a reply replayed in its rounds), each cut to 500 characters.
 */
export type TurnPlacement = 'history' | 'live' | 'written';

/** Whether a turn keeps the shape its rounds were written in: words, then calls, round by round. */
export function inWrittenShape(placement: TurnPlacement): boolean {
  return placement !== 'history';
}

/**
 * One round of the reply being written: the words and reasoning one request streamed, then the calls that request
 * asked for with their answers, in the order the brain made them.
 */
export interface LiveRound {
  readonly text: string;
  /** The reasoning streamed in this round only; the wire's reasoning rule decides whether it replays. */
  readonly reasoning?: ReplayReasoning;
  readonly calls: readonly ReplayCall[];
}

/**
 * The reply being written, once it has made calls: one round per request it has streamed so far, each replayed as
 * its own assistant message followed by its answers, as the provider sent and received them.
 */
export interface LiveTurn {
  readonly messageId: string;
  readonly brain: BrainId;
  readonly model: string;
  readonly rounds: readonly LiveRound[];
}

export interface ToolDeclaration {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

/** Everything a converter needs to build one request body. */
export interface ReplayRequest {
  readonly brain: BrainId;
  readonly model: string;
  readonly reasoningLevel: ReasoningLevel;
  readonly system: string;
  /** The history, oldest first. */
  readonly turns: readonly ReplayTurn[];
  /** The reply being written, once it has made calls: it follows the history. */
  readonly live?: LiveTurn;
  readonly tools: readonly ToolDeclaration[];
  readonly maxOutputTokens: number;
  /**
   * The window the request was measured against, the reply's room included. Ollama is told it as `options.num_ctx`:
   * without it Ollama runs the model at its server's default and drops the start of a longer prompt in silence.
   */
  readonly contextWindow: number;
  /** Stable per conversation: lets a provider route every turn of it to the same prompt cache. */
  readonly cacheKey: string;
  /** How a wire that places its own cache breakpoints (Anthropic's) asks the provider to keep this request. */
  readonly promptCache?: PromptCachePlan;
}

/** How long a provider keeps what a request writes to its prompt cache: Anthropic's two documented lifetimes. */
export type PromptCacheTtl = '5m' | '1h';

export interface PromptCachePlan {
  /**
   * The tools and system prompt reach the model's least cacheable length by themselves, so a breakpoint after them
   * caches something; below it the provider caches nothing there and the breakpoint is wasted.
   */
  readonly cacheSystem: boolean;
  readonly ttl: PromptCacheTtl;
}

export interface ReplayWarning {
  readonly messageId: string;
  readonly message: string;
}

/**
 * A converter's output. Each converter types `body` as its wire's request (`wires/<wire>-types.ts`); past the
 * dispatcher in `wires/index.ts` it is the JSON object the provider sends.
 */
export interface WireRequest<Body extends object = Record<string, unknown>> {
  readonly body: Body;
  readonly warnings: readonly ReplayWarning[];
}

/** How a system line (notice, summary) is introduced, so no wire mistakes it for either speaker's words. */
export function systemLineLabel(kind: ReplayTurn['kind']): string {
  return `[System line, ${kind}: neither the assistant's words nor the user's]`;
}
