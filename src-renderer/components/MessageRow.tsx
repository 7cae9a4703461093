import { memo, useDeferredValue, useLayoutEffect, useMemo } from 'react';
import type { AttachmentView, MessageView } from '../../src-shared/api';
import { isBrainId, type BrainId } from '../../src-shared/brains';
import { MarkdownView } from '../markdown/Markdown';
import { enlargeAttachment, openAttachment } from '../state/attachment-actions';
import { askAnotherBrain } from '../state/brain-actions';
import { setRowRendering } from '../state/delta-buffer';
import { toggleTurnForExport } from '../state/export-actions';
import { selectTurnChoice } from '../state/selectors';
import { openSettings } from '../state/settings-actions';
import { retryTurn } from '../state/turn-actions';
import { useAppStore } from '../state/store';
import { TurnApprovals } from './ApprovalPrompt';
import { AttachmentImage } from './AttachmentImage';
import { attachmentDetail } from './AttachmentTray';
import { BrainChangeDivider } from './BrainChangeDivider';
import { ElapsedTime } from './ElapsedTime';
import { MessageTime } from './MessageTime';
import { ReasoningDisclosure } from './ReasoningDisclosure';
import { RenderBoundary } from './RenderBoundary';
import { SummaryCard } from './SummaryCard';
import { brainLabel, brainOptions } from './brain-options';
import { usageSummary } from './format';
import { FileIcon, RetryIcon, WarningIcon } from './icons';
import { MessageEditor } from './MessageEditor';
import { MessageToolbar } from './MessageActions';
import { ToolActivity } from './ToolActivity';
import { TurnReceiptStrip } from './TurnReceipt';

interface MessageProps {
  readonly message: MessageView;
}

function rowAttributes(message: MessageView) {
  return {
    'data-testid': 'message',
    'data-message-id': message.id,
    'data-role': message.role,
    'data-status': message.status,
    'data-brain': message.brain ?? '',
  };
}

/** "Kimi · kimi-k2.6": the brain and the model that actually served the reply. */
export function replyLabel(message: MessageView): string {
  const model = message.modelResponded ?? message.modelRequested;
  return model === null ? brainLabel(message.brain) : `${brainLabel(message.brain)} · ${model}`;
}

/** The requested and served models when the host found them different, else null. */
export function servedModelMismatch(message: MessageView): { asked: string; served: string } | null {
  if (!message.modelMismatch || message.modelResponded === null) return null;
  return { asked: message.modelRequested ?? 'the default model', served: message.modelResponded };
}

/** Shown only when the reply carries no error of its own: an error's sentence already says what happened. */
const STATUS_NOTES: Partial<Record<MessageView['status'], string>> = {
  stopped: 'Stopped',
  interrupted: 'Interrupted: the app closed during this reply',
  failed: 'Failed',
};

/** Errors that only a change in Settings (a key, its host) can clear, and the button that opens Settings for each. */
const SETTINGS_ACTIONS: ReadonlyMap<string, string> = new Map([
  ['missing-key', 'Add a key'],
  ['auth', 'Check the key'],
  ['forbidden', 'Check the key'],
  ['key-host-unconfirmed', 'Open Settings'],
  ['insecure-base-url', 'Open Settings'],
]);

/** The Settings button an error calls for, or null when Settings cannot fix it. */
export function settingsActionFor(code: string): string | null {
  return SETTINGS_ACTIONS.get(code) ?? null;
}

interface AskAnotherBrainProps {
  readonly conversationId: string;
  /** The brain that declined, which is not offered again. */
  readonly declinedBy: BrainId | null;
  /** A compaction holds the conversation: nothing can be asked until it ends. */
  readonly disabled: boolean;
}

