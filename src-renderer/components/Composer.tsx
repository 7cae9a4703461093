import { useLayoutEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import { CONNECTION_PROBLEM_CODES } from '../../src-shared/api';
import { ATTACHMENT_ACCEPT, attachmentRefusal, type AttachmentKind } from '../../src-shared/attachments';
import { attachFiles, dismissAttachmentProblems } from '../state/attachment-actions';
import type { TrayAttachment } from '../state/attachments-slice';
import { openSettings } from '../state/settings-actions';
import {
  cancelQueuedMessage,
  editInPlace,
  queueMessage,
  sendMessage,
  stopAndSend,
  stopTurn,
  updateDraft,
} from '../state/turn-actions';
import { errorText } from '../state/api-client';
import {
  selectConversationBrain,
  selectConversationModel,
  selectLastEditableUserMessageId,
  selectReplyRunning,
} from '../state/selectors';
import { useAppStore } from '../state/store';
import { AttachmentTray } from './AttachmentTray';
import { brainLabel } from './brain-options';
import { CloseIcon, PaperclipIcon, SendIcon, StopIcon } from './icons';
import { SkillSuggestionList, useSkillSuggestions } from './SkillSuggestions';

export const MAX_INPUT_HEIGHT_PX = 240;

const NO_ATTACHMENTS: readonly TrayAttachment[] = [];
const NO_PROBLEMS: readonly string[] = [];

interface SendError {
  readonly text: string;
  /** A refusal Settings can answer (a key host to confirm, a base URL to fix): the error offers to open it. */
  readonly answeredInSettings: boolean;
}

function sendErrorOf(caught: unknown): SendError {
  const code = (caught as { code?: unknown } | null)?.code;
  return { text: errorText(caught), answeredInSettings: (CONNECTION_PROBLEM_CODES as readonly unknown[]).includes(code) };
}

/** IME composition: Enter confirms the composed characters and must not send. */
export function isComposing(event: KeyboardEvent<HTMLTextAreaElement>): boolean {
  return event.nativeEvent.isComposing || event.keyCode === 229;
}

/** Shortens a queued message to one line for the "Queued: …" strip. */
function queuedPreview(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 80 || text.trim().includes('\n') ? `${line.slice(0, 80)}…` : line;
}

function filesPhrase(count: number): string {
  return count === 1 ? '1 file' : `${count} files`;
}

/** The files a paste or a drop carries (a copied image arrives as a file; copied text does not). */
function filesOf(transfer: DataTransfer | null): File[] {
  return transfer === null ? [] : Array.from(transfer.files);
}

/** Offered when Enter is pressed while a reply runs: what to do with the draft. */
function BusyPrompt({
  conversationId,
  draft,
  attachments,
  turnRunning,
  onDone,
}: {
  readonly conversationId: string;
  readonly draft: string;
  readonly attachments: readonly TrayAttachment[];
  readonly turnRunning: boolean;
  readonly onDone: () => void;
}) {
  const queued = useAppStore((state) => state.queuedMessages[conversationId]);
  const alreadyQueued = queued !== undefined;
  return (
    <div
      className="composer-busy"
      data-testid="composer-busy"
      role="status"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onDone();
        }
      }}
    >
      <span className="composer-busy-text">
        {alreadyQueued
          ? 'A reply is still running and a message is already queued. Cancel the queued one to queue this instead.'
          : 'A reply is still running. Queue this message to send when it ends?'}
      </span>
      {alreadyQueued ? null : (
        <button
          type="button"
          className="button small primary"
          data-testid="composer-queue"
          onClick={() => {
            queueMessage(conversationId, draft, attachments);
            onDone();
          }}
        >
          Queue
        </button>
      )}
      {turnRunning && !alreadyQueued ? (
        <button
          type="button"
          className="button small"
          data-testid="composer-stop-and-send"
          onClick={() => {
            void stopAndSend(conversationId, draft, attachments);
            onDone();
          }}
        >
          Stop and send
        </button>
      ) : null}
      <button type="button" className="button small ghost" data-testid="composer-busy-dismiss" onClick={onDone}>
        Keep editing
      </button>
    </div>
  );
}

