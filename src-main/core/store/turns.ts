/**
 * A turn's two writes, each one transaction: admission (the user row, the streaming reply row, the context the app
 * brought, the conversation's title and time) and finishing (the reply's final row, its counters, the brain's usage
 * snapshot, the conversation's time). Between them the reply row is only checkpointed.
 */
import { ApiError, type ConversationView, type TurnError, type Usage } from '../../../src-shared/api';
import type { BrainId, ReasoningLevel } from '../../../src-shared/brains';
import { attachmentTokenCeiling } from '../context/attachment-tokens';
import { estimateMessageTokens } from '../context/token-estimate';
import { attachmentRowsOfMessages, copyAttachments, linkAttachments, pendingAttachments, type AttachmentRow } from './attachments';
import { newId } from './clock';
import { DEFAULT_TITLE, getConversation, updateConversation } from './conversations';
import { titleFromMessage } from './titles';
import { insertInvocation, type InvocationRow } from './invocations';
import { finishMessage, getMessage, hasUserMessage, insertMessage, nextSeq, type FinishedMessage, type MessageRow, type StoredReasoning } from './messages';
import { inTransaction, type AppDatabase } from './open';
import { incrementCounter, saveBrainState } from './settings';
import { releaseTurnLease, releaseTurnLeaseOf, takeTurnLease, type LeaseHolder, type TurnLeaseRequest } from './turn-leases';

export { titleFromMessage };

/** Something the app itself brings to a turn: a skill the user started with `/name`, or a recalled memory. */
export interface TurnContextEntry {
  readonly kind: 'skill' | 'memory';
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly output: string;
}

/** The files a new user message carries: pending attachments to link, or an edited message's to keep. */
export interface TurnAttachments {
  /** Pending attachments (from addAttachment), linked to the new user row in the admission's transaction. */
  readonly link?: readonly string[];
  /** An edited message: its attachments are copied onto the new user row beside it. */
  readonly copyFrom?: string;
}

export interface TurnAdmission {
  readonly conversationId: string;
  readonly turnId: string;
  /** The user's new message, or null to answer the last user message again. */
  readonly userText: string | null;
  /**
   * The message the turn's first new row follows; absent, the current leaf. An edit names the edited message's parent
   * (the new message goes beside it); an answer again names the user message (the new reply goes beside its replies).
   */
  readonly parentId?: string | null;
  /** The files the new user message carries; ignored on a retry. */
  readonly attachments?: TurnAttachments;
  readonly brain: BrainId;
  readonly model: string;
  readonly reasoningLevel: ReasoningLevel;
  /** Who writes the streaming reply (`pid@host`), so other processes leave it alone. */
  readonly streamOwner: string | null;
  /** Stored as invocations of the reply, in this order; ignored on a retry, which brings no new message. */
  readonly context: readonly TurnContextEntry[];
  readonly now: string;
  /** Who takes the conversation's lease (store/turn-leases.ts), and whether another holder still runs. */
  readonly lease: Pick<TurnLeaseRequest, 'holder' | 'isOwnerAlive'>;
}

export interface AdmittedTurn {
  readonly userRow: MessageRow | null;
  readonly assistantRow: MessageRow;
  /** The conversation after its time (and, for a first message, its title) changed; null if it vanished. */
  readonly conversation: ConversationView | null;
  readonly contextInvocations: readonly InvocationRow[];
}

/** The rows of the files the new user message carries, in the order they were added. */
function attachedRows(db: AppDatabase, attachments: TurnAttachments | undefined): AttachmentRow[] {
  if (attachments?.link !== undefined) return pendingAttachments(db, attachments.link);
  if (attachments?.copyFrom !== undefined) return attachmentRowsOfMessages(db, [attachments.copyFrom]).get(attachments.copyFrom) ?? [];
  return [];
}

