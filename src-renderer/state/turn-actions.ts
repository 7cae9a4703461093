import type { RequestPreview, SendResult } from '../../src-shared/api';
import { api, errorText } from './api-client';
import { showNotice } from './conversation-actions';
import { useAppStore } from './store';
import { setPendingSend, startTurn } from './turns-slice';
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

/** Throws the Api's refusal, for the composer to show while it keeps the typed text. */
export async function sendMessage(conversationId: string, text: string): Promise<SendResult> {
  const result = await runTurnCommand(conversationId, () => api().send({ conversationId, text }));
  // Text typed after pressing Enter is kept.
  if ((getState().drafts[conversationId] ?? '') === text) updateDraft(conversationId, '');
  return result;
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
