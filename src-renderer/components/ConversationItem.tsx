import { memo, useRef, useState, type KeyboardEvent } from 'react';
import { deleteConversation, openConversation, renameConversation } from '../state/conversation-actions';
import { errorText } from '../state/api-client';
import { selectConversationApprovalCount } from '../state/approvals-slice';
import { useAppStore } from '../state/store';
import { brainLabel } from './brain-options';
import { shortTimestamp } from './format';
import { PencilIcon, TrashIcon } from './icons';

interface RenameFieldProps {
  readonly conversationId: string;
  readonly title: string;
  readonly onDone: () => void;
}

function RenameField({ conversationId, title, onDone }: RenameFieldProps) {
  const [value, setValue] = useState(title);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Enter, Escape and the blur that follows them must end the edit once.
  const settled = useRef(false);

  const finish = (): void => {
    settled.current = true;
    onDone();
  };

  const save = async (): Promise<void> => {
    if (settled.current) return;
    const trimmed = value.trim();
    if (trimmed === '' || trimmed === title) {
      finish();
      return;
    }
    settled.current = true;
    setSaving(true);
    try {
      await renameConversation(conversationId, trimmed);
      onDone();
    } catch (caught) {
      settled.current = false;
      setError(errorText(caught));
      setSaving(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      finish();
    }
  };

  return (
    <div className="rename-field">
      <input
        className="rename-input"
        data-testid="rename-input"
        aria-label="Conversation title"
        value={value}
        maxLength={500}
        autoFocus
        disabled={saving}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => void save()}
        onFocus={(event) => event.target.select()}
      />
      {error === null ? null : (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

/** Where a virtualized list places an entry, and how it learns the entry's height. */
export interface ListSlot {
  readonly index: number;
  /** Of the whole list, for assistive technology that sees only the rendered entries. */
  readonly setSize: number;
  readonly start: number;
  readonly measure: (element: HTMLLIElement | null) => void;
}

/** One entry of the conversation list; re-renders only when its own conversation changes or it moves. */
export const ConversationItem = memo(function ConversationItem({
  conversationId,
  slot,
}: {
  readonly conversationId: string;
  readonly slot?: ListSlot;
}) {
  const conversation = useAppStore((state) => state.conversationsById[conversationId]);
  const isOpen = useAppStore((state) => state.openConversationId === conversationId);
  const isRunning = useAppStore((state) => conversationId in state.activeTurns);
  const waitingApprovals = useAppStore((state) => selectConversationApprovalCount(state, conversationId));
  const [renaming, setRenaming] = useState(false);

  if (conversation === undefined) return null;

  const classNames = ['conversation-item', isOpen ? 'is-open' : '', renaming ? 'is-renaming' : ''].filter(Boolean);
  return (
    <li
      className={classNames.join(' ')}
      data-testid="conversation-item"
      data-conversation-id={conversationId}
      {...(slot === undefined
        ? {}
        : {
            ref: slot.measure,
            'data-index': slot.index,
            'aria-setsize': slot.setSize,
            'aria-posinset': slot.index + 1,
            style: { transform: `translateY(${slot.start}px)` },
          })}
    >
      {renaming ? (
        <RenameField conversationId={conversationId} title={conversation.title} onDone={() => setRenaming(false)} />
      ) : (
        <>
          <button
            type="button"
            className="conversation-open"
            aria-current={isOpen ? 'page' : undefined}
            onClick={() => void openConversation(conversationId)}
          >
            <span className="conversation-title" data-testid="conversation-title">
              {conversation.title}
            </span>
            <span className="conversation-meta">
              {isRunning ? <span className="running-dot" aria-label="Replying" /> : null}
              {waitingApprovals > 0 && !isOpen ? (
                <span
                  className="approval-badge"
                  data-testid="approval-badge"
                  title="A tool call waits for your approval"
                  aria-label={waitingApprovals === 1 ? '1 tool call waits for approval' : `${waitingApprovals} tool calls wait for approval`}
                >
                  {waitingApprovals}
                </span>
              ) : null}
              {conversation.brain === null ? null : <span>{brainLabel(conversation.brain)}</span>}
              <span>{shortTimestamp(conversation.updatedAt)}</span>
            </span>
          </button>
          <div className="conversation-actions">
            <button
              type="button"
              className="icon-button"
              data-testid="rename-conversation"
              aria-label={`Rename ${conversation.title}`}
              title="Rename"
              onClick={() => setRenaming(true)}
            >
              <PencilIcon />
            </button>
            <button
              type="button"
              className="icon-button danger"
              data-testid="delete-conversation"
              aria-label={`Delete ${conversation.title}`}
              title="Delete"
              onClick={() => deleteConversation(conversationId)}
            >
              <TrashIcon />
            </button>
          </div>
        </>
      )}
    </li>
  );
});
