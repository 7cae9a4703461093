import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { CONNECTION_PROBLEM_CODES } from '../../src-shared/api';
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
import { selectConversationBrain, selectLastEditableUserMessageId, selectReplyRunning } from '../state/selectors';
import { useAppStore } from '../state/store';
import { brainLabel } from './brain-options';
import { SendIcon, StopIcon } from './icons';
import { SkillSuggestionList, useSkillSuggestions } from './SkillSuggestions';

export const MAX_INPUT_HEIGHT_PX = 240;

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

/** Offered when Enter is pressed while a reply runs: what to do with the draft. */
function BusyPrompt({
  conversationId,
  draft,
  turnRunning,
  onDone,
}: {
  readonly conversationId: string;
  readonly draft: string;
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
            queueMessage(conversationId, draft);
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
            void stopAndSend(conversationId, draft);
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

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (input === null) return;
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight, MAX_INPUT_HEIGHT_PX)}px`;
  }, [draft]);

  const draftEmpty = draft.trim() === '';
  const replyRunning = runningWork !== null;
  const busyPromptOpen = busyPromptFor !== null && busyPromptFor === runningWork && !draftEmpty;

  const send = async (): Promise<void> => {
    if (draftEmpty) return;
    if (replyRunning) {
      setBusyPromptFor(runningWork);
      return;
    }
    setError(null);
    try {
      await sendMessage(conversationId, draft);
    } catch (caught) {
      setError(sendErrorOf(caught));
    }
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
      {busyPromptOpen ? (
        <BusyPrompt
          conversationId={conversationId}
          draft={draft}
          turnRunning={turnRunning}
          onDone={() => {
            setBusyPromptFor(null);
            inputRef.current?.focus();
          }}
        />
      ) : null}
      {queued === undefined ? null : (
        <div className="composer-queued" data-testid="composer-queued">
          <span className="composer-queued-text" title={queued}>
            Queued: {queuedPreview(queued)}
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
      <div className="composer-box">
        <SkillSuggestionList state={skillSuggestions} />
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
            title={compacting ? 'A compaction is running: Send offers to queue this message until it ends' : 'Send (Enter)'}
            disabled={draftEmpty}
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