/** Stores the start of a turn in one transaction. A retry with no user message to answer is refused. */
export function admitTurn(db: AppDatabase, admission: TurnAdmission): AdmittedTurn {
  const { conversationId, turnId, userText, now } = admission;
  return inTransaction(db, () => {
    // First, in the same transaction as the rows: a second process cannot admit a turn between the look and the take.
    takeTurnLease(db, { conversationId, turnId, nowMs: Date.parse(now), ...admission.lease });
    let seq = nextSeq(db, conversationId);
    let userRow: MessageRow | null = null;
    let firstAttachmentName: string | null = null;
    const placement = admission.parentId === undefined ? {} : { parentId: admission.parentId };
    if (userText === null) {
      if (!hasUserMessage(db, conversationId)) {
        throw new ApiError('nothing-to-retry', 'There is no message to answer again in this conversation.');
      }
    } else {
      const attached = attachedRows(db, admission.attachments);
      userRow = insertMessage(db, {
        id: newId(), conversationId, seq, turnId, role: 'user', text: userText, status: 'complete', createdAt: now, ...placement,
        tokenEstimate: estimateMessageTokens(userText) + attached.reduce((sum, row) => sum + attachmentTokenCeiling(row), 0),
      });
      if (admission.attachments?.link !== undefined) linkAttachments(db, userRow.id, attached.map((row) => row.id));
      else if (admission.attachments?.copyFrom !== undefined) copyAttachments(db, admission.attachments.copyFrom, userRow.id, now);
      firstAttachmentName = attached[0]?.name ?? null;
      seq += 1;
    }
    const assistantRow = insertMessage(db, {
      ...(userRow === null ? placement : {}),
      id: newId(),
      conversationId,
      seq,
      turnId,
      role: 'assistant',
      text: '',
      status: 'streaming',
      brain: admission.brain,
      modelRequested: admission.model,
      reasoningLevel: admission.reasoningLevel,
      streamOwner: admission.streamOwner,
      createdAt: now,
    });
    const context = userText === null ? [] : admission.context;
    const contextInvocations = context.map((entry, seqOfCall) =>
      insertInvocation(db, {
        id: newId(), turnId, messageId: assistantRow.id, seq: seqOfCall, kind: entry.kind, server: null, tool: entry.tool, providerCallId: null,
        input: entry.input, output: entry.output, status: 'ok', opaque: null, startedAt: now, endedAt: now,
      }),
    );
    const changes: { updatedAt: string; title?: string } = { updatedAt: now };
    if (userText !== null && getConversation(db, conversationId)?.title === DEFAULT_TITLE) {
      // A message of files alone is named after its first file.
      changes.title = titleFromMessage(userText.trim() === '' && firstAttachmentName !== null ? firstAttachmentName : userText);
    }
    const conversation = updateConversation(db, conversationId, changes);
    return { userRow, assistantRow, conversation, contextInvocations };
  });
}

export interface ReplyOutcome {
  readonly conversationId: string;
  readonly messageId: string;
  /** The brain that wrote the reply: its usage snapshot and `full` flag are the ones kept. */
  readonly brain: BrainId;
  readonly message: FinishedMessage;
  /** Counters this reply raises, by name (e.g. quote-escape normalisations); zero counts are skipped. */
  readonly counts: Readonly<Record<string, number>>;
  /**
   * The provider refused the request for its size: the limit it named (else the refused request's size) and the model.
   * The next turn on this brain compacts first, and builds below that limit.
   */
  readonly refused: { readonly tokens: number; readonly model: string } | null;
  /** The holder of the conversation's lease, let go in the same transaction. */
  readonly leaseHolder: LeaseHolder;
}

export interface FinishedReply {
  readonly row: MessageRow;
  readonly conversation: ConversationView | null;
}

/** Stores the end of a reply in one transaction. */
export function finishReply(db: AppDatabase, outcome: ReplyOutcome): FinishedReply {
  const { conversationId, message } = outcome;
  return inTransaction(db, () => {
    for (const [name, count] of Object.entries(outcome.counts)) if (count > 0) incrementCounter(db, name, count);
    const row = finishMessage(db, outcome.messageId, message);
    // A complete reply proves the conversation fits this brain again; a size refusal marks it full.
    const full = outcome.refused !== null ? true : message.status === 'complete' ? false : undefined;
    if (message.usage !== null || full !== undefined) {
      saveBrainState(db, {
        conversationId,
        brain: outcome.brain,
        ...(message.usage !== null ? { usage: message.usage } : {}),
        ...(full === undefined ? {} : { full }),
        ...(outcome.refused !== null ? { refused: outcome.refused } : {}),
        now: message.now,
      });
    }
    const conversation = updateConversation(db, conversationId, { updatedAt: message.now });
    releaseTurnLease(db, conversationId, outcome.leaseHolder);
    return { row, conversation };
  });
}

export interface UnsavedReplyEnd {
  readonly conversationId: string;
  readonly turnId: string;
  readonly messageId: string;
  readonly error: TurnError;
  readonly leaseHolder: LeaseHolder;
}

/**
 * A reply whose final write the store refused, ended now that it takes writes: marked failed with why, its text what
 * its last checkpoint stored (what the window was shown when it was told the reply failed), and its lease let go
 * unless a later turn holds it. False when the row had already ended (or is gone).
 */
export function endUnsavedReply(db: AppDatabase, end: UnsavedReplyEnd, now: string): boolean {
  return inTransaction(db, () => {
    const row = getMessage(db, end.messageId);
    if (row === null || row.status !== 'streaming') return false;
    finishMessage(db, end.messageId, {
      text: row.text,
      tokenEstimate: row.tokenEstimate,
      status: 'failed',
      error: end.error,
      modelResponded: row.modelResponded,
      // As stored: the columns hold what an earlier checkpoint or finish wrote there.
      reasoning: row.reasoning as StoredReasoning | null,
      usage: row.usage as Usage | null,
      now,
    });
    releaseTurnLeaseOf(db, end.conversationId, end.turnId, end.leaseHolder);
    return true;
  });
}
