/**
 * Scripted replies: what a fake brain answers is decided only by directives in the last user message's text, so a
 * test states the behaviour it needs in the prompt it sends.
 */

export const DEFAULT_DELAY_MS = 5;
export const SLOW_DELAY_MS = 100;
export const SLOW_CHUNK_COUNT = 60;
const ECHO_LIMIT = 200;

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

export interface Directives {
  readonly slow: boolean;
  readonly empty: boolean;
  readonly markdown: boolean;
  readonly errorMidstream: boolean;
  readonly drop: boolean;
  readonly tooLarge: boolean;
  readonly model: string | null;
  readonly status: number | null;
  readonly reply: string | null;
}

/** How the reply ends once its text has streamed (or part of it, for the failure endings). */
export type ReplyEnding = 'complete' | 'error-midstream' | 'drop';

export interface ReplyPlan {
  /** An HTTP error to answer instead of a stream. */
  readonly failure: { readonly kind: 'status'; readonly status: number } | { readonly kind: 'too-large' } | null;
  readonly text: string;
  /** The text in the pieces it streams in; joined they give `text`. */
  readonly chunks: readonly string[];
  readonly delayMs: number;
  /** The model the reply announces. */
  readonly model: string;
  readonly ending: ReplyEnding;
  /** How many chunks go out before a failure ending. */
  readonly chunksBeforeEnding: number;
}

export function parseDirectives(userText: string): Directives {
  const flag = (name: string): boolean => userText.includes(`[${name}]`);
  const status = /\[status:(\d{3})\]/.exec(userText);
  const model = /\[model:([^\]]+)\]/.exec(userText);
  const reply = /\[reply:([^\]]*)\]/.exec(userText);
  return {
    slow: flag('slow'),
    empty: flag('empty'),
    markdown: flag('markdown'),
    errorMidstream: flag('error-midstream'),
    drop: flag('drop'),
    tooLarge: flag('too-large'),
    model: model?.[1]?.trim() || null,
    status: status?.[1] === undefined ? null : Number(status[1]),
    reply: reply?.[1] === undefined ? null : reply[1].replace(/\\n/g, '\n'),
  };
}

export function planReply(input: { readonly label: string; readonly userText: string; readonly requestedModel: string }): ReplyPlan {
  const directives = parseDirectives(input.userText);
  const failure = directives.status !== null ? { kind: 'status' as const, status: directives.status } : directives.tooLarge ? { kind: 'too-large' as const } : null;
  const text = replyText(directives, input.label, input.userText);
  const chunks = splitIntoChunks(text);
  const ending: ReplyEnding = directives.drop ? 'drop' : directives.errorMidstream ? 'error-midstream' : 'complete';
  return {
    failure,
    text,
    chunks,
    delayMs: directives.slow ? SLOW_DELAY_MS : DEFAULT_DELAY_MS,
    model: directives.model ?? input.requestedModel,
    ending,
    chunksBeforeEnding: ending === 'complete' ? chunks.length : Math.ceil(chunks.length / 2),
  };
}

function replyText(directives: Directives, label: string, userText: string): string {
  if (directives.empty) return '';
  if (directives.reply !== null) return directives.reply;
  if (directives.markdown) return MARKDOWN_REPLY;
  if (directives.slow) return Array.from({ length: SLOW_CHUNK_COUNT }, (_, index) => `word${index + 1}`).join(' ');
  return `Fake ${label} reply to: ${userText.slice(0, ECHO_LIMIT)}`;
}

/** Splits before each space, so every chunk but the first starts with the space that separated it. */
export function splitIntoChunks(text: string): string[] {
  return text === '' ? [] : text.split(/(?= )/);
}
