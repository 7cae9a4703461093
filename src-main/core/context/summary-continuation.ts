/**
 * A compaction written by the target itself, as a continuation of its own request: the history to summarise sent
 * exactly as the target's turn sends it (the same system text, tools, reasoning level, cache key, and the summary and
 * rows it starts with), then one user message asking for the summary. The start of that request is the start of the
 * requests the target was sent before, so the provider's prompt cache serves its input. A span the target's window
 * cannot hold in one request is summarised in parts as a plain transcript instead (summary-body.ts).
 */
import { BRAINS } from '../../../src-shared/brains';
import type { ResolvedWindow } from '../../../src-shared/context-windows';
import { LONG_HISTORY_ROWS, nextEventLoopTurn } from '../engine/event-loop-turn';
import type { RequestBodyEncoder } from '../engine/request-body-encoder';
import type { ResolvedTarget } from '../engine/resolve-target';
import { buildRequestBody, requestOverhead, type AttachmentFileReader, type RequestBody } from '../engine/turn-request';
import type { CompactionSpan } from '../store/compaction';
import { listLiveMessagesBetween, type MessageRow } from '../store/messages';
import type { AppDatabase } from '../store/open';
import type { ToolDefinition } from '../tools/catalogue';
import type { Skill } from '../tools/skills';
import { inputBudget, replyTokens, WIRE_MESSAGE_FRAMING_TOKENS } from './pressure';
import { summaryContinuationText } from './summary-prompt';
import { estimateTokens } from './token-estimate';
import type { ContextLines } from '../../../src-shared/context-windows';

/** What the target's own request declares beside its history. */
export interface TargetRequest {
  readonly tools: readonly ToolDefinition[];
  readonly skills: readonly Skill[];
}

export interface ContinuationDependencies {
  readonly db: AppDatabase;
  /** Attached files' bytes, so attachments replay as the target's turns send them. */
  readonly readAttachmentFile?: AttachmentFileReader;
  readonly requestBodies?: RequestBodyEncoder;
}

export interface ContinuationOrder {
  readonly conversationId: string;
  readonly target: ResolvedTarget;
  readonly request: TargetRequest;
  readonly span: CompactionSpan;
  /** The target's window, as the turn measures it. */
  readonly window: ResolvedWindow;
  readonly lines: ContextLines;
  readonly wordLimit: number;
}

/** The span's rows, read a page at a time with a turn of the event loop between pages. */
async function spanRows(db: AppDatabase, conversationId: string, span: CompactionSpan): Promise<MessageRow[]> {
  const rows: MessageRow[] = [];
  for (let afterSeq = span.afterSeq; ; ) {
    const page = listLiveMessagesBetween(db, conversationId, afterSeq, span.throughSeq, LONG_HISTORY_ROWS);
    rows.push(...page);
    if (page.length < LONG_HISTORY_ROWS) return rows;
    afterSeq = page[page.length - 1]!.seq;
    await nextEventLoopTurn();
  }
}

/** The tokens the continuation would hold, in the guard's measure. */
export function continuationTokens(order: ContinuationOrder): number {
  const { target, request, span } = order;
  const framing = WIRE_MESSAGE_FRAMING_TOKENS[BRAINS[target.brain].wire];
  const previous = span.previousSummary === null ? 0 : span.previousSummary.tokenEstimate + framing;
  const instruction = estimateTokens(summaryContinuationText(order.wordLimit)) + framing;
  return requestOverhead(target, request.tools, request.skills) + span.tokens + span.rows * framing + previous + instruction;
}

/** The continuation's body, or null when the span and the request around it do not fit the target's input budget. */
export async function continuationBody(deps: ContinuationDependencies, order: ContinuationOrder): Promise<RequestBody | null> {
  if (continuationTokens(order) > inputBudget(order.window, order.lines)) return null;
  const { db } = deps;
  const { conversationId, target, request, span } = order;
  const rows = await spanRows(db, conversationId, span);
  const history = span.previousSummary === null ? rows : [span.previousSummary, ...rows];
  const instruction = { messageId: 'compaction', role: 'user' as const, kind: 'chat' as const, text: summaryContinuationText(order.wordLimit), calls: [] };
  return buildRequestBody(
    db,
    {
      conversationId,
      target,
      rows: history,
      tools: request.tools,
      skills: request.skills,
      pending: [instruction],
      maxOutputTokens: replyTokens(order.window),
      contextWindow: order.window.contextWindow,
    },
    deps.requestBodies,
    deps.readAttachmentFile,
  );
}
