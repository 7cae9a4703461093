/**
 * What each wire contributes to the fake server: where it listens, how it checks a request, and how it frames a
 * scripted reply. The server owns HTTP, timing and recording; a wire only produces bytes.
 */
import type { BrainId, WireId } from '../../src-shared/brains';
import type { OpenAiSpecValidator } from './openai-spec';
import type { ConversationEntry, ReasoningSupport, ReplyPlan } from './script';

/** The figures a size refusal names: the window the fake was told and its estimate of the request. */
export interface RefusalSizes {
  readonly limitTokens: number;
  readonly requestTokens: number;
}

export type RequestHeaders = Readonly<Record<string, string>>;

/** An HTTP answer in the provider's own error shape. */
export interface ErrorReply {
  readonly status: number;
  readonly body: unknown;
}

/** The facts of one request a reply is built from; ids are deterministic per server so tests can compare bytes. */
export interface ReplyContext {
  readonly brain: BrainId;
  readonly plan: ReplyPlan;
  readonly body: Record<string, unknown>;
  readonly route: RouteMatch;
  /** 1 for the first reply since the server started or was reset. */
  readonly sequence: number;
  /** Seconds since the epoch, as the providers' `created` fields count. */
  readonly createdAt: number;
  readonly inputTokens: number;
  /** The part of `inputTokens` the provider's prompt cache served (see `readPromptCache`). */
  readonly cachedTokens: number;
}

export interface RouteMatch {
  /** Whether the reply streams (`stream: true`, a streaming path, or the wire's default). */
  readonly streaming: boolean;
  /** The model named in the path, for wires that put it there. */
  readonly pathModel: string | null;
}

/** What the fake remembers between requests, as a provider's servers would. */
export interface ServerMemory {
  /** Responses output item ids sent while `store` was on: the only ids an input item may name when `store` is on. */
  readonly storedItemIds: Set<string>;
  /** The history each brain and model was last sent, as JSON: what its prompt cache holds. */
  readonly promptCache: Map<string, string>;
}

/**
 * How many of a request's history tokens a provider's prompt cache serves: the part of its JSON that repeats, from
 * the first character, the history last sent to the same brain and model (at four characters a token, as
 * `estimateTokens` counts). The request is then what the cache holds, as a provider keeps what it was sent.
 */
export function readPromptCache(memory: ServerMemory, brain: BrainId, model: string, history: unknown): number {
  const key = `${brain}\n${model}`;
  // Anthropic's breakpoints say where to cache, not what: a provider matches the content, whichever blocks carry them.
  const json = JSON.stringify(history ?? '', (field, value: unknown) => (field === 'cache_control' ? undefined : value));
  const previous = memory.promptCache.get(key) ?? '';
  memory.promptCache.set(key, json);
  const limit = Math.min(previous.length, json.length);
  let same = 0;
  while (same < limit && previous.charCodeAt(same) === json.charCodeAt(same)) same += 1;
  return Math.min(Math.floor(same / 4), estimateTokens(history) - 1);
}

export interface RequestChecks {
  readonly route: RouteMatch;
  readonly memory: ServerMemory;
  /** Validates whole bodies against OpenAI's published spec; null when spec validation is off. */
  readonly openAiSpec: OpenAiSpecValidator | null;
}

/**
 * One piece of a streamed reply. `structure` goes out at once, `delta` after the plan's delay (the first one without),
 * `end` only when the reply completes: the failure endings cut a stream before its end.
 */
export interface StreamEvent {
  readonly kind: 'structure' | 'delta' | 'end';
  readonly bytes: string;
}

/**
 * An endpoint that answers a question about a model instead of replying (Ollama's `/api/show`). It is recorded and
 * refused like any request, but takes no sequence number: reply ids do not depend on whether a client asked first.
 */