export function Composer({ conversationId }: { readonly conversationId: string }) {
  const draft = useAppStore((state) => state.drafts[conversationId] ?? '');
  const turnRunning = useAppStore((state) => conversationId in state.activeTurns);
  // A turn sent while a compaction runs would replay the rows being summarised.
  const compacting = useAppStore((state) => conversationId in state.compactions);
  const queued = useAppStore((state) => state.queuedMessages[conversationId]);
  // The running work Enter was pressed during: the prompt answers that one press, in that conversation only.
  const runningWork = useAppStore((state) =>
    selectReplyRunning(state, conversationId)
      ? `${conversationId}:${state.activeTurns[conversationId]?.turnId ?? 'waiting'}`
      : null,
  );
  const [busyPromptFor, setBusyPromptFor] = useState<string | null>(null);
  const brain = useAppStore((state) => selectConversationBrain(state, conversationId));
  const [error, setError] = useState<SendError | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const skillSuggestions = useSkillSuggestions(draft, (text) => updateDraft(conversationId, text));
  const suggesting = skillSuggestions.suggestions.length > 0;
  const hasSkills = useAppStore((state) => (state.skills?.skills.length ?? 0) > 0);
  const model = useAppStore((state) => selectConversationModel(state, conversationId));
  const tray = useAppStore((state) => state.trays[conversationId] ?? NO_ATTACHMENTS);
  const attachmentProblems = useAppStore((state) => state.attachmentProblems[conversationId] ?? NO_PROBLEMS);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const [dropping, setDropping] = useState(false);
  const storing = tray.some((entry) => entry.view === null);
  const stored = useMemo(() => tray.filter((entry) => entry.view !== null), [tray]);
  const refusal = useMemo(() => {
    const kinds = stored.flatMap((entry): AttachmentKind[] => (entry.view === null ? [] : [entry.view.kind]));
    return kinds.length === 0 ? null : attachmentRefusal(brain, model, kinds);
  }, [brain, model, stored]);

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (input === null) return;
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight, MAX_INPUT_HEIGHT_PX)}px`;
  }, [draft]);

  const draftEmpty = draft.trim() === '' && stored.length === 0;
  const replyRunning = runningWork !== null;
  const busyPromptOpen = busyPromptFor !== null && busyPromptFor === runningWork && !draftEmpty;
  // Why Send waits, beyond an empty draft: files still being stored, or a file the chosen model cannot take.
  const sendBlockedBy = storing ? 'Wait until the files are attached.' : refusal;

  const send = async (): Promise<void> => {
    if (draftEmpty || sendBlockedBy !== null) return;
    if (replyRunning) {
      setBusyPromptFor(runningWork);
      return;
    }
    setError(null);
    try {
      await sendMessage(conversationId, draft, stored);
    } catch (caught) {
      setError(sendErrorOf(caught));
    }
  };

  const attach = (files: readonly File[]): void => {
    if (error !== null) setError(null);
    void attachFiles(conversationId, files);
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>): void => {
    const files = filesOf(event.clipboardData);
    if (files.length === 0) return;
    // A copied image often comes with its markup as text too; the file is what was meant.
    event.preventDefault();
    attach(files);
  };

  const carriesFiles = (event: DragEvent<HTMLElement>): boolean => event.dataTransfer.types.includes('Files');
  const dropHandlers = {
    onDragEnter: (event: DragEvent<HTMLDivElement>) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      setDropping(true);
    },
    onDragOver: (event: DragEvent<HTMLDivElement>) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (event: DragEvent<HTMLDivElement>) => {
      if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
      setDropping(false);
    },
    onDrop: (event: DragEvent<HTMLDivElement>) => {
      setDropping(false);
      const files = filesOf(event.dataTransfer);
      if (files.length === 0) return;
      event.preventDefault();
      attach(files);
    },
  };

  const stop = (): void => {
    void stopTurn(conversationId);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (skillSuggestions.onKeyDown(event)) return;
    const plainKey = !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
    if (event.key === 'ArrowUp' && plainKey && draft === '' && !replyRunning) {
      // Up in an empty composer edits the last message sent, as in a terminal or a chat client.
      const lastSent = selectLastEditableUserMessageId(useAppStore.getState(), conversationId);
      if (lastSent !== null) {
        event.preventDefault();
        editInPlace(lastSent);
      }
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !isComposing(event)) {
      event.preventDefault();
      void send();
    } else if (event.key === 'Escape' && busyPromptOpen) {
      event.preventDefault();
      setBusyPromptFor(null);
    } else if (event.key === 'Escape' && turnRunning) {
      event.preventDefault();
      stop();
    }
  };

  return (
    <div className="composer">
      {error === null ? null : (
        <div className="composer-error" data-testid="composer-error" role="alert">
          {error.text}
          {error.answeredInSettings ? (
            <button type="button" className="button small" data-testid="composer-error-settings" onClick={() => openSettings('general')}>
              Open Settings
            </button>
          ) : null}
        </div>
      )}
      {attachmentProblems.length === 0 ? null : (
        <div className="composer-error attachment-problems" data-testid="attachment-problems" role="alert">
          <ul>
            {attachmentProblems.map((problem, index) => (
              <li key={index} data-testid="attachment-problem">
                {problem}
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="icon-button"
            data-testid="attachment-problems-dismiss"
            aria-label="Dismiss the attachment problems"
            onClick={() => dismissAttachmentProblems(conversationId)}
          >
            <CloseIcon />
          </button>
        </div>
      )}
      {refusal === null ? null : (
        <div className="composer-refusal" id={`attachment-refusal-${conversationId}`} data-testid="attachment-refusal" role="status">
          {refusal}
        </div>
      )}
      {busyPromptOpen ? (
        <BusyPrompt
          conversationId={conversationId}
          draft={draft}
          attachments={stored}
          turnRunning={turnRunning}
          onDone={() => {
            setBusyPromptFor(null);
            inputRef.current?.focus();
          }}
        />
      ) : null}
      {queued === undefined ? null : (
        <div className="composer-queued" data-testid="composer-queued">
          <span className="composer-queued-text" title={queued.text}>
            Queued: {queuedPreview(queued.text)}
            {queued.attachments.length === 0 ? '' : ` (with ${filesPhrase(queued.attachments.length)})`}
          </span>
          <button
            type="button"
            className="button small ghost"
            data-testid="composer-queued-cancel"
            aria-label="Cancel the queued message"
            onClick={() => {
              cancelQueuedMessage(conversationId);
              inputRef.current?.focus();
            }}
          >
            Cancel
          </button>
        </div>
      )}
      <div className={dropping ? 'composer-box dropping' : 'composer-box'} data-testid="composer-box" {...dropHandlers}>
        <SkillSuggestionList state={skillSuggestions} />
        <AttachmentTray conversationId={conversationId} />
        <input
          ref={fileInputRef}
          type="file"
          className="composer-file-input"
          data-testid="composer-file-input"
          multiple
          accept={ATTACHMENT_ACCEPT}
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            attach(Array.from(event.target.files ?? []));
            // The same file picked again is a new choice.
            event.target.value = '';
          }}
        />
        <button
          type="button"
          className="composer-attach"
          data-testid="attach-button"
          aria-label="Attach files"
          title="Attach images, PDFs or text files (or paste or drop them here)"
          onClick={() => fileInputRef.current?.click()}
        >
          <PaperclipIcon />
        </button>
        <textarea
          ref={inputRef}
          className="composer-input"
          data-testid="composer-input"
          aria-label="Message"
          placeholder={`Message ${brainLabel(brain)}…`}
          rows={1}
          autoFocus
          value={draft}
          aria-autocomplete="list"
          aria-controls={suggesting ? skillSuggestions.listId : undefined}
          aria-activedescendant={suggesting ? skillSuggestions.optionId(skillSuggestions.activeIndex) : undefined}
          onChange={(event) => {
            updateDraft(conversationId, event.target.value);
            if (event.target.value.trim() === '') setBusyPromptFor(null);
            skillSuggestions.onDraftChange(event.target.value);
            if (error !== null) setError(null);
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {turnRunning ? (
          <button
            type="button"
            className="composer-button stop"
            data-testid="stop-button"
            aria-label="Stop the reply"
            title="Stop (Esc)"
            onClick={stop}
          >
            <StopIcon />
          </button>
        ) : (
          <button
            type="button"
            className="composer-button send"
            data-testid="send-button"
            aria-label="Send"
            title={
              sendBlockedBy ??
              (compacting ? 'A compaction is running: Send offers to queue this message until it ends' : 'Send (Enter)')
            }
            aria-describedby={refusal === null ? undefined : `attachment-refusal-${conversationId}`}
            disabled={draftEmpty || sendBlockedBy !== null}
            onClick={() => void send()}
          >
            <SendIcon />
          </button>
        )}
      </div>
      <p className="composer-hint">
        {suggesting
          ? 'Tab or Enter to pick a skill · ↑↓ to choose · Esc to hide'
          : `Enter to send · Shift+Enter for a new line${hasSkills ? ' · / for skills' : ''}${turnRunning ? ' · Esc to stop' : ''}`}
      </p>
    </div>
  );
}
