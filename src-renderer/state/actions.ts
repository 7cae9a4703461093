import { BRAIN_IDS, type BrainId, type ReasoningLevel } from '../../src-shared/brains';
import type { ConversationView, ExportFormat, ExportResult, RequestPreview, SendResult, Theme } from '../../src-shared/api';
import { writeConversationHash } from '../routing/hash-route';
import { api, errorText } from './api-client';
import { loadApprovals } from './approval-actions';
import { removeConversation, replaceConversationList, upsertConversation } from './conversations-slice';
import { applyOlderPage, applyOpeningPage, applyResyncPage, openConversationState } from './messages-slice';
import { selectConversationBrain } from './selectors';
import { applySettings, type SettingsTab } from './settings-slice';
import { useAppStore } from './store';
import { reconcileActiveTurn, setPendingSend, startTurn } from './turns-slice';
import { setDraft } from './ui-slice';

/** Messages fetched per page. */
export const PAGE_SIZE = 50;

const { getState, setState } = useAppStore;

let conversationListRequest = 0;
let pageRequest = 0;

export function showNotice(notice: string | null): void {
  setState({ notice });
}

export async function loadConversations(query: string = getState().conversationQuery): Promise<void> {
  const request = ++conversationListRequest;
  setState({ conversationQuery: query });
  const trimmed = query.trim();
  try {
    const conversations = await api().listConversations(trimmed === '' ? {} : { query: trimmed });
    if (request !== conversationListRequest) return;
    setState((state) => replaceConversationList(state, query, conversations));
  } catch (error) {
    if (request === conversationListRequest) showNotice(`Could not load conversations: ${errorText(error)}`);
  }
}

export async function loadSettings(): Promise<void> {
  try {
    const settings = await api().getSettings({});
    setState(applySettings(settings));
  } catch (error) {
    showNotice(`Could not load settings: ${errorText(error)}`);
  }
}

export function closeConversation(): void {
  pageRequest += 1;
  setState({ ...openConversationState(null), requestPreviewOpen: false });
  writeConversationHash(null);
}

export async function openConversation(conversationId: string): Promise<void> {
  const state = getState();
  if (state.openConversationId === conversationId && state.pageStatus !== 'error') {
    writeConversationHash(conversationId);
    return;
  }
  const request = ++pageRequest;
  setState({ ...openConversationState(conversationId), requestPreviewOpen: false });
  writeConversationHash(conversationId);
  const conversationRequest = api()
    .getConversation({ id: conversationId })
    .then((conversation) => ({ conversation, missing: false }) as const)
    .catch(() => ({ conversation: null, missing: true }) as const);
  try {
    const [page, lookup] = await Promise.all([
      api().listMessages({ conversationId, limit: PAGE_SIZE }),
      conversationRequest,
    ]);
    if (request !== pageRequest) return;
    setState((current) => ({
      ...applyOpeningPage(current, page),
      ...reconcileActiveTurn(current, conversationId, page.messages),
      ...(lookup.conversation === null ? {} : upsertConversation(current, lookup.conversation)),
    }));
  } catch (error) {
    if (request !== pageRequest) return;
    if ((await conversationRequest).missing) {
      closeConversation();
      setState((current) => removeConversation(current, conversationId));
      showNotice('That conversation no longer exists.');
      return;
    }
    setState({ pageStatus: 'error', pageError: errorText(error) });
  }
}

export async function loadOlderMessages(): Promise<void> {
  const state = getState();
  const conversationId = state.openConversationId;
  const firstId = state.messageIds[0];
  const first = firstId === undefined ? undefined : state.messagesById[firstId];
  if (conversationId === null || first === undefined || !state.hasOlder || state.loadingOlder) return;
  if (state.pageStatus !== 'ready') return;
  const request = pageRequest;
  setState({ loadingOlder: true });
  try {
    const page = await api().listMessages({ conversationId, beforeSeq: first.seq, limit: PAGE_SIZE });
    if (request !== pageRequest) return;
    setState((current) => applyOlderPage(current, page));
  } catch (error) {
    if (request !== pageRequest) return;
    setState({ loadingOlder: false });
    showNotice(`Could not load older messages: ${errorText(error)}`);
  }
}

/** Fetches again what pushed events keep current, after some of them may have been lost. */
export async function resync(): Promise<void> {
  const conversationId = getState().openConversationId;
  const listing = Promise.all([loadConversations(), loadApprovals()]);
  if (conversationId === null) {
    await listing;
    return;
  }
  const request = pageRequest;
  try {
    const page = await api().listMessages({ conversationId, limit: PAGE_SIZE });
    if (request !== pageRequest) return;
    setState((current) => ({
      ...applyResyncPage(current, page),
      ...reconcileActiveTurn(current, conversationId, page.messages),
    }));
  } catch (error) {
    if (request === pageRequest) showNotice(`Could not refresh this conversation: ${errorText(error)}`);
  }
  await listing;
}

let resyncTimer: ReturnType<typeof setTimeout> | null = null;

