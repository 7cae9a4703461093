/**
 * The HTML projection of a transcript: one self-contained page that reads like the window. Replies and summaries
 * render as sanitised Markdown (render-markdown.ts), the user's words and notices as text; receipts and calls come
 * from the invocation rows. Every piece of model, tool and user text is escaped or sanitised; the page holds no
 * script and loads nothing (the user's attached images are inside it as data: URLs), and its CSP is the second line
 * should either ever fail.
 */
import { buildReceipt } from '../../../src-shared/receipt';
import type { TranscriptInvocation, TranscriptMessage, TranscriptV1 } from '../../../src-shared/transcript';
import PAGE_STYLE from './export-page.css?raw';
import type { BranchWalkStep } from './transcript-tree';
import {
  alternativeLabel,
  branchWalk,
  brainLabel,
  callInputText,
  cutCallText,
  cutNote,
  INVOCATION_KIND_LABELS,
  modelLabel,
  readableTime,
  statusSentence,
  type ProjectionOptions,
} from './export-markdown';
import { attachmentFacts, isShownImage } from './export-attachments';
import { escapeHtml, plainTextHtml, renderMarkdown } from './render-markdown';

/**
 * `default-src 'none'` allows no script, fetch, font or frame; styles only inline; images only from data: URLs, which
 * the page's own attachment elements alone carry (the Markdown renderer shows a model's images as their description,
 * so no model text reaches an image source). `default-src` does not cover `base-uri` or `form-action`, so those are
 * closed by name.
 */
export const EXPORT_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/**
 * A message's attachments: an image the transcript carries as the image itself (a data: URL of one of the raster
 * types, its bytes checked base64), every other file, and an image left out, as its name with what it was.
 */
function attachmentsHtml(message: TranscriptMessage): string {
  const attachments = message.attachments ?? [];
  if (attachments.length === 0) return '';
  const items = attachments.map((attachment) => {
    const name = escapeHtml(attachment.name);
    if (attachment.data_base64 !== undefined && isShownImage(attachment)) {
      const source = `data:${attachment.media_type};base64,${escapeHtml(attachment.data_base64)}`;
      return `<figure class="attachment-image"><img src="${source}" alt="${name}"><figcaption>${name}</figcaption></figure>`;
    }
    const left = attachment.data_base64 === undefined ? '; not included in this export' : '';
    return `<p class="attachment-file"><span class="attachment-name">${name}</span> <span class="note">(${escapeHtml(attachmentFacts(attachment))}${left})</span></p>`;
  });
  return `<div class="attachments">${items.join('')}</div>`;
}

function timeHtml(iso: string | undefined): string {
  const time = readableTime(iso);
  return time === null ? '' : ` <span class="time">${escapeHtml(time)}</span>`;
}

function callTextHtml(text: string, language: 'json' | 'text'): string {
  const cut = cutCallText(text);
  const code = `<pre><code class="language-${language}">${escapeHtml(cut?.shown ?? text)}</code></pre>`;
  return cut === null ? code : `${code}<p class="note">${escapeHtml(cutNote(cut.shown.length, cut.total))}</p>`;
}

function callHtml(invocation: TranscriptInvocation, label: string): string {
  const status = invocation.status === 'ok' ? '' : ` <span class="chip ${invocation.status}">${invocation.status}</span>`;
  const parts = [`<summary>${INVOCATION_KIND_LABELS[invocation.kind]}: <strong>${escapeHtml(label)}</strong>${status}</summary>`];
  const input = callInputText(invocation.input);
  if (input !== null) parts.push(`<p class="call-part">Input</p>${callTextHtml(input, 'json')}`);
  const output = invocation.output ?? null;
  parts.push('<p class="call-part">Output</p>');
  if (output === null) parts.push('<p class="note">No output.</p>');
  else if (output === '') parts.push('<p class="note">Empty output.</p>');
  else parts.push(callTextHtml(output, 'text'));
  const images = invocation.images?.length ?? 0;
  if (images > 0) parts.push(`<p class="note">${images === 1 ? 'One image' : `${images} images`} in the output, kept in the JSON export.</p>`);
  return `<details class="call">${parts.join('')}</details>`;
}

