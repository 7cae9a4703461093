/**
 * Transcript export: words and structured rows only. Keys never appear; reasoning and calls keep their opaque carriers
 * verbatim so an import can replay them to the brain that made them.
 */
import type { ExportFormat, ExportResult, TurnError } from '../../../src-shared/api';
import { BRAINS, isBrainId } from '../../../src-shared/brains';
import {
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
  type TranscriptError,
  type TranscriptInvocationOpaque,
  type TranscriptMessage,
  type TranscriptReasoningOpaque,
  type TranscriptV1,
} from '../../../src-shared/transcript';
import { getConversation } from '../store/conversations';
import { listInvocationsByMessage } from '../store/invocations';
import { listAllMessages, type StoredReasoning } from '../store/messages';
import type { AppDatabase } from '../store/open';

export class ConversationNotFoundError extends Error {
  constructor(readonly conversationId: string) {
    super(`There is no conversation with id ${conversationId}.`);
    this.name = 'ConversationNotFoundError';
  }
}

/** A reply's error in the transcript's own spelling; the optional fields only where the reply had them. */
function transcriptErrorOf(error: TurnError): TranscriptError {
  return {
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterSeconds === undefined ? {} : { retry_after_seconds: error.retryAfterSeconds }),
    ...(error.limitTokens === undefined ? {} : { limit_tokens: error.limitTokens }),
    ...(error.requestTokens === undefined ? {} : { request_tokens: error.requestTokens }),
  };
}

export function buildTranscript(db: AppDatabase, conversationId: string): TranscriptV1 {
  const conversation = getConversation(db, conversationId);
  if (!conversation) throw new ConversationNotFoundError(conversationId);
  const rows = listAllMessages(db, conversationId);
  const invocations = listInvocationsByMessage(db, rows.map((row) => row.id));
  const messages: TranscriptMessage[] = rows.map((row) => {
    const base = {
      id: row.id,
      turn_id: row.turnId,
      role: row.role,
      kind: row.kind,
      text: row.text,
      created_at: row.createdAt,
      ...(row.kind === 'summary' && row.coversThroughId !== null ? { covers_through_id: row.coversThroughId } : {}),
    };
    if (row.role !== 'assistant') return base;
    const reasoning = row.reasoning as StoredReasoning | null;
    return {
      ...base,
      status: row.status,
      brain: row.brain,
      model_requested: row.modelRequested,
      model_responded: row.modelResponded,
      reasoning_level: row.reasoningLevel,
      ...(row.error ? { error: transcriptErrorOf(row.error as TurnError) } : {}),
      ...(reasoning ? { reasoning: { brain: reasoning.brain, model: reasoning.model, text: reasoning.text, opaque: reasoning.opaque as TranscriptReasoningOpaque } } : {}),
      tool_invocations: (invocations.get(row.id) ?? []).map((invocation) => ({
        id: invocation.id,
        kind: invocation.kind,
        server: invocation.server,
        tool: invocation.tool,
        provider_call_id: invocation.providerCallId,
        input: invocation.input ?? {},
        output: invocation.output,
        status: invocation.status,
        ...(invocation.opaque === null || invocation.opaque === undefined ? {} : { opaque: invocation.opaque as TranscriptInvocationOpaque }),
        ...(invocation.images && invocation.images.length > 0
          ? { images: invocation.images.map((image) => ({ mime_type: image.mimeType, data: image.data })) }
          : {}),
      })),
    };
  });
  return {
    format: TRANSCRIPT_FORMAT,
    version: TRANSCRIPT_VERSION,
    conversation: { id: conversation.id, title: conversation.title, created_at: conversation.createdAt },
    messages,
  };
}

function markdownOf(transcript: TranscriptV1): string {
  const lines = [`# ${transcript.conversation.title}`, ''];
  for (const message of transcript.messages) {
    if (message.role === 'system') {
      lines.push(`> *${message.kind === 'summary' ? 'Summary' : 'Notice'}:* ${message.text.replace(/\n/g, '\n> ')}`, '');
      continue;
    }
    const speaker = speakerOf(message);
    const status = message.status && message.status !== 'complete' ? ` — ${message.status}` : '';
    lines.push(`## ${speaker}${status}`, '', message.text, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function speakerOf(message: TranscriptMessage): string {
  if (message.role === 'user') return 'You';
  const label = isBrainId(message.brain) ? BRAINS[message.brain].label : 'Assistant';
  const model = message.model_responded ?? message.model_requested;
  return model ? `${label} (${model})` : label;
}

/**
 * A standalone page; every text is escaped, so model output cannot add markup or script. The CSP is the second
 * line: `default-src` does not cover `base-uri` or `form-action`, so those are closed by name.
 */
function htmlOf(transcript: TranscriptV1): string {
  const rows = transcript.messages.map((message) => {
    if (message.role === 'system') {
      return `<p class="system">${escapeHtml(message.kind === 'summary' ? 'Summary' : 'Notice')}: ${escapeHtml(message.text)}</p>`;
    }
    const status = message.status && message.status !== 'complete' ? ` <span class="status">${escapeHtml(message.status)}</span>` : '';
    return `<section class="${message.role}"><h2>${escapeHtml(speakerOf(message))}${status}</h2><div class="text">${escapeHtml(message.text)}</div></section>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<title>${escapeHtml(transcript.conversation.title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}h1{font-size:1.4rem}h2{font-size:.85rem;color:#555;margin:0 0 .25rem}section{margin:1.25rem 0;padding:.75rem 1rem;border-radius:10px}.user{background:#eef3ff}.assistant{background:#f6f6f6}.text{white-space:pre-wrap}.system{color:#666;font-style:italic;text-align:center}.status{color:#a33}</style>
</head><body><h1>${escapeHtml(transcript.conversation.title)}</h1>
${rows.join('\n')}
</body></html>
`;
}

function safeFileName(title: string): string {
  const cleaned = title.replace(/[^\p{L}\p{N} _-]+/gu, '').trim().replace(/\s+/g, '-');
  return (cleaned || 'conversation').slice(0, 80);
}

export function exportConversation(db: AppDatabase, conversationId: string, format: ExportFormat): ExportResult {
  const transcript = buildTranscript(db, conversationId);
  const base = safeFileName(transcript.conversation.title);
  switch (format) {
    case 'json':
      return { filename: `${base}.json`, mimeType: 'application/json', content: `${JSON.stringify(transcript, null, 2)}\n` };
    case 'md':
      return { filename: `${base}.md`, mimeType: 'text/markdown', content: markdownOf(transcript) };
    case 'html':
      return { filename: `${base}.html`, mimeType: 'text/html', content: htmlOf(transcript) };
    default: {
      const unreachable: never = format;
      throw new Error(`Unknown export format ${String(unreachable)}`);
    }
  }
}