/** Coalesces resync requests that arrive together (several deltas for a reply not loaded yet). */
export function scheduleResync(delayMs = 150): void {
  if (resyncTimer !== null) return;
  resyncTimer = setTimeout(() => {
    resyncTimer = null;
    void resync();
  }, delayMs);
}

export async function createConversation(): Promise<void> {
  try {
    const conversation = await api().createConversation({});
    if (getState().conversationQuery !== '') void loadConversations('');
    setState((state) => upsertConversation(state, conversation));
    await openConversation(conversation.id);
  } catch (error) {
    showNotice(`Could not create a conversation: ${errorText(error)}`);
  }
}

/** Throws the Api's error, for the caller to show beside the control that asked. */
export async function renameConversation(conversationId: string, title: string): Promise<void> {
  const conversation = await api().renameConversation({ id: conversationId, title });
  setState((state) => upsertConversation(state, conversation));
}

export async function deleteConversation(conversationId: string): Promise<void> {
  try {
    await api().deleteConversation({ id: conversationId });
    if (getState().openConversationId === conversationId) closeConversation();
    setState((state) => removeConversation(state, conversationId));
  } catch (error) {
    showNotice(`Could not delete the conversation: ${errorText(error)}`);
  }
}

/** What a brain change may also set; an absent field keeps the conversation's current pick. */
export interface BrainChoice {
  /** A model id, or null for the brain's default. */
  readonly model?: string | null;
  /** A reasoning level, or null for the brain's default. */
  readonly reasoningLevel?: ReasoningLevel | null;
}

export async function setConversationBrain(conversationId: string, brain: BrainId, choice: BrainChoice = {}): Promise<void> {
  try {
    const conversation = await api().setConversationBrain({ id: conversationId, brain, ...choice });
    setState((state) => upsertConversation(state, conversation));
  } catch (error) {
    showNotice(`Could not change the brain: ${errorText(error)}`);
  }
}

/** Hands the conversation's next turn to `brain`, on that brain's default model (a model id belongs to one brain). */
export async function switchConversationBrain(conversationId: string, brain: BrainId): Promise<void> {
  if (getState().conversationsById[conversationId]?.brain === brain) return;
  await setConversationBrain(conversationId, brain, { model: null });
}

/** The brain after the current one in table order, wrapping around. */
export function nextBrain(current: BrainId): BrainId {
  return BRAIN_IDS[(BRAIN_IDS.indexOf(current) + 1) % BRAIN_IDS.length] ?? BRAIN_IDS[0];
}

export async function switchToNextBrain(conversationId: string): Promise<void> {
  const current = selectConversationBrain(getState(), conversationId);
  await setConversationBrain(conversationId, nextBrain(current), { model: null });
}

/** `null` goes back to the brain's default level. */
export async function setConversationReasoning(conversationId: string, reasoningLevel: ReasoningLevel | null): Promise<void> {
  const brain = selectConversationBrain(getState(), conversationId);
  await setConversationBrain(conversationId, brain, { reasoningLevel });
}

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

export function openSettings(tab: SettingsTab = 'general'): void {
  setState({ settingsOpen: true, settingsTab: tab });
  void loadSettings();
}

export function showSettingsTab(tab: SettingsTab): void {
  setState({ settingsTab: tab });
}

export function closeSettings(): void {
  setState({ settingsOpen: false });
}

export async function setTheme(theme: Theme): Promise<void> {
  const previous = getState().themePreference;
  setState({ themePreference: theme });
  try {
    setState(applySettings(await api().setTheme({ theme })));
  } catch (error) {
    setState({ themePreference: previous });
    showNotice(`Could not save the theme: ${errorText(error)}`);
  }
}

/** Settings commands throw the Api's error, for the dialog to show beside the field. */
export async function setDefaultBrain(brain: BrainId): Promise<void> {
  setState(applySettings(await api().setDefaultBrain({ brain })));
}

/** Returns the base URL in use afterwards. */
export async function setBaseUrl(brain: BrainId, baseUrl: string | null): Promise<string | null> {
  const settings = await api().setBaseUrl({ brain, baseUrl });
  setState(applySettings(settings));
  return settings.brains.find((entry) => entry.brain === brain)?.baseUrl ?? null;
}

export async function setKey(brain: BrainId, key: string | null): Promise<void> {
  setState(applySettings(await api().setKey({ brain, key })));
}

/** The user's answer to a key-host-unconfirmed refusal: the brain's key may go to its current base URL's host. */
export async function confirmKeyHost(brain: BrainId): Promise<void> {
  setState(applySettings(await api().confirmKeyHost({ brain })));
}

export async function exportConversation(conversationId: string, format: ExportFormat): Promise<ExportResult> {
  return api().exportConversation({ id: conversationId, format });
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

/** Imports a transcript v1 document and opens it. Throws the Api's refusal, which names the first bad path. */
export async function importTranscript(content: string): Promise<ConversationView> {
  const conversation = await api().importTranscript({ content });
  if (getState().conversationQuery !== '') void loadConversations('');
  setState((state) => upsertConversation(state, conversation));
  await openConversation(conversation.id);
  return conversation;
}
