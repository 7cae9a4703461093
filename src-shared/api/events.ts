/** (contract) The events the main process pushes to every subscriber. */
import type { BrainId } from '../brains';
import type { TurnReceipt } from '../receipt';
import type { ApprovalView, ContextStatusView, ConversationView, InvocationView, MessageView, NotAnsweringView } from './views';

/** Events pushed from the main process. */
export type ApiEvent =
  | {
      readonly type: 'turn-started';
      readonly conversationId: string;
      readonly turnId: string;
      readonly userMessage: MessageView | null;
      readonly assistantMessage: MessageView;
    }
  | {
      /** Text appended to a streaming reply. Deltas are coalesced to at most one per frame. */
      readonly type: 'message-delta';
      readonly conversationId: string;
      readonly turnId: string;
      readonly messageId: string;
      readonly textDelta: string;
    }
  | {
      /** Readable reasoning appended to a streaming reply, coalesced like `message-delta`. */
      readonly type: 'reasoning-delta';
      readonly conversationId: string;
      readonly turnId: string;
      readonly messageId: string;
      readonly textDelta: string;
    }
  | {
      readonly type: 'tool-call-started';
      readonly conversationId: string;
      readonly turnId: string;
      readonly messageId: string;
      readonly tool: string;
      readonly server: string | null;
      readonly input: unknown;
    }
  | { readonly type: 'tool-call-finished'; readonly conversationId: string; readonly invocation: InvocationView }
  | {
      /** A tool whose policy is "ask" waits for the person: show the call and answer with answerApproval. */
      readonly type: 'approval-requested';
      readonly approval: ApprovalView;
    }
  | {
      readonly type: 'approval-resolved';
      readonly approvalId: string;
      readonly conversationId: string;
      readonly outcome: 'allow' | 'deny' | 'cancelled';
    }
  | {
      /** Sent just before turn-done: the receipt of the turn, built from its invocation rows. */
      readonly type: 'turn-receipt';
      readonly conversationId: string;
      readonly turnId: string;
      readonly messageId: string;
      readonly receipt: TurnReceipt;
    }
  | { readonly type: 'turn-done'; readonly conversationId: string; readonly turnId: string; readonly message: MessageView }
  | { readonly type: 'turn-failed'; readonly conversationId: string; readonly turnId: string; readonly message: MessageView }
  | {
      /** How full the target brain's window is: sent before every turn and after a compaction or brain change. */
      readonly type: 'context-pressure';
      readonly conversationId: string;
      readonly status: ContextStatusView;
    }
  | {
      readonly type: 'compaction-started';
      readonly conversationId: string;
      /** The brain writing the summary. */
      readonly brain: BrainId;
      readonly model: string;
      /** Messages to summarise. */
      readonly messages: number;
    }
  | {
      readonly type: 'compaction-progress';
      readonly conversationId: string;
      /** Messages already read by the summarising brain (it reads long spans in parts). */
      readonly summarisedMessages: number;
      readonly totalMessages: number;
      /** Characters of summary written so far in the current part. */
      readonly characters: number;
    }
  | {
      readonly type: 'compaction-finished';
      readonly conversationId: string;
      readonly summary: MessageView;
      readonly coveredMessages: number;
    }
  | {
      /** Nothing was changed: the conversation is exactly as before the compaction started. */
      readonly type: 'compaction-failed';
      readonly conversationId: string;
      readonly reason: 'stopped' | 'failed' | 'nothing-to-compact';
      readonly message: string;
    }
  | {
      /** An import's conversations checked so far (`done` of `total`); the last one comes once all are written. */
      readonly type: 'import-progress';
      /** The file's name, as the importConversations command was given it. */
      readonly name: string;
      readonly done: number;
      readonly total: number;
    }
  | {
      /** An exportAllConversations run: `done` of `total` conversations written, sent at most once per percent. */
      readonly type: 'export-progress';
      readonly exportId: string;
      readonly done: number;
      readonly total: number;
    }
  | {
      /** What outside Anybrain is not answering, whole, sent when something stops answering or answers again. */
      readonly type: 'not-answering';
      readonly list: readonly NotAnsweringView[];
    }
  | { readonly type: 'conversation-updated'; readonly conversation: ConversationView }
  | { readonly type: 'conversation-deleted'; readonly conversationId: string };

export type ApiEventType = ApiEvent['type'];
