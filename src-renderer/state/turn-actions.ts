import type { RequestPreview, SendResult } from '../../src-shared/api';
import type { BrainId } from '../../src-shared/brains';
import { api, errorText } from './api-client';
import { showNotice } from './conversation-actions';
import { selectReplyRunning } from './selectors';
import { useAppStore } from './store';
import { prependToTray, removeFromTray, type TrayAttachment } from './attachments-slice';
import { setPendingSend, setQueuedMessage, startTurn, type QueuedMessage } from './turns-slice';
import { setDraft } from './ui-slice';

const { getState, setState } = useAppStore;

export function updateDraft(conversationId: string, text: string): void {
  setState((state) => setDraft(state, conversationId, text));
}

async function runTurnCommand(conversationId: string, command: () => Promise<SendResult>): Promise<SendResult> {
  setState((state) => setPendingSend(state, conversationId, true));
  try {
    const result = await command();
    setState((state) =>
      startTurn(state, conversationId, { turnId: result.turnId, assistantMessageId: result.assistantMessageId }),
    );
    return result;
  } finally {
    setState((state) => setPendingSend(state, conversationId, false));
  }
}

/** The ids of the stored files among `attachments`, in tray order. */
function storedIds(attachments: readonly TrayAttachment[]): string[] {
  return attachments.flatMap((entry) => (entry.view === null ? [] : [entry.view.id]));
}

/**
 * Sends `text` with the stored files among `attachments`, which then leave the tray. Throws the Api's refusal, for the
 * composer to show while it keeps the typed text and the files.
 */
export async function sendMessage(
  conversationId: string,
  text: string,
  attachments: readonly TrayAttachment[] = [],
): Promise<SendResult> {
  const attachmentIds = storedIds(attachments);
  const result = await runTurnCommand(conversationId, () =>
    api().send(attachmentIds.length === 0 ? { conversationId, text } : { conversationId, text, attachmentIds }),
  );
  // Text typed after pressing Enter is kept, and so are files added since.
  if ((getState().drafts[conversationId] ?? '') === text) updateDraft(conversationId, '');
  setState((state) => removeFromTray(state, conversationId, attachments.map((entry) => entry.localId)));
  return result;
}

/** Puts a message that was not sent back into the composer: its words before anything typed since, its files first. */
function restoreToComposer(conversationId: string, message: QueuedMessage): void {
  const draft = getState().drafts[conversationId] ?? '';
  updateDraft(conversationId, draft.trim() === '' ? message.text : `${message.text}\n\n${draft}`);
  setState((state) => prependToTray(state, conversationId, message.attachments));
}

/** Holds the message until the conversation's running reply ends, then sends it; clears the draft and tray it came from. */
export function queueMessage(conversationId: string, text: string, attachments: readonly TrayAttachment[] = []): void {
  setState((state) => setQueuedMessage(state, conversationId, { text, attachments }));
  if ((getState().drafts[conversationId] ?? '') === text) updateDraft(conversationId, '');
  setState((state) => removeFromTray(state, conversationId, attachments.map((entry) => entry.localId)));
  sendQueuedMessages();
}

/** Forgets the queued message and puts it back into the composer, before anything typed since. */
export function cancelQueuedMessage(conversationId: string): void {
  const queued = getState().queuedMessages[conversationId];
  if (queued === undefined) return;
  setState((state) => setQueuedMessage(state, conversationId, null));
  restoreToComposer(conversationId, queued);
}

/** Stops the running reply; the message goes out once the stop has ended it, as a queued one would. */
export async function stopAndSend(conversationId: string, text: string, attachments: readonly TrayAttachment[] = []): Promise<void> {
  queueMessage(conversationId, text, attachments);
  await stopTurn(conversationId);
}

/** Sends each queued message whose conversation has no reply running any more. */
export function sendQueuedMessages(): void {
  const state = getState();
  for (const [conversationId, queued] of Object.entries(state.queuedMessages)) {
    if (selectReplyRunning(state, conversationId)) continue;
    // Forgotten before sending, so the store change the send makes cannot send it twice.
    setState((current) => setQueuedMessage(current, conversationId, null));
    void sendMessage(conversationId, queued.text, queued.attachments).catch((error: unknown) => {
      restoreToComposer(conversationId, queued);
      showNotice(`Could not send the queued message: ${errorText(error)}`);
    });
  }
}

/** Sends queued messages as their replies end, whichever conversation is open. Returns the teardown. */
export function installMessageQueue(): () => void {
  return useAppStore.subscribe((state, previous) => {
    if (Object.keys(state.queuedMessages).length === 0) return;
    if (
      state.activeTurns === previous.activeTurns &&
      state.pendingSends === previous.pendingSends &&
      state.compactions === previous.compactions
    ) {
      return;
    }
    sendQueuedMessages();
  });
}

/** Opens the editor in place of a user message's text; null closes it. */
export function editInPlace(messageId: string | null): void {
  setState({ editingMessageId: messageId });
}

/**
 * Sends `text` in place of the user message `messageId`: a new alternative beside it, answered by the conversation's
 * brain. Throws the Api's refusal, for the editor to show while it keeps the text.
 */
export async function sendEdit(conversationId: string, messageId: string, text: string): Promise<SendResult> {
  const result = await runTurnCommand(conversationId, () => api().editMessage({ messageId, text }));
  if (getState().editingMessageId === messageId) editInPlace(null);
  return result;
}

/** A new reply beside the reply `messageId`, by the same brain and model. */
export async function regenerateReply(conversationId: string, messageId: string): Promise<void> {
  try {
    await runTurnCommand(conversationId, () => api().regenerate({ messageId }));
  } catch (error) {
    showNotice(`Could not regenerate the reply: ${errorText(error)}`);
  }
}

/** A new reply beside the reply `messageId`, by `brain` (its `model`, else the brain's pick). */
export async function answerWith(conversationId: string, messageId: string, brain: BrainId, model?: string): Promise<void> {
  try {
    await runTurnCommand(conversationId, () => api().answerWith({ messageId, brain, ...(model === undefined ? {} : { model }) }));
  } catch (error) {
    showNotice(`Could not ask another brain: ${errorText(error)}`);
  }
}

export async function retryTurn(conversationId: string): Promise<void> {
  try {
    await runTurnCommand(conversationId, () => api().retry({ conversationId }));
  } catch (error) {
    showNotice(`Could not retry: ${errorText(error)}`);
  }
}

export async function stopTurn(conversationId: string): Promise<void> {
  try {
    await api().stop({ conversationId });
  } catch (error) {
    showNotice(`Could not stop the reply: ${errorText(error)}`);
  }
}
export function openRequestPreview(): void {
  setState({ requestPreviewOpen: true });
}

export function closeRequestPreview(): void {
  setState({ requestPreviewOpen: false });
}

/** The request the next turn would send, with the composer's draft as its new message when there is one. */
export async function previewNextRequest(conversationId: string): Promise<RequestPreview> {
  const draft = getState().drafts[conversationId] ?? '';
  return api().previewRequest(draft.trim() === '' ? { conversationId } : { conversationId, message: draft });
}