function receiptHtml(invocations: readonly TranscriptInvocation[]): string {
  if (invocations.length === 0) return '';
  const receipt = buildReceipt(invocations.map((invocation) => ({ ...invocation, server: invocation.server ?? null })));
  const chips = receipt.chips.map((chip) => `<span class="chip ${chip.status}">${escapeHtml(chip.label)}</span>`);
  const calls = receipt.chips.map((chip, index) => callHtml(invocations[index]!, chip.label));
  return `<div class="receipt"><span class="receipt-summary">${escapeHtml(receipt.summary)}</span>${chips.join('')}</div>\n${calls.join('\n')}`;
}

/** Where every branch is shown, each message's number: the anchor the labels of alternatives link to. */
function numberHtml(number: number | null): { id: string; label: string } {
  return number === null ? { id: '', label: '' } : { id: ` id="message-${number}"`, label: `<span class="number">${number}</span> ` };
}

function messageHtml(message: TranscriptMessage, options: ProjectionOptions, number: number | null = null): string {
  const numbered = numberHtml(number);
  if (message.role === 'system') {
    const label = message.kind === 'summary' ? 'Summary of earlier messages' : 'System notice';
    const body = message.kind === 'summary' ? `<div class="markdown">${renderMarkdown(message.text)}</div>` : plainTextHtml(message.text);
    return `<aside class="system ${message.kind}"${numbered.id}><p class="system-label">${numbered.label}${label}${timeHtml(message.created_at)}</p>${body}</aside>`;
  }
  if (message.role === 'user') {
    return `<article class="message user"${numbered.id}><h2 class="speaker">${numbered.label}You${timeHtml(message.created_at)}</h2>${plainTextHtml(message.text)}${attachmentsHtml(message)}</article>`;
  }
  const model = modelLabel(message);
  const heading = `<h2 class="speaker">${numbered.label}${escapeHtml(brainLabel(message))}${model === null ? '' : ` <span class="model">${escapeHtml(model)}</span>`}${timeHtml(message.created_at)}</h2>`;
  const status = message.status ?? 'complete';
  const parts = [heading];
  const sentence = statusSentence(message);
  if (sentence !== null) parts.push(`<p class="status ${status}">${escapeHtml(sentence)}</p>`);
  const reasoning = message.reasoning?.text ?? '';
  if (options.includeReasoning && reasoning.trim() !== '') {
    parts.push(`<details class="reasoning"><summary>Reasoning</summary><div class="markdown">${renderMarkdown(reasoning)}</div></details>`);
  }
  if (message.text.trim() !== '') parts.push(`<div class="markdown">${renderMarkdown(message.text)}</div>`);
  parts.push(attachmentsHtml(message));
  if (options.includeTools) parts.push(receiptHtml(message.tool_invocations ?? []));
  return `<article class="message assistant status-${status}"${numbered.id}>${parts.filter((part) => part !== '').join('\n')}</article>`;
}

export function htmlOf(transcript: TranscriptV1, options: ProjectionOptions): string {
  const title = transcript.conversation.title || 'Untitled conversation';
  const started = readableTime(transcript.conversation.created_at);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head><body><main>
<header><h1>${escapeHtml(title)}</h1>${started === null ? '' : `<p class="started">Started ${escapeHtml(started)}</p>`}</header>
${messagesHtml(transcript, options)}
</main></body></html>
`;
}

function messagesHtml(transcript: TranscriptV1, options: ProjectionOptions): string {
  const walk = branchWalk(transcript, options);
  if (walk === null) return transcript.messages.map((message) => messageHtml(message, options)).join('\n');
  return walk.map((step) => branchStepHtml(step, options)).join('\n');
}

/** Every branch: each alternative a labelled section holding what follows it, nested where it forks again. */
function branchStepHtml(step: BranchWalkStep, options: ProjectionOptions): string {
  switch (step.type) {
    case 'alternative-start': {
      const label = alternativeLabel(step, (number) => `<a href="#message-${number}">message ${number}</a>`);
      return `<section class="alternative${step.current ? ' current' : ''}"><p class="alternative-label">${label}</p>`;
    }
    case 'alternative-end':
      return '</section>';
    case 'message':
      return messageHtml(step.message, options, step.number);
    default: {
      const unreachable: never = step;
      throw new Error(`Unknown branch step ${String(unreachable)}`);
    }
  }
}
