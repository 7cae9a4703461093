/**
 * The Markdown projection of a transcript: what was said and done, computed from rows at export time. Speakers,
 * brains and served models are plain headings; calls and reasoning come from their rows, never from the words; no
 * HTML and no window chrome is added. The user's words and notices were plain text in the window, so they are
 * escaped to show exactly the characters typed; replies and summaries were Markdown, so they stay Markdown.
 */
import { chipLabel } from '../../../src-shared/receipt';
import { BRAINS, isBrainId } from '../../../src-shared/brains';
import { isSameModel } from '../../../src-shared/models/same-model';
import { closesFence, fenceOpenedBy, type OpenFence } from '../../../src-shared/markdown/split-blocks';
import type { ExportBranches } from '../../../src-shared/api';
import type { TranscriptInvocation, TranscriptMessage, TranscriptV1 } from '../../../src-shared/transcript';
import { attachmentFacts, attachmentPath, isShownImage, markdownLinkPath, type AttachmentPlacement } from './export-attachments';
import { isTreeIssue, transcriptTree, walkBranches, type BranchWalkStep } from './transcript-tree';
import { formatCount } from '../../../src-shared/format-count';

export interface ProjectionOptions {
  readonly includeTools: boolean;
  readonly includeReasoning: boolean;
  /** `all`: the transcript's every branch, laid out by `branchWalk`; `live`: its messages in file order. */
  readonly branches: ExportBranches;
  /**
   * Markdown: where the attachments whose bytes the transcript carries are written, beside the exported file. Absent:
   * none is written, and each attachment is named with a note.
   */
  readonly attachmentPlacement?: AttachmentPlacement;
}

/**
 * The walk of every branch, numbered, when the transcript has alternatives; null when it has none (or its branches
 * cannot be followed), so its messages read in file order as ever.
 */
export function branchWalk(transcript: TranscriptV1, options: ProjectionOptions): BranchWalkStep[] | null {
  if (options.branches === 'live') return null;
  const tree = transcriptTree(transcript);
  if (isTreeIssue(tree)) return null;
  const steps = walkBranches(transcript, tree);
  return steps.some((step) => step.type === 'alternative-start') ? steps : null;
}

/** "Alternative 2 of 3 after message 4 (current branch)": where an alternative starts, before its first message. */
export function alternativeLabel(step: Extract<BranchWalkStep, { type: 'alternative-start' }>, messageName: (number: number) => string): string {
  const where = step.after === null ? 'at the start' : `after ${messageName(step.after)}`;
  return `Alternative ${step.index} of ${step.count} ${where}${step.current ? ' (current branch)' : ''}`;
}

/** A call's input or output longer than this is cut in Markdown and HTML; the JSON export keeps it whole. */
export const MAX_CALL_TEXT_LENGTH = 2_000;

/** "2026-12-01 12:00 UTC": readable, and the same on every machine (no local zone, no locale). */
export function readableTime(iso: string | undefined): string | null {
  if (iso === undefined) return null;
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : null;
}

/** "Kimi", or "Assistant" for a brain this version does not know. */
export function brainLabel(message: TranscriptMessage): string {
  return isBrainId(message.brain) ? BRAINS[message.brain].label : 'Assistant';
}

/** The served model, with the requested one when the provider served another. */
export function modelLabel(message: TranscriptMessage): string | null {
  const requested = message.model_requested ?? null;
  const served = message.model_responded ?? null;
  if (served === null) return requested;
  if (requested === null || isSameModel(requested, served)) return served;
  return `${served} (asked for ${requested})`;
}

/** A reply's status as a sentence, or null when it completed. */
export function statusSentence(message: TranscriptMessage): string | null {
  const status = message.status ?? 'complete';
  const error = message.error?.message;
  switch (status) {
    case 'complete':
      return null;
    case 'streaming':
      return 'Still being written when exported.';
    case 'stopped':
      return 'Stopped by the user; the text below is what was shown.';
    case 'interrupted':
      return error ? `Interrupted: ${error}` : 'Interrupted: the app closed during this reply.';
    case 'failed':
      if (message.error?.code === 'refusal') return error ? `Declined: ${error}` : 'Declined.';
      return error ? `Failed: ${error}` : 'Failed.';
    default: {
      const unreachable: never = status;
      throw new Error(`Unknown message status ${String(unreachable)}`);
    }
  }
}

export const INVOCATION_KIND_LABELS: Record<TranscriptInvocation['kind'], string> = {
  tool: 'Tool call',
  memory: 'Memory',
  skill: 'Skill',
};

/** An input this short reads best on one line; longer ones are indented. */
const COMPACT_INPUT_LENGTH = 100;

