import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { MessageView } from '../../src-shared/api';
import { errorText } from '../state/api-client';
import { editInPlace, sendEdit } from '../state/turn-actions';
import { isComposing, MAX_INPUT_HEIGHT_PX } from './Composer';

/**
 * The editor that opens in place of a user message: sending makes a new message beside it (the old one and its
 * replies stay, one "‹ ›" away). Enter sends and Shift+Enter starts a new line, as in the composer; Esc cancels.
 */
export function MessageEditor({ message }: { readonly message: MessageView }) {
  const [text, setText] = useState(message.text);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const editorRef = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (input === null) return;
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight, MAX_INPUT_HEIGHT_PX)}px`;
  }, [text]);

  // Focus goes back where it was when the editor opened: the composer that Up came from, or the message's Edit button
  // (drawn again once the editor closes). After a send the message has left with the old branch: the composer.
  useEffect(() => {
    // An Edit button that opened the editor has already left with the bubble, leaving focus on the body.
    const focused = document.activeElement;
    const opener = focused instanceof HTMLElement && focused !== document.body ? focused : null;
    const input = inputRef.current;
    input?.focus();
    input?.setSelectionRange(input.value.length, input.value.length);
    // Opened by Up from the composer, the editor may sit below the end of the view: its buttons come into sight.
    editorRef.current?.scrollIntoView?.({ block: 'nearest' });
    return () => {
      const editButton = document.querySelector<HTMLElement>(`article[data-message-id="${message.id}"] [data-testid="edit-message"]`);
      const composer = document.querySelector<HTMLElement>('[data-testid="composer-input"]');
      (opener?.isConnected === true ? opener : (editButton ?? composer))?.focus();
    };
  }, [message.id]);

  const empty = text.trim() === '';

  const send = async (): Promise<void> => {
    if (empty || sending) return;
    setSending(true);
    setError(null);
    try {
      await sendEdit(message.conversationId, message.id, text);
    } catch (caught) {
      setError(errorText(caught));
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Enter' && !event.shiftKey && !isComposing(event)) {
      event.preventDefault();
      void send();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      editInPlace(null);
    }
  };

  return (
    <div ref={editorRef} className="message-editor" data-testid="message-editor">
      <textarea
        ref={inputRef}
        className="message-editor-input"
        data-testid="message-editor-input"
        aria-label="Edit message"
        rows={1}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          if (error !== null) setError(null);
        }}
        onKeyDown={onKeyDown}
      />
      {error === null ? null : (
        <div className="message-editor-error" data-testid="message-editor-error" role="alert">
          {error}
        </div>
      )}
      <div className="message-editor-buttons">
        <span className="message-editor-hint">Sending keeps the original: switch between them with ‹ ›</span>
        <button type="button" className="button small ghost" data-testid="message-editor-cancel" onClick={() => editInPlace(null)}>
          Cancel
        </button>
        <button
          type="button"
          className="button small primary"
          data-testid="message-editor-send"
          disabled={empty || sending}
          onClick={() => void send()}
        >
          Send
        </button>
      </div>
    </div>
  );
}
