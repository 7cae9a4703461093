/**
 * Scripted replies: what a fake brain answers is decided only by directives in the last user message's text, so a
 * test states the behaviour it needs in the prompt it sends. A compaction request is the exception: its history is
 * full of old directives, so it gets a deterministic summary instead. It says what it is with SUMMARY_REQUEST_MARKER,
 * at the start of its system prompt (a transcript in parts) or of its last user message (a continuation of the
 * target's own request).
 */
import { SUMMARY_REQUEST_MARKER } from '../../src-main/core/context/summary-prompt';
import type { RefusalSizes } from './fake-wire';

export const DEFAULT_DELAY_MS = 5;
export const SLOW_DELAY_MS = 100;
export const SLOW_CHUNK_COUNT = 60;
const ECHO_LIMIT = 200;
/** How much of each tool answer the reply after a tool call repeats. */
const ANSWER_LIMIT = 60;
/** How much of the user's text the scripted reasoning repeats. */
const REASONING_ECHO_LIMIT = 60;
/** `[long:KIND:BYTES]` replies stream in pieces this long, this far apart: many small deltas, as a fast model sends. */
export const LONG_PIECE_LENGTH = 24;
export const LONG_DELAY_MS = 5;
/** A long reply no longer than this, so a typo in a test cannot ask the fake for gigabytes. */
const LONG_MAX_BYTES = 1_048_576;
/** Tool arguments stream in pieces of at most this many characters, as the providers split them. */
export const ARGUMENT_PIECE_LENGTH = 8;

export const MARKDOWN_REPLY = [
  '# Fake heading',
  '',
  'A short list:',
  '',
  '- first item',
  '- second item',
  '- third item',
  '',
  '| Brain | Wire |',
  '| --- | --- |',
  '| claude | anthropic-messages |',
  '| kimi | chat-completions |',
  '',
  '```ts',
  'export function add(left: number, right: number): number {',
  '  return left + right;',
  '}',
  '```',
].join('\n');


/** What a `[long:KIND:BYTES]` reply is made of: one block that keeps growing while it streams. */
export const LONG_KINDS = ['code', 'prose', 'list', 'table'] as const;
export type LongKind = (typeof LONG_KINDS)[number];

export interface LongDirective {
  readonly kind: LongKind;
  readonly bytes: number;
}