/** A call's input as the readable JSON it was, or null for an empty input. */
export function callInputText(input: unknown): string | null {
  if (input === undefined || input === null) return null;
  if (typeof input === 'object' && !Array.isArray(input) && Object.keys(input).length === 0) return null;
  const compact = JSON.stringify(input);
  return compact.length <= COMPACT_INPUT_LENGTH ? compact : JSON.stringify(input, null, 2);
}

/**
 * The first `MAX_CALL_TEXT_LENGTH` characters, ended at a line break when one falls in the last quarter, never inside
 * a surrogate pair; null when nothing was cut.
 */
export function cutCallText(text: string, limit: number = MAX_CALL_TEXT_LENGTH): { shown: string; total: number } | null {
  if (text.length <= limit) return null;
  let end = limit;
  const lineBreak = text.lastIndexOf('\n', limit);
  if (lineBreak >= limit * 0.75) end = lineBreak;
  const before = text.charCodeAt(end - 1);
  if (before >= 0xd800 && before <= 0xdbff) end -= 1;
  return { shown: text.slice(0, end), total: text.length };
}

/** "Cut: the first 1,980 of 15,340 characters are shown." */
export function cutNote(shownLength: number, total: number): string {
  return `Cut: the first ${formatCount(shownLength)} of ${formatCount(total)} characters are shown.`;
}