export interface ModelLookup {
  /** The provider's own error for the first rule the request breaks, or null when it passes. */
  check(body: Record<string, unknown>): ErrorReply | null;
  /** The 200 answer's JSON body. */
  answer(body: Record<string, unknown>): unknown;
}

export interface FakeWire {
  readonly wire: WireId;
  /** `path` is what follows the brain prefix, query string removed. */
  route(method: string, path: string, body: Record<string, unknown>): RouteMatch | null;
  /** The model lookup at this method and path, for wires that serve one; checked before `route`. */
  modelLookup?(method: string, path: string, brain: BrainId): ModelLookup | null;
  hasCredentials(headers: RequestHeaders, query: URLSearchParams): boolean;
  readonly missingCredentials: ErrorReply;
  notFound(path: string): ErrorReply;
  invalidJson(): ErrorReply;
  /** The provider's own error for the first rule the request breaks, or null when it passes. */
  checkRequest(body: Record<string, unknown>, checks: RequestChecks): ErrorReply | null;
  /** The request's system prompt as text, wherever the wire puts it; empty when there is none. */
  systemText(body: Record<string, unknown>): string;
  /** User texts and tool answers in conversation order. */
  conversation(body: Record<string, unknown>): ConversationEntry[];
  /** Names of the function tools the request declares, in the wire's declaration shape. */
  declaredToolNames(body: Record<string, unknown>): string[];
  reasoningSupport(body: Record<string, unknown>, route: RouteMatch): ReasoningSupport;
  requestedModel(body: Record<string, unknown>, route: RouteMatch): string;
  /** The wire's error for an HTTP status, with `message` in place of its usual words when given. */
  statusError(status: number, message?: string): ErrorReply;
  /**
   * The provider's own refusal of a request larger than the window, naming `sizes` (the wire's typical figures when
   * null). `brain` picks the wording where brains on one wire differ (grok is xAI, codex is OpenAI).
   */
  tooLarge(brain: BrainId, sizes: RefusalSizes | null): ErrorReply;
  /** Extra response headers the provider sends (request ids). */
  responseHeaders(sequence: number): Readonly<Record<string, string>>;
  readonly streamContentType: string;
  /** The whole streamed reply, in order. */
  streamEvents(context: ReplyContext): StreamEvent[];
  /** The in-stream error a failure ending sends after `eventsSent` events. */
  streamError(context: ReplyContext, eventsSent: number): string;
  /** The non-streaming response object. */
  wholeReply(context: ReplyContext): unknown;
  /** Output item ids the provider keeps after this reply (Responses with `store` on); the server remembers them. */
  storedItemIds(context: ReplyContext): string[];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Rough token count (four characters a token) so usage numbers are plausible and deterministic; over a whole request
 * body it is the size `[window:N]` compares with the window.
 */
export function estimateTokens(value: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));
}

export function hasBearerOrHeader(headers: RequestHeaders, headerName: string): boolean {
  const authorization = headers.authorization ?? '';
  return (headers[headerName] ?? '') !== '' || /^Bearer \S/.test(authorization);
}

export function structure(bytes: string): StreamEvent {
  return { kind: 'structure', bytes };
}

export function delta(bytes: string): StreamEvent {
  return { kind: 'delta', bytes };
}

export function end(bytes: string): StreamEvent {
  return { kind: 'end', bytes };
}

/** The array under `key`, or an empty one. */
export function listField(record: Record<string, unknown>, key: string): readonly unknown[] {
  const value = record[key];
  return Array.isArray(value) ? value : [];
}

/** Text of a content list's text parts (`text`, `input_text`, `output_text`), joined with newlines. */
export function textOfParts(content: unknown, partTypes: readonly string[] = ['text']): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is { type: string; text: string } => isRecord(part) && typeof part.type === 'string' && partTypes.includes(part.type) && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

/** A message `content` that is a string or a list of text parts, as text. */
export function contentText(content: unknown, partTypes?: readonly string[]): string {
  return typeof content === 'string' ? content : textOfParts(content, partTypes);
}