export interface ToolDirective {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

export interface Directives {
  readonly slow: boolean;
  readonly empty: boolean;
  readonly markdown: boolean;
  readonly errorMidstream: boolean;
  readonly drop: boolean;
  /** `[stall]`: send half the reply, then nothing, with the connection left open. */
  readonly stall: boolean;
  /** `[json-instead]`: answer HTTP 200 with the whole reply as JSON although a stream was asked for. */
  readonly jsonInstead: boolean;
  /** `[echo-key]`: refuse with HTTP 401 and an error body that repeats the key the request carried, unmasked. */
  readonly echoKey: boolean;
  /** `[retry-after:N]`: the `retry-after` seconds a `[status:…]` answer carries. */
  readonly retryAfterSeconds: number | null;
  readonly tooLarge: boolean;
  /** `[window:N]`: refuse as too large, the way the wire does, when the request is estimated above N tokens. */
  readonly window: number | null;
  readonly think: boolean;
  readonly model: string | null;
  readonly status: number | null;
  /** `[reply:text]` with `\\n` for newlines, or `[reply-base64:…]` with any UTF-8 text base64-encoded. */
  readonly reply: string | null;
  /** `[tool:NAME]` and `[tool:NAME {json}]`, in order: parallel calls of one reply. */
  readonly tools: readonly ToolDirective[];
  /** A `[tool:…]` directive whose input is not a JSON object, verbatim; null when every one reads. */
  readonly unreadableTool: string | null;
  /** `[refuse]` or `[refuse:why]`: the reply ends with the wire's own refusal (`why` its explanation). */
  readonly refuse: Declined | null;
  /** `[long:KIND:BYTES]`: a reply of one long block (see `longReply`), streamed in many small pieces. */
  readonly long: LongDirective | null;
}

/** A refusal the reply ends with, after whatever text streamed first; `explanation` null when the provider gives none. */
export interface Declined {
  readonly explanation: string | null;
}

/** What a refusal says on the wires whose refusal is always words (Responses, Chat Completions), unless `[refuse:why]`. */
export const DEFAULT_REFUSAL_WORDS = "I'm sorry, but I can't assist with that request.";

/** The words of the reply's refusal on a wire whose refusal is words; null when the reply is not refused. */
export function refusalWords(plan: Pick<ReplyPlan, 'declined'>): string | null {
  return plan.declined === null ? null : (plan.declined.explanation ?? DEFAULT_REFUSAL_WORDS);
}

/** One thing a request's conversation says, in order: words the user wrote, or an answer to a tool call. */
export type ConversationEntry = { readonly kind: 'user-text'; readonly text: string } | { readonly kind: 'tool-answer'; readonly text: string };

export interface ConversationTail {
  /** The last user text: the only place directives are read from. */
  readonly userText: string;
  /** Tool answers that came after that text; empty when the conversation ends with the user's words. */
  readonly toolAnswers: readonly string[];
}

/** What the request allows in the way of reasoning, in the wire's own terms. */
export interface ReasoningSupport {
  /** `[think]` shows reasoning (the request enabled it, or the wire always may). */
  readonly shown: boolean;
  /** Under these settings the provider always reasons before it calls tools (Anthropic and Kimi with thinking on). */
  readonly beforeToolCalls: boolean;
}

export interface ScriptedToolCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly argumentsJson: string;
  /** `argumentsJson` in the pieces it streams in. */
  readonly argumentPieces: readonly string[];
}

/** How the reply ends once its content has streamed (or part of it, for the failure endings). */
export type ReplyEnding = 'complete' | 'error-midstream' | 'drop' | 'stall';

export interface ReplyPlan {
  /** An HTTP error to answer instead of a stream. */
  readonly failure:
    | { readonly kind: 'status'; readonly status: number; readonly retryAfterSeconds: number | null }
    /** `sizes` null: `[too-large]`, with the wire's typical figures; set: `[window:N]` with the request above N. */
    | { readonly kind: 'too-large'; readonly sizes: RefusalSizes | null }
    | { readonly kind: 'json-instead' }
    | { readonly kind: 'echo-key' }
    | null;
  /** Reasoning shown before the reply; empty when there is none. */
  readonly reasoning: string;
  readonly reasoningChunks: readonly string[];
  readonly text: string;
  /** The text in the pieces it streams in; joined they give `text`. */
  readonly chunks: readonly string[];
  /** Calls the reply makes after its text; a reply with calls has no text. */
  readonly toolCalls: readonly ScriptedToolCall[];
  /** The wire's refusal, sent after the text (wires without one, like Ollama's, ignore it); a refused reply makes no calls. */
  readonly declined: Declined | null;
  readonly delayMs: number;
  /** The model the reply announces. */
  readonly model: string;
  readonly ending: ReplyEnding;
  /** A plausible, deterministic output token count: one per streamed piece. */
  readonly outputTokens: number;
}

export interface PlanInput {
  readonly label: string;
  readonly userText: string;
  readonly requestedModel: string;
  /** Answers to tool calls after the user's text (see `conversationTail`). */
  readonly toolAnswers?: readonly string[];
  /** Tool names the request declares; a scripted call to any other tool is refused. */
  readonly declaredTools?: readonly string[];
  readonly reasoning?: ReasoningSupport;
  /** The request's system prompt, as `FakeWire.systemText` reads it. */
  readonly systemText?: string;
  /** The fake's estimate of the whole request body (`estimateTokens`), which `[window:N]` compares with N. */
  readonly requestTokens?: number;
  /** A continuation compaction's history, written as a transcript in parts writes it (see `continuationTranscript`). */
  readonly summarised?: string;
}