/** Picking a brain hands the conversation to it and asks it the same message again. */
function AskAnotherBrain({ conversationId, declinedBy, disabled }: AskAnotherBrainProps) {
  const settings = useAppStore((state) => state.settings);
  const options = useMemo(
    () => brainOptions(settings).filter((option) => option.available && option.id !== declinedBy),
    [settings, declinedBy],
  );
  return (
    <select
      className="ask-another-brain"
      data-testid="ask-another-brain"
      aria-label="Ask another brain"
      title="Switch this conversation to another brain and ask it the same message"
      value=""
      disabled={disabled}
      onChange={(event) => {
        if (isBrainId(event.target.value)) void askAnotherBrain(conversationId, event.target.value);
      }}
    >
      <option value="">Ask another brain…</option>
      {options.map((option) => (
        <option key={option.id} value={option.id}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

/** How much of a message a turn's checkbox names it by. */
const TURN_NAME_LENGTH = 60;

function turnName(text: string): string {
  const words = text.replace(/\s+/g, ' ').trim();
  return words.length > TURN_NAME_LENGTH ? `${words.slice(0, TURN_NAME_LENGTH - 1)}…` : words;
}

/** The checkbox that puts a turn in an export, shown on its user message while turns are being chosen. */
function TurnChoice({ message }: MessageProps) {
  const choice = useAppStore((state) => selectTurnChoice(state, message.conversationId, message.turnId));
  if (choice === null) return null;
  return (
    <label className="turn-choice" title="Include this turn in the export">
      <input
        type="checkbox"
        data-testid="turn-choice"
        aria-label={`Export the turn “${turnName(message.text)}”`}
        checked={choice === 'chosen'}
        onChange={() => toggleTurnForExport(message.conversationId, message.turnId, message.seq)}
      />
    </label>
  );
}

function AssistantMessage({ message }: MessageProps) {
  const chosen = useAppStore((state) => selectTurnChoice(state, message.conversationId, message.turnId) === 'chosen');
  const text = useAppStore((state) => state.streamingText[message.id] ?? message.text);
  const isLast = useAppStore((state) => state.messageIds[state.messageIds.length - 1] === message.id);
  const turnRunning = useAppStore((state) => message.conversationId in state.activeTurns);
  const compacting = useAppStore((state) => message.conversationId in state.compactions);
  const mismatch = servedModelMismatch(message);
  const streaming = message.status === 'streaming';
  // While a reply streams, its newest text renders in the background, in slices the window draws between, so the frame
  // that applies deltas stays short however costly the Markdown is; a reply that has ended shows its final text at once.
  const deferredText = useDeferredValue(text);
  const shownText = streaming ? deferredText : text;
  const rendering = shownText !== text;
  useLayoutEffect(() => {
    if (!rendering) return undefined;
    setRowRendering(message.id, true);
    return () => setRowRendering(message.id, false);
  }, [message.id, rendering]);
  // The brain declined: the same request draws the same refusal, so the way on is another brain, not Retry.
  const declined = message.error?.code === 'refusal';
  const statusNote = message.error === null ? STATUS_NOTES[message.status] : undefined;
  const canAct = isLast && !turnRunning;
  const canRetry =
    canAct &&
    !declined &&
    (message.error?.retryable === true || message.status === 'failed' || message.status === 'interrupted');
  // The main process marked the brain full, so its retry compacts the conversation before sending again.
  const tooLarge = message.error?.code === 'context-too-large';
  const settingsAction = message.error === null ? null : settingsActionFor(message.error.code);
  const retryButton = canRetry ? (
    <button
      type="button"
      className="button small"
      data-testid={tooLarge ? 'compact-retry-button' : 'retry-button'}
      title={tooLarge ? 'Summarise the oldest messages, then send the last message again' : undefined}
      disabled={compacting}
      onClick={() => void retryTurn(message.conversationId)}
    >
      <RetryIcon />
      {tooLarge ? 'Compact and retry' : 'Retry'}
    </button>
  ) : null;

  return (
    <article className={`message assistant status-${message.status}${chosen ? ' turn-chosen' : ''}`} {...rowAttributes(message)}>
      <div className="message-meta">
        <span
          className="brain-label"
          data-testid="message-brain-label"
          title={usageSummary(message.usage) ?? undefined}
        >
          {replyLabel(message)}
        </span>
        {mismatch === null ? null : (
          <span className="model-mismatch" data-testid="model-mismatch-warning" role="note">
            <WarningIcon />
            Asked for {mismatch.asked}, served by {mismatch.served}
          </span>
        )}
        <MessageTime iso={message.createdAt} />
      </div>
      <ReasoningDisclosure message={message} />
      <div className="message-body" data-testid="message-text" dir="auto">
        <MarkdownView text={shownText} streaming={streaming} />
      </div>
      {streaming ? <ToolActivity messageId={message.id} /> : null}
      {streaming ? <TurnApprovals turnId={message.turnId} /> : null}
      {streaming ? (
        <div className="reply-progress">
          <div className="typing-indicator" data-testid="typing-indicator" role="status" aria-label="Writing a reply">
            <span />
            <span />
            <span />
          </div>
          <ElapsedTime since={message.createdAt} />
        </div>
      ) : null}
      <TurnReceiptStrip messageId={message.id} spend={streaming ? null : message.spend} />
      {statusNote === undefined ? null : (
        <div className={`message-status ${message.status}`} data-testid="message-status">
          {statusNote}
        </div>
      )}
      {message.error === null ? (
        retryButton === null ? null : <div className="message-actions">{retryButton}</div>
      ) : (
        <div className="message-error" data-testid="message-error" role="alert">
          <WarningIcon />
          <div className="message-error-body">
            <span className="message-error-text" data-testid="message-error-text">
              {message.error.message}
            </span>
            {canAct && (retryButton !== null || settingsAction !== null || declined) ? (
              <div className="message-error-actions">
                {settingsAction === null ? null : (
                  <button type="button" className="button small" data-testid="error-settings-button" onClick={() => openSettings()}>
                    {settingsAction}
                  </button>
                )}
                {retryButton}
                {declined ? (
                  <AskAnotherBrain conversationId={message.conversationId} declinedBy={message.brain} disabled={compacting} />
                ) : null}
              </div>
            ) : null}
          </div>
        </div>
      )}
      <MessageToolbar message={message} />
    </article>
  );
}

/** A sent message's files: images (a click enlarges one) and chips that open the other files. */
function MessageAttachments({ attachments }: { readonly attachments: readonly AttachmentView[] }) {
  if (attachments.length === 0) return null;
  return (
    <ul className="message-attachments" data-testid="message-attachments" aria-label="Attached files">
      {attachments.map((attachment) => (
        <li key={attachment.id} data-testid="message-attachment" data-kind={attachment.kind}>
          {attachment.kind === 'image' ? (
            <button
              type="button"
              className="message-image-button"
              aria-label={`Enlarge ${attachment.name}`}
              title={attachment.name}
              onClick={() => enlargeAttachment(attachment)}
            >
              <AttachmentImage attachment={attachment} className="message-image" />
            </button>
          ) : (
            <button
              type="button"
              className="attachment-chip"
              data-testid="attachment-chip"
              title={`Open ${attachment.name}`}
              onClick={() => void openAttachment(attachment)}
            >
              <span className="attachment-chip-label">
                <FileIcon />
                {/* The name read out starts with what the button does and holds all it shows (WCAG 2.5.3). */}
                <span className="attachment-chip-name">
                  <span className="visually-hidden">Open</span> {attachment.name}
                </span>{' '}
                <span className="attachment-chip-detail">{attachmentDetail(attachment)}</span>
              </span>
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

function UserMessage({ message }: MessageProps) {
  const chosen = useAppStore((state) => selectTurnChoice(state, message.conversationId, message.turnId) === 'chosen');
  const editing = useAppStore((state) => state.editingMessageId === message.id && message.compactedInto === null);
  return (
    <article className={chosen ? 'message user turn-chosen' : 'message user'} {...rowAttributes(message)}>
      <TurnChoice message={message} />
      <div className={editing ? 'user-message editing' : 'user-message'}>
        {editing ? (
          <MessageEditor message={message} />
        ) : (
          <>
            <MessageAttachments attachments={message.attachments} />
            {message.text === '' && message.attachments.length > 0 ? null : (
              <div className="user-bubble" data-testid="message-text" dir="auto">
                {message.text}
              </div>
            )}
            <div className="user-message-footer">
              <MessageTime iso={message.createdAt} />
              <MessageToolbar message={message} />
            </div>
          </>
        )}
      </div>
    </article>
  );
}

function SystemLine({ message }: MessageProps) {
  if (message.kind === 'summary') return <SummaryCard message={message} RowContent={MessageContent} />;
  return (
    <div className={`message system kind-${message.kind}`} {...rowAttributes(message)}>
      <span className="system-text" data-testid="message-text" dir="auto">
        {message.text}
      </span>
    </div>
  );
}

/** A row that could not render: its words as plain text, under the same row attributes, so the list stays whole. */
function UnrenderableMessage({ message }: MessageProps) {
  const text = useAppStore((state) => state.streamingText[message.id] ?? message.text);
  return (
    <article className={`message ${message.role} render-failed`} {...rowAttributes(message)} data-render-failed="true">
      <div className="message-render-failed" role="note">
        <WarningIcon />
        This message could not be displayed formatted; here is its text.
      </div>
      <div className="message-plain-text" data-testid="message-text" dir="auto">
        {text}
      </div>
    </article>
  );
}

/** One row's content by role; also how a summary shows the rows it covers. */
function MessageContent({ message }: MessageProps) {
  switch (message.role) {
    case 'assistant':
      return <AssistantMessage message={message} />;
    case 'user':
      return <UserMessage message={message} />;
    case 'system':
      return <SystemLine message={message} />;
    default: {
      const _unknown: never = message.role;
      return null;
    }
  }
}

/**
 * One row of the message list, selected by id so a streamed delta re-renders only its own row. A row that fails to
 * render shows its text plainly instead of taking the whole window down with it.
 */
export const MessageRow = memo(function MessageRow({ messageId }: { readonly messageId: string }) {
  const message = useAppStore((state) => state.messagesById[messageId]);
  const streamingText = useAppStore((state) => state.streamingText[messageId]);
  if (message === undefined) return null;
  return (
    <RenderBoundary resetKey={streamingText ?? message} fallback={<UnrenderableMessage message={message} />}>
      <BrainChangeDivider messageId={messageId} />
      <MessageContent message={message} />
    </RenderBoundary>
  );
});
