/**
 * What a summarising brain is asked: a system prompt, and one user message holding the rows it summarises as a plain
 * transcript (tool calls included, cut as for replay) and the instruction. A plain transcript is valid on every wire:
 * no native call shapes to pair, no tools to declare, no reasoning to carry.
 */
import { imageDimensions } from '../../../src-shared/attachments';
import { BRAINS, isBrainId } from '../../../src-shared/brains';
import { cutAnswer, cutInput } from '../replay/call-shaping';
import type { ReplayTurn } from '../replay/types';

/** The first words of every compaction request's system prompt. */
export const SUMMARY_REQUEST_MARKER = '[Anybrain compaction request]';

export function summarySystemPrompt(): string {
  return [
    SUMMARY_REQUEST_MARKER,
    'You summarise the earlier part of a conversation between a user and one or more AI assistants, so that an assistant',
    'can carry the conversation on without the messages themselves. You write only the summary; you do not answer the user.',
  ].join('\n');
}

/** Continuation lines are indented, so only a message's first line starts with its speaker. */
function indent(text: string): string {
  return text.replace(/\r?\n/g, '\n  ');
}

function speaker(turn: ReplayTurn): string {
  switch (turn.role) {
    case 'user':
      return 'User';
    case 'assistant': {
      const label = turn.brain !== undefined && isBrainId(turn.brain) ? BRAINS[turn.brain].label : 'Assistant';
      return turn.model ? `${label} (${turn.model})` : label;
    }
    case 'system-line':
      return turn.kind === 'summary' ? 'Summary of what came before' : `System line (${turn.kind})`;
    default: {
      const unreachable: never = turn.role;
      throw new Error(`Unknown replay role ${String(unreachable)}`);
    }
  }
}

/** One replay turn as transcript lines: the speaker, its calls (they came before its words), then its words. */
export function transcriptLines(turn: ReplayTurn): string {
  const calls = turn.calls.map((call) => {
    const outcome = call.isError ? 'failed' : 'answered';
    return `  Tool call ${call.name} ${JSON.stringify(cutInput(call.input).input)} ${outcome}: ${indent(cutAnswer(call.answer))}`;
  });
  const attached = (turn.attachments ?? []).map((attachment) => {
    const dimensions = imageDimensions(attachment.width, attachment.height);
    const kind = attachment.kind === 'image' ? 'image' : attachment.kind === 'pdf' ? 'PDF' : 'text file';
    return `  Attached ${kind} ${attachment.name}${dimensions === null ? '' : ` (${dimensions})`}`;
  });
  const text = turn.text.trim();
  if (calls.length === 0 && attached.length === 0) return `${speaker(turn)}: ${indent(text)}`;
  return [`${speaker(turn)}:`, ...attached, ...calls, ...(text.length > 0 ? [`  ${indent(text)}`] : [])].join('\n');
}

/** What a summary keeps and how it reads, the same words in both forms of the request. */
const WHAT_TO_KEEP = [
  'Keep what the conversation',
  'needs to go on: what the user wants and prefers, decisions made, facts, names, numbers, code and file names,',
  'what each tool call did and what it found, and the questions still open. Write it as notes in the third person',
  '("The user asked…", "Claude read…"). Reply with the summary only.',
].join('\n');

/** The user message of a compaction request: the transcript, then what to write and how long. */
export function summaryRequestText(transcript: string, wordLimit: number): string {
  return [
    'Here is the earlier part of the conversation:',
    '',
    '<transcript>',
    transcript,
    '</transcript>',
    '',
    `Summarise it in at most ${wordLimit} words, in the language the conversation is in. ${WHAT_TO_KEEP}`,
  ].join('\n');
}

/**
 * The user message that ends a compaction request written as a continuation of the target's own request
 * (summary-continuation.ts): the history above it is the part to summarise. It starts with SUMMARY_REQUEST_MARKER, as
 * the other form's system prompt does, so the request says what it is wherever it is read.
 */
export function summaryContinuationText(wordLimit: number): string {
  return [
    SUMMARY_REQUEST_MARKER,
    'The conversation above is about to leave your context window, and a summary will stand for it. Do not answer its',
    'last message and do not call any tool: summarise the whole conversation above in at most',
    `${wordLimit} words, in the language the conversation is in. ${WHAT_TO_KEEP}`,
  ].join('\n');
}