/** The key-shaped string an `[echo-key]` error body carries beside the request's own key: Anthropic's format, no real key. */
export const KEY_SHAPED_CANARY = 'sk-ant-api03-CanaryCanary0123456789abcdefCanary-AA';

/** In a compaction request's user text, asks for the summary to stream slowly, so a test can stop or kill it midway. */
export const SLOW_SUMMARY_DIRECTIVE = '[slow-summary]';

export function parseDirectives(userText: string): Directives {
  const flag = (name: string): boolean => userText.includes(`[${name}]`);
  const status = /\[status:(\d{3})\]/.exec(userText);
  const retryAfter = /\[retry-after:(\d+)\]/.exec(userText);
  const model = /\[model:([^\]]+)\]/.exec(userText);
  const window = /\[window:(\d+)\]/.exec(userText);
  const reply = /\[reply:([^\]]*)\]/.exec(userText);
  const refuse = /\[refuse(?::([^\]]*))?\]/.exec(userText);
  const long = /\[long:(code|prose|list|table):(\d{1,7})\]/.exec(userText);
  // Base64 carries any reply, brackets and newlines included, through a directive that ends at the first "]".
  const encodedReply = /\[reply-base64:([A-Za-z0-9+/]*={0,2})\]/.exec(userText);
  const { tools, unreadable } = parseToolDirectives(userText);
  return {
    slow: flag('slow'),
    empty: flag('empty'),
    markdown: flag('markdown'),
    errorMidstream: flag('error-midstream'),
    drop: flag('drop'),
    stall: flag('stall'),
    jsonInstead: flag('json-instead'),
    echoKey: flag('echo-key'),
    retryAfterSeconds: retryAfter?.[1] === undefined ? null : Number(retryAfter[1]),
    tooLarge: flag('too-large'),
    window: window?.[1] === undefined ? null : Number(window[1]),
    think: flag('think'),
    model: model?.[1]?.trim() || null,
    status: status?.[1] === undefined ? null : Number(status[1]),
    reply:
      encodedReply?.[1] !== undefined
        ? Buffer.from(encodedReply[1], 'base64').toString('utf8')
        : reply?.[1] === undefined
          ? null
          : reply[1].replace(/\\n/g, '\n'),
    tools,
    unreadableTool: unreadable,
    refuse: refuse === null ? null : { explanation: refuse[1]?.trim() || null },
    long: long === null ? null : { kind: long[1] as LongKind, bytes: Math.min(LONG_MAX_BYTES, Number(long[2])) },
  };
}

/** One line of the long code reply: TypeScript with a comment, a string and a template, numbered so each is unique. */
function longCodeLine(index: number): string {
  return `export const value${index} = compute(${index}, "item ${index}", \`\${base}/${index}\`); // line ${index + 1}`;
}

/** One unit (line, paragraph, item or row) of a long reply. */
function longUnit(kind: LongKind, index: number): string {
  switch (kind) {
    case 'code':
      return longCodeLine(index);
    case 'prose':
      return `Paragraph ${index + 1} explains one more step, with *emphasis*, \`inline code\` and a [link](https://example.com/${index}) in a sentence long enough to wrap.\n`;
    case 'list':
      return `- item ${index + 1}: **bold** words, \`code\` and a [link](https://example.com/${index})`;
    case 'table':
      return `| ${index + 1} | name ${index} | \`value ${index}\` | **${index % 7}** |`;
    default: {
      const unknownKind: never = kind;
      throw new Error(`Unknown long reply kind ${String(unknownKind)}`);
    }
  }
}

/**
 * The reply `[long:KIND:BYTES]` asks for: about BYTES characters of one growing block, whole units only: a
 * `ts` fence (closed at the end), paragraphs, a tight list or a four-column table.
 */
export function longReply({ kind, bytes }: LongDirective): string {
  const opening = kind === 'code' ? ['```ts'] : kind === 'table' ? ['| # | Name | Value | Group |', '| ---: | --- | --- | :-: |'] : [];
  const closing = kind === 'code' ? ['```'] : [];
  const lines = [...opening];
  let size = [...opening, ...closing].reduce((sum, line) => sum + line.length + 1, 0);
  for (let index = 0; size < bytes; index += 1) {
    const unit = longUnit(kind, index);
    lines.push(unit);
    size += unit.length + 1;
  }
  return [...lines, ...closing].join('\n');
}

