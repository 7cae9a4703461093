import { appendDeltas, appendReasoningDeltas } from './messages-slice';
import { useAppStore } from './store';

/** Runs a callback once, before the next frame is painted. */
export type FrameScheduler = (callback: () => void) => void;

/** Where requestAnimationFrame is missing (tests, a worker), a timer of about one frame at 60 Hz. */
const FALLBACK_FRAME_MS = 16;

export function animationFrameScheduler(): FrameScheduler {
  if (typeof requestAnimationFrame === 'function') return (callback) => requestAnimationFrame(() => callback());
  return (callback) => setTimeout(callback, FALLBACK_FRAME_MS);
}

interface PendingDeltas {
  readonly conversationId: string;
  /** Text streamed since the last frame, by message id, in arrival order. */
  readonly textByMessage: Map<string, string>;
  /** Readable reasoning streamed since the last frame, by message id. */
  readonly reasoningByMessage: Map<string, string>;
}

/** Which part of a reply a delta extends. */
export type DeltaChannel = 'text' | 'reasoning';

let scheduleFrame: FrameScheduler = animationFrameScheduler();
let pending: PendingDeltas | null = null;
/** The frame already asked for, so a burst of deltas asks for one; a stale frame's callback does nothing. */
let requestedFrame: object | null = null;
/**
 * Rows whose newest text is still rendering in the background (see AssistantMessage). While one is, a frame applies
 * no more deltas: React would otherwise drop that render for one with newer text, and a reply that renders slower
 * than it streams would show nothing new until React gives up deferring it, seconds later. Held back, the deltas of
 * such a reply apply in bigger steps instead.
 */
const rowsRendering = new Set<string>();

/**
 * Keeps a delta of the open conversation until the next frame, when every delta since the last frame is applied in
 * one store update (or a later frame, while a row still renders the last ones). The reply must be loaded (the caller
 * resyncs otherwise).
 */
export function bufferDelta(conversationId: string, messageId: string, textDelta: string, channel: DeltaChannel = 'text'): void {
  if (pending !== null && pending.conversationId !== conversationId) pending = null;
  pending ??= { conversationId, textByMessage: new Map(), reasoningByMessage: new Map() };
  const byMessage = channel === 'text' ? pending.textByMessage : pending.reasoningByMessage;
  byMessage.set(messageId, (byMessage.get(messageId) ?? '') + textDelta);
  if (requestedFrame === null) requestFlushFrame();
}

function requestFlushFrame(): void {
  const frame = {};
  requestedFrame = frame;
  scheduleFrame(() => {
    if (requestedFrame !== frame) return;
    requestedFrame = null;
    if (rowsRendering.size > 0 && pending !== null) {
      requestFlushFrame();
      return;
    }
    flushPendingDeltas();
  });
}

/** Marks a streaming row as rendering its newest text in the background, or as done with it (or gone). */
export function setRowRendering(messageId: string, rendering: boolean): void {
  if (rendering) rowsRendering.add(messageId);
  else rowsRendering.delete(messageId);
}

/**
 * Applies the buffered deltas now, in one store update. Called before anything that replaces or finishes a row, so a
 * delta is never applied after the text that ends it. Deltas of a conversation that is no longer open, or of a row
 * no longer streaming, are dropped.
 */
export function flushPendingDeltas(): void {
  if (pending === null) return;
  const { conversationId, textByMessage, reasoningByMessage } = pending;
  pending = null;
  const state = useAppStore.getState();
  if (state.openConversationId !== conversationId) return;
  const change = { ...appendReasoningDeltas(state, reasoningByMessage), ...appendDeltas(state, textByMessage) };
  if (Object.keys(change).length > 0) useAppStore.setState(change);
}

/** Forgets the buffered deltas: the conversation they belong to is being left or reloaded from scratch. */
export function dropPendingDeltas(): void {
  pending = null;
}

/** Whether deltas wait for a frame (for tests). */
export function hasPendingDeltas(): boolean {
  return pending !== null;
}

/** Replaces the frame scheduler and forgets buffered deltas and the frame asked for (tests drive frames by hand). */
export function resetDeltaBuffer(scheduler: FrameScheduler = animationFrameScheduler()): void {
  scheduleFrame = scheduler;
  pending = null;
  requestedFrame = null;
  rowsRendering.clear();
}
