import type { MessageView } from '../../src-shared/api';
import type { TrayAttachment } from './attachments-slice';

export interface ActiveTurn {
  readonly turnId: string;
  readonly assistantMessageId: string;
}

/** A tool a streaming reply waits on. */
export interface RunningTool {
  readonly tool: string;
  /** The MCP server, or null for a built-in tool. */
  readonly server: string | null;
}

/** A message waiting for its conversation's running reply to end: its words and the stored files it carries. */
export interface QueuedMessage {
  readonly text: string;
  readonly attachments: readonly TrayAttachment[];
}

/** How many finished turn ids to remember, so a late `send` answer cannot revive a finished turn. */
const FINISHED_TURNS_REMEMBERED = 100;

export interface TurnsSlice {
  /** The running turn of each conversation that has one. */
  readonly activeTurns: Readonly<Record<string, ActiveTurn>>;
  /** Conversations whose `send` or `retry` has not been answered yet. */
  readonly pendingSends: Readonly<Record<string, true>>;
  readonly finishedTurnIds: readonly string[];
  /** The tool each reply is waiting on, by assistant message id: from its start event to its finish event. */
  readonly runningTools: Readonly<Record<string, RunningTool>>;
  /** The one message per conversation waiting for its running reply to end; kept in memory only, not across reloads. */
  readonly queuedMessages: Readonly<Record<string, QueuedMessage>>;
}

export const initialTurnsSlice: TurnsSlice = {
  activeTurns: {},
  pendingSends: {},
  finishedTurnIds: [],
  runningTools: {},
  queuedMessages: {},
};

export function startTurn(state: TurnsSlice, conversationId: string, turn: ActiveTurn): Partial<TurnsSlice> {
  if (state.finishedTurnIds.includes(turn.turnId)) return {};
  const current = state.activeTurns[conversationId];
  if (current?.turnId === turn.turnId && current.assistantMessageId === turn.assistantMessageId) return {};
  return { activeTurns: { ...state.activeTurns, [conversationId]: turn } };
}

export function finishTurn(state: TurnsSlice, conversationId: string, turnId: string): Partial<TurnsSlice> {
  const finishedTurnIds = [...state.finishedTurnIds.slice(-(FINISHED_TURNS_REMEMBERED - 1)), turnId];
  if (state.activeTurns[conversationId]?.turnId !== turnId) return { finishedTurnIds };
  const activeTurns = { ...state.activeTurns };
  delete activeTurns[conversationId];
  return { activeTurns, finishedTurnIds };
}

/** Queues `message`, or with null forgets the conversation's queued message. */
export function setQueuedMessage(state: TurnsSlice, conversationId: string, message: QueuedMessage | null): Partial<TurnsSlice> {
  if (message === null && !(conversationId in state.queuedMessages)) return {};
  const queuedMessages = { ...state.queuedMessages };
  if (message === null) delete queuedMessages[conversationId];
  else queuedMessages[conversationId] = message;
  return { queuedMessages };
}

export function setPendingSend(state: TurnsSlice, conversationId: string, pending: boolean): Partial<TurnsSlice> {
  if (pending === (conversationId in state.pendingSends)) return {};
  const pendingSends = { ...state.pendingSends };
  if (pending) pendingSends[conversationId] = true;
  else delete pendingSends[conversationId];
  return { pendingSends };
}

/**
 * What loaded rows say about a conversation's running turn: a streaming last reply means one runs; a finished
 * reply of the remembered turn means it ended while its events were missed.
 */
export function reconcileActiveTurn(
  state: TurnsSlice,
  conversationId: string,
  messages: readonly MessageView[],
): Partial<TurnsSlice> {
  let lastReply: MessageView | undefined;
  for (let index = messages.length - 1; index >= 0 && lastReply === undefined; index -= 1) {
    const message = messages[index];
    if (message?.role === 'assistant') lastReply = message;
  }
  if (lastReply?.status === 'streaming') {
    return startTurn(state, conversationId, { turnId: lastReply.turnId, assistantMessageId: lastReply.id });
  }
  const active = state.activeTurns[conversationId];
  if (active === undefined) return {};
  const activeReply = messages.find((message) => message.id === active.assistantMessageId);
  if (activeReply !== undefined && activeReply.status !== 'streaming') {
    return finishTurn(state, conversationId, active.turnId);
  }
  return {};
}

export function startToolCall(state: TurnsSlice, messageId: string, tool: RunningTool): Partial<TurnsSlice> {
  return { runningTools: { ...state.runningTools, [messageId]: tool } };
}

/** The reply's tool finished, or the reply itself ended. */
export function endToolCall(state: TurnsSlice, messageId: string): Partial<TurnsSlice> {
  if (!(messageId in state.runningTools)) return {};
  const runningTools = { ...state.runningTools };
  delete runningTools[messageId];
  return { runningTools };
}