const TOOL_DIRECTIVE_START = '[tool:';
const TOOL_NAME = /^[A-Za-z0-9_.:-]+/;

/** Reads `[tool:NAME]` and `[tool:NAME {json}]`; the JSON may itself hold brackets, so it is scanned, not matched. */
function parseToolDirectives(text: string): { tools: ToolDirective[]; unreadable: string | null } {
  const tools: ToolDirective[] = [];
  let unreadable: string | null = null;
  let searchFrom = 0;
  for (;;) {
    const start = text.indexOf(TOOL_DIRECTIVE_START, searchFrom);
    if (start < 0) break;
    const nameStart = start + TOOL_DIRECTIVE_START.length;
    const name = TOOL_NAME.exec(text.slice(nameStart))?.[0] ?? '';
    let cursor = nameStart + name.length;
    while (text[cursor] === ' ') cursor += 1;
    let input: Record<string, unknown> | null = {};
    if (text[cursor] === '{') {
      const objectEnd = endOfJsonObject(text, cursor);
      input = objectEnd < 0 ? null : parseJsonObject(text.slice(cursor, objectEnd));
      cursor = objectEnd < 0 ? cursor : objectEnd;
      while (text[cursor] === ' ') cursor += 1;
    }
    const closed = text[cursor] === ']';
    if (name !== '' && closed && input !== null) tools.push({ name, input });
    else unreadable ??= text.slice(start, closed ? cursor + 1 : Math.min(text.length, cursor + 1));
    searchFrom = cursor + 1;
  }
  return { tools, unreadable };
}

/** The index just past the `}` that closes the object opening at `start`, or -1 when it never closes. */
function endOfJsonObject(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
      continue;
    }
    if (character === '"') inString = true;
    else if (character === '{' || character === '[') depth += 1;
    else if (character === '}' || character === ']') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The last user text and the tool answers after it: what decides between calling tools and answering. */
export function conversationTail(entries: readonly ConversationEntry[]): ConversationTail {
  let userText = '';
  let toolAnswers: string[] = [];
  for (const entry of entries) {
    switch (entry.kind) {
      case 'user-text':
        userText = entry.text;
        toolAnswers = [];
        break;
      case 'tool-answer':
        toolAnswers.push(entry.text);
        break;
      default: {
        const unknownEntry: never = entry;
        throw new Error(`Unknown conversation entry ${JSON.stringify(unknownEntry)}`);
      }
    }
  }
  return { userText, toolAnswers };
}

const SHOWN_ON_REQUEST: ReasoningSupport = { shown: true, beforeToolCalls: false };