/** A backtick fence longer than any backtick run in the content, so no line of it can close the block early. */
export function fenced(content: string, info: string): string {
  let longest = 0;
  for (const run of content.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${content.replace(/\n$/, '')}\n${fence}`;
}

/**
 * Text for one heading line or label: inline constructs (code, emphasis, links, HTML, entities, tables) and a closing
 * `#` sequence escaped, line breaks folded, so a model name or title shows as typed.
 */
export function escapeInline(text: string): string {
  return escapePunctuation(text.replace(/[\r\n]+/g, ' ')).replace(/#/g, '\\#').trim();
}

/**
 * Backslash before each character that can open an inline construct. An underscore between two letters or digits
 * opens no emphasis (CommonMark's flanking rule), so `read_file` stays as typed.
 */
function escapePunctuation(text: string): string {
  return text.replace(/[\\`*[\]<>&~|!]/g, '\\$&').replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_');
}

/**
 * Plain text (the user's words, a notice) as Markdown that every renderer shows as exactly these characters: inline
 * and line-start constructs escaped, each line break a hard break, blank lines paragraph breaks. Leading spaces
 * become no code block: a paragraph's first line may not open with four of them (CommonMark indented code).
 */
export function plainTextAsMarkdown(text: string): string {
  const paragraphs = text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n+/);
  return paragraphs
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => escapeLineStart(escapePunctuation(line.replace(/^[ \t]+/, ''))))
        .filter((line, index, lines) => line !== '' || (index > 0 && index < lines.length - 1))
        .join('\\\n'),
    )
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
}

/** Headings, list markers, setext underlines and thematic breaks at a line's start, escaped. */
function escapeLineStart(line: string): string {
  const ordered = /^(\d{1,9})([.)])/.exec(line);
  if (ordered) return `${ordered[1]}\\${line.slice(ordered[1]!.length)}`;
  if (/^[#+\-=]/.test(line)) return `\\${line}`;
  return line;
}

/**
 * Markdown whose last code fence is closed. In the window a reply renders alone, so a fence it leaves open ends with
 * it; in one document the open fence would swallow every message after it.
 */
export function closeOpenFence(markdown: string): string {
  let open: OpenFence | null = null;
  for (const line of markdown.split('\n')) {
    if (open === null) {
      const opening = fenceOpenedBy(line);
      open = opening !== null && opening.indent <= 3 ? opening : null;
    } else if (closesFence(line, open)) {
      open = null;
    }
  }
  return open === null ? markdown : `${markdown}\n${open.marker.repeat(open.length)}`;
}

/** A blockquote of the given Markdown: every line prefixed, so nothing in it can end the quote early. */
function quoted(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}

function speakerHeading(message: TranscriptMessage, number: number | null): string {
  const time = readableTime(message.created_at);
  const speaker =
    message.role === 'user'
      ? ['You']
      : message.role === 'assistant'
        ? [brainLabel(message), ...(modelLabel(message) === null ? [] : [modelLabel(message)!])]
        : [message.kind === 'summary' ? 'Summary of earlier messages' : 'System notice'];
  return `## ${[...(number === null ? [] : [String(number)]), ...speaker.map(escapeInline), ...(time === null ? [] : [time])].join(' · ')}`;
}

function callSection(invocation: TranscriptInvocation): string {
  const label = escapeInline(chipLabel(invocation.server ?? null, invocation.tool));
  const status = invocation.status === 'ok' ? '' : ` (${invocation.status})`;
  const blocks = [`#### ${INVOCATION_KIND_LABELS[invocation.kind]}: ${label}${status}`];
  const input = callInputText(invocation.input);
  if (input !== null) {
    const cut = cutCallText(input);
    blocks.push(fenced(cut?.shown ?? input, 'json'));
    if (cut) blocks.push(`*${cutNote(cut.shown.length, cut.total)}*`);
  }
  const output = invocation.output ?? null;
  if (output === null) blocks.push('*No output.*');
  else if (output === '') blocks.push('*Empty output.*');
  else {
    const cut = cutCallText(output);
    blocks.push(fenced(cut?.shown ?? output, 'text'));
    if (cut) blocks.push(`*${cutNote(cut.shown.length, cut.total)}*`);
  }
  const images = invocation.images?.length ?? 0;
  if (images > 0) blocks.push(`*${images === 1 ? 'One image' : `${images} images`} in the output, kept in the JSON export.*`);
  return blocks.join('\n\n');
}

/**
 * A message's attachments, one paragraph each: an image written beside the export as an image, another file as a
 * link with its media type and size, and one the export does not carry named with a note saying so.
 */
function attachmentBlocks(message: TranscriptMessage, placement: AttachmentPlacement | undefined): string[] {
  return (message.attachments ?? []).map((attachment) => {
    const path = placement === undefined ? null : attachmentPath(placement, attachment);
    const name = escapeInline(attachment.name);
    if (path === null) return `*Attached: ${name} (${attachmentFacts(attachment)}), not included in this export.*`;
    if (isShownImage(attachment)) return `![${name}](${markdownLinkPath(path)})`;
    return `Attached: [${name}](${markdownLinkPath(path)}) (${attachmentFacts(attachment)})`;
  });
}

function messageSection(message: TranscriptMessage, options: ProjectionOptions, number: number | null = null): string {
  const blocks = [speakerHeading(message, number)];
  if (message.role === 'system') {
    blocks.push(quoted(message.kind === 'summary' ? closeOpenFence(message.text) : plainTextAsMarkdown(message.text)));
    return blocks.join('\n\n');
  }
  if (message.role === 'user') {
    blocks.push(plainTextAsMarkdown(message.text), ...attachmentBlocks(message, options.attachmentPlacement));
    return blocks.filter((block) => block !== '').join('\n\n');
  }
  const status = statusSentence(message);
  if (status !== null) blocks.push(`**${escapeInline(status)}**`);
  const reasoning = message.reasoning?.text ?? '';
  if (options.includeReasoning && reasoning.trim() !== '') blocks.push(quoted(`**Reasoning**\n\n${closeOpenFence(reasoning)}`));
  if (options.includeTools) for (const invocation of message.tool_invocations ?? []) blocks.push(callSection(invocation));
  if (message.text.trim() !== '') blocks.push(closeOpenFence(message.text.replace(/\s+$/, '')));
  blocks.push(...attachmentBlocks(message, options.attachmentPlacement));
  return blocks.join('\n\n');
}

export function markdownOf(transcript: TranscriptV1, options: ProjectionOptions): string {
  const started = readableTime(transcript.conversation.created_at);
  const head = [`# ${escapeInline(transcript.conversation.title) || 'Untitled conversation'}`, ...(started === null ? [] : [`Started ${started}.`])];
  // A thematic break between messages: a reply's own headings cannot run into the next speaker's.
  const walk = branchWalk(transcript, options);
  const sections = walk === null ? transcript.messages.map((message) => messageSection(message, options)) : branchSections(walk, options);
  return `${[head.join('\n\n'), ...sections].join('\n\n---\n\n')}\n`;
}

/**
 * Every branch as one document: numbered messages, depth first, and before each alternative's first message a line
 * naming its place among the alternatives and the message they follow.
 */
function branchSections(walk: readonly BranchWalkStep[], options: ProjectionOptions): string[] {
  const sections: string[] = [];
  let label: string | null = null;
  for (const step of walk) {
    switch (step.type) {
      case 'alternative-start':
        label = `*${alternativeLabel(step, (number) => `message ${number}`)}.*`;
        break;
      case 'alternative-end':
        break;
      case 'message': {
        const section = messageSection(step.message, options, step.number);
        sections.push(label === null ? section : `${label}\n\n${section}`);
        label = null;
        break;
      }
      default: {
        const unreachable: never = step;
        throw new Error(`Unknown branch step ${String(unreachable)}`);
      }
    }
  }
  return sections;
}