export function planReply(input: PlanInput): ReplyPlan {
  if (isCompactionRequest(input)) return planSummary(input);
  const directives = parseDirectives(input.userText);
  const toolAnswers = input.toolAnswers ?? [];
  const reasoningSupport = input.reasoning ?? SHOWN_ON_REQUEST;
  const requestTokens = input.requestTokens ?? 0;
  const failure =
    directives.status !== null
      ? { kind: 'status' as const, status: directives.status, retryAfterSeconds: directives.retryAfterSeconds }
      : directives.tooLarge
        ? { kind: 'too-large' as const, sizes: null }
        : directives.window !== null && requestTokens > directives.window
          ? { kind: 'too-large' as const, sizes: { limitTokens: directives.window, requestTokens } }
          : directives.jsonInstead
            ? { kind: 'json-instead' as const }
            : directives.echoKey
              ? { kind: 'echo-key' as const }
              : null;
  const wantsCalls = directives.refuse === null && toolAnswers.length === 0 && (directives.tools.length > 0 || directives.unreadableTool !== null);
  const refusal = wantsCalls ? callRefusal(directives, input.label, input.declaredTools ?? []) : null;
  const toolCalls = wantsCalls && refusal === null ? directives.tools.map(scriptedCall) : [];
  const text = refusal ?? (toolCalls.length > 0 ? '' : withAnswers(replyText(directives, input.label, input.userText), toolAnswers));
  const chunks = directives.long !== null && toolCalls.length === 0 && refusal === null ? splitIntoPieces(text, LONG_PIECE_LENGTH) : splitIntoChunks(text);
  const showsReasoning = (directives.think && reasoningSupport.shown) || (reasoningSupport.beforeToolCalls && toolCalls.length > 0);
  const reasoning = showsReasoning ? `Fake ${input.label} thinks about: ${input.userText.slice(0, REASONING_ECHO_LIMIT)}` : '';
  const reasoningChunks = splitIntoChunks(reasoning);
  const ending: ReplyEnding = directives.drop ? 'drop' : directives.errorMidstream ? 'error-midstream' : directives.stall ? 'stall' : 'complete';
  return {
    failure,
    reasoning,
    reasoningChunks,
    text,
    chunks,
    toolCalls,
    declined: directives.refuse,
    delayMs: directives.slow ? SLOW_DELAY_MS : directives.long !== null ? LONG_DELAY_MS : DEFAULT_DELAY_MS,
    model: directives.model ?? input.requestedModel,
    ending,
    outputTokens: reasoningChunks.length + chunks.length + toolCalls.reduce((sum, call) => sum + call.argumentPieces.length, 0),
  };
}

function isCompactionRequest(input: Pick<PlanInput, 'systemText' | 'userText'>): boolean {
  return (input.systemText ?? '').startsWith(SUMMARY_REQUEST_MARKER) || input.userText.startsWith(SUMMARY_REQUEST_MARKER);
}

/** The words a replayed system line starts with (replay/types.ts `systemLineLabel`). */
const SYSTEM_LINE_START = '[System line, ';

/**
 * A continuation compaction's history as a transcript in parts would show it, for `summaryOf`: a "User:" line for each
 * user message before the request's own (system lines are not the user's), then a "Tool call NAME" line for each call.
 */
export function continuationTranscript(entries: readonly ConversationEntry[], calledTools: readonly string[]): string {
  const userTexts = entries.flatMap((entry) => (entry.kind === 'user-text' ? [entry.text] : [])).slice(0, -1);
  return [
    ...userTexts.filter((text) => !text.startsWith(SYSTEM_LINE_START)).map((text) => `User: ${text.replace(/\r?\n/g, '\n  ')}`),
    ...calledTools.map((name) => `  Tool call ${name}`),
  ].join('\n');
}

/**
 * The names of the function calls a request's history holds, in order, on every wire: Anthropic's `tool_use` blocks,
 * Responses' `function_call` items, Chat Completions' and Ollama's `tool_calls`, Gemini's `functionCall` parts. The
 * declarations (`tools`) are not calls.
 */
export function calledToolNames(body: Record<string, unknown>): string[] {
  const names: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if ((record.type === 'tool_use' || record.type === 'function_call') && typeof record.name === 'string') names.push(record.name);
    const nested = record.functionCall ?? record.function;
    if (typeof nested === 'object' && nested !== null && typeof (nested as Record<string, unknown>).name === 'string') {
      names.push((nested as Record<string, unknown>).name as string);
    }
    for (const [key, child] of Object.entries(record)) if (key !== 'functionCall' && key !== 'function') visit(child);
  };
  for (const [key, value] of Object.entries(body)) if (key !== 'tools') visit(value);
  return names;
}

/** A compaction request's reply: the summary, streamed like any reply, with no failure, reasoning or calls. */
function planSummary(input: PlanInput): ReplyPlan {
  const source = input.summarised ?? input.userText;
  const text = summaryOf(source);
  const slow = source.includes(SLOW_SUMMARY_DIRECTIVE);
  const chunks = slow ? splitIntoParts(text, SLOW_CHUNK_COUNT) : splitIntoChunks(text);
  return {
    failure: null,
    reasoning: '',
    reasoningChunks: [],
    text,
    chunks,
    toolCalls: [],
    declined: null,
    delayMs: slow ? SLOW_DELAY_MS : DEFAULT_DELAY_MS,
    model: input.requestedModel,
    ending: 'complete',
    outputTokens: chunks.length,
  };
}

/**
 * The fake's summary of a compaction transcript: how many lines start with "User:", and the distinct tools named by
 * lines "Tool call NAME…" (trailing punctuation after the name dropped), in order of first mention.
 */
export function summaryOf(transcript: string): string {
  const userMessages = transcript.split(/\r?\n/).filter((line) => line.startsWith('User:')).length;
  const toolNames = [...transcript.matchAll(/^[ \t]*Tool call (\S+)/gm)].map((match) => (match[1] ?? '').replace(/[:,.;]+$/, '')).filter((name) => name !== '');
  const distinct = [...new Set(toolNames)];
  const tools = distinct.length === 0 ? '' : `; tools used: ${distinct.join(', ')}`;
  return `Summary of the conversation so far: ${userMessages} user messages${tools}.`;
}

/** Cuts text into `count` pieces of near-equal length (fewer, one code point each, when the text is shorter). */
function splitIntoParts(text: string, count: number): string[] {
  const codePoints = Array.from(text);
  const parts = Math.min(count, codePoints.length);
  return Array.from({ length: parts }, (_, index) =>
    codePoints.slice(Math.floor((index * codePoints.length) / parts), Math.floor(((index + 1) * codePoints.length) / parts)).join(''),
  );
}

/** The text that stands in for calls the fake will not make: an unreadable directive or a tool the request does not offer. */
function callRefusal(directives: Directives, label: string, declaredTools: readonly string[]): string | null {
  if (directives.unreadableTool !== null) return `Fake ${label} reply: the directive ${directives.unreadableTool} has no JSON object input.`;
  const missing = [...new Set(directives.tools.map((tool) => tool.name).filter((name) => !declaredTools.includes(name)))];
  if (missing.length === 0) return null;
  const quoted = missing.map((name) => `"${name}"`).join(', ');
  return missing.length === 1
    ? `Fake ${label} reply: the tool ${quoted} was not offered in this request.`
    : `Fake ${label} reply: the tools ${quoted} were not offered in this request.`;
}

function scriptedCall(directive: ToolDirective): ScriptedToolCall {
  const argumentsJson = JSON.stringify(directive.input);
  return { name: directive.name, input: directive.input, argumentsJson, argumentPieces: splitIntoPieces(argumentsJson, ARGUMENT_PIECE_LENGTH) };
}

function withAnswers(text: string, toolAnswers: readonly string[]): string {
  if (toolAnswers.length === 0) return text;
  const answered = `(tools answered: ${toolAnswers.map((answer) => answer.slice(0, ANSWER_LIMIT)).join(' | ')})`;
  return text === '' ? answered : `${text} ${answered}`;
}

function replyText(directives: Directives, label: string, userText: string): string {
  if (directives.empty) return '';
  if (directives.reply !== null) return directives.reply;
  if (directives.markdown) return MARKDOWN_REPLY;
  if (directives.long !== null) return longReply(directives.long);
  if (directives.slow) return Array.from({ length: SLOW_CHUNK_COUNT }, (_, index) => `word${index + 1}`).join(' ');
  return `Fake ${label} reply to: ${userText.slice(0, ECHO_LIMIT)}`;
}

/** Splits before each space, so every chunk but the first starts with the space that separated it. */
export function splitIntoChunks(text: string): string[] {
  return text === '' ? [] : text.split(/(?= )/);
}

/** Cuts text into pieces of at most `length` code points (never inside a surrogate pair). */
export function splitIntoPieces(text: string, length: number): string[] {
  const codePoints = Array.from(text);
  const pieces: string[] = [];
  for (let start = 0; start < codePoints.length; start += length) pieces.push(codePoints.slice(start, start + length).join(''));
  return pieces;
}
