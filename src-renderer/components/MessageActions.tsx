import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { MessageView } from '../../src-shared/api';
import type { BrainId } from '../../src-shared/brains';
import { showAlternative } from '../state/conversation-actions';
import { selectReplyRunning } from '../state/selectors';
import { useAppStore } from '../state/store';
import { answerWith, editInPlace, regenerateReply } from '../state/turn-actions';
import { brainOptions } from './brain-options';
import { CheckIcon, ChevronLeftIcon, ChevronRightIcon, CopyIcon, PencilIcon, RetryIcon } from './icons';
import { useCopy } from './use-copy';

/** Room the brains menu needs below its button; with less, it opens upwards. */
const MENU_HEIGHT_PX = 290;
/** Room the menu needs right of its button's start; with less, it lines up with the button's end instead. */
const MENU_WIDTH_PX = 220;

/** Where the open menu sits against its button. */
interface MenuPlacement {
  readonly vertical: 'down' | 'up';
  readonly horizontal: 'start' | 'end';
}


/** Copies the message's text exactly as stored (a reply's Markdown source, not its rendering). */
function CopyButton({ text }: { readonly text: string }) {
  const { copyState, copy } = useCopy();

  return (
    <>
      <button
        type="button"
        className="icon-button message-action"
        data-testid="copy-message"
        aria-label="Copy message"
        title="Copy the message as written (Markdown)"
        onClick={() => void copy(text)}
      >
        {copyState === 'copied' ? <CheckIcon /> : <CopyIcon />}
      </button>
      <span className="message-action-note" role="status" data-testid="copy-status">
        {copyState === 'copied' ? 'Copied' : copyState === 'failed' ? 'Copy failed' : ''}
      </span>
    </>
  );
}

/** "‹ 2 / 3 ›": pages between the alternatives of one message; each shows the newest branch below it. */
export function SiblingPager({ message, disabled }: { readonly message: MessageView; readonly disabled: boolean }) {
  const { siblings } = message;
  if (siblings === null) return null;
  const { previousId, nextId } = siblings;
  return (
    <div className="sibling-pager" data-testid="sibling-pager" role="group" aria-label="Alternatives">
      <button
        type="button"
        className="icon-button"
        data-testid="previous-alternative"
        aria-label="Previous alternative"
        title="Previous alternative"
        disabled={disabled || previousId === null}
        onClick={() => {
          if (previousId !== null) void showAlternative(previousId);
        }}
      >
        <ChevronLeftIcon />
      </button>
      <span className="sibling-position" data-testid="sibling-position">
        {siblings.index} / {siblings.count}
      </span>
      <button
        type="button"
        className="icon-button"
        data-testid="next-alternative"
        aria-label="Next alternative"
        title="Next alternative"
        disabled={disabled || nextId === null}
        onClick={() => {
          if (nextId !== null) void showAlternative(nextId);
        }}
      >
        <ChevronRightIcon />
      </button>
    </div>
  );
}

/**
 * "Answer with…": a menu of the seven brains; the one picked writes a new reply beside this one, on its own choice of
 * model. Right arrow (or the "›" beside a brain) lists that brain's models instead; left arrow goes back.
 */
function AnswerWithMenu({ message, disabled }: { readonly message: MessageView; readonly disabled: boolean }) {
  const settings = useAppStore((state) => state.settings);
  const [open, setOpen] = useState<MenuPlacement | null>(null);
  // The brain whose models the menu lists, or null for the list of brains.
  const [modelsOf, setModelsOf] = useState<BrainId | null>(null);
  // The item to focus once the menu shows its other list: the brain the models came from, or the first item.
  const focusBrain = useRef<BrainId | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const options = brainOptions(settings).filter((option) => option.available);
  const listed = options.find((option) => option.id === modelsOf);

  const close = (returnFocus: boolean): void => {
    setOpen(null);
    setModelsOf(null);
    if (returnFocus) buttonRef.current?.focus();
  };

  useEffect(() => {
    if (open === null) return;
    const closeOutside = (event: MouseEvent): void => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) {
        setOpen(null);
        setModelsOf(null);
      }
    };
    document.addEventListener('mousedown', closeOutside);
    return () => document.removeEventListener('mousedown', closeOutside);
  }, [open]);

  useEffect(() => {
    if (open === null) return;
    const brain = focusBrain.current;
    focusBrain.current = null;
    const selector = brain === null ? '[role="menuitem"]' : `[data-brain-item="${brain}"]`;
    menuRef.current?.querySelector<HTMLElement>(selector)?.focus();
  }, [open, modelsOf]);

  const toggle = (): void => {
    if (open !== null) {
      close(false);
      return;
    }
    // The list scrolls inside its own box, which cuts off what overflows it: a menu near its bottom edge opens
    // upwards, and near its right edge lines up with the button's end.
    const button = buttonRef.current?.getBoundingClientRect();
    const frame = buttonRef.current?.closest('[data-testid="message-list"]')?.getBoundingClientRect();
    const roomBelow = button === undefined || frame === undefined ? Infinity : frame.bottom - button.bottom;
    const roomRight = button === undefined || frame === undefined ? Infinity : frame.right - button.left;
    setOpen({ vertical: roomBelow < MENU_HEIGHT_PX ? 'up' : 'down', horizontal: roomRight < MENU_WIDTH_PX ? 'end' : 'start' });
  };

  const pick = (brain: BrainId, model?: string): void => {
    close(true);
    void answerWith(message.conversationId, message.id, brain, model);
  };

  const showBrains = (): void => {
    focusBrain.current = modelsOf;
    setModelsOf(null);
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const current = items.indexOf(document.activeElement as HTMLElement);
    const focusAt = (index: number): void => items[(index + items.length) % items.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        focusAt(current + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        focusAt(current - 1);
        break;
      case 'Home':
        event.preventDefault();
        focusAt(0);
        break;
      case 'End':
        event.preventDefault();
        focusAt(items.length - 1);
        break;
      case 'ArrowRight': {
        const brain = (document.activeElement as HTMLElement | null)?.dataset.brainItem;
        const option = options.find((candidate) => candidate.id === brain);
        if (modelsOf === null && option !== undefined) {
          event.preventDefault();
          setModelsOf(option.id);
        }
        break;
      }
      case 'ArrowLeft':
        if (modelsOf !== null) {
          event.preventDefault();
          showBrains();
        }
        break;
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        if (modelsOf === null) close(true);
        else showBrains();
        break;
      case 'Tab':
        close(false);
        break;
      default:
        break;
    }
  };

  return (
    <div className="answer-with">
      <button
        ref={buttonRef}
        type="button"
        className="message-action text-action"
        data-testid="answer-with"
        aria-haspopup="menu"
        aria-expanded={open !== null}
        aria-controls={open === null ? undefined : menuId}
        disabled={disabled}
        title="Ask another brain the same message, beside this reply"
        onClick={toggle}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && open === null) {
            event.preventDefault();
            toggle();
          }
        }}
      >
        Answer with…
      </button>
      {open === null ? null : (
        <div
          ref={menuRef}
          id={menuId}
          className={`answer-with-menu opens-${open.vertical} aligns-${open.horizontal}`}
          data-testid="answer-with-menu"
          role="menu"
          aria-label={listed === undefined ? 'Answer with' : `Answer with ${listed.label} on the model`}
          onKeyDown={onMenuKeyDown}
        >
          {listed === undefined ? (
            <>
              {options.map((option) => (
                <button
                  key={option.id}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className="answer-with-item"
                  data-testid={`answer-with-${option.id}`}
                  data-brain-item={option.id}
                  onClick={() => pick(option.id)}
                >
                  <span className="answer-with-label">{option.label}</span>
                  {/* Pointer way to the models; the keyboard way is the right arrow. */}
                  <span
                    className="answer-with-more"
                    aria-hidden="true"
                    title={`Choose ${option.label}'s model`}
                    onClick={(event) => {
                      event.stopPropagation();
                      setModelsOf(option.id);
                    }}
                  >
                    ›
                  </span>
                </button>
              ))}
              <div className="answer-with-hint" aria-hidden="true">
                → for models
              </div>
            </>
          ) : (
            <>
              <button type="button" role="menuitem" tabIndex={-1} className="answer-with-item answer-with-back" onClick={showBrains}>
                ‹ All brains
              </button>
              {listed.models.map((model) => (
                <button
                  key={model}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className="answer-with-item"
                  data-testid={`answer-with-model-${model}`}
                  onClick={() => pick(listed.id, model)}
                >
                  <span className="answer-with-label">{model}</span>
                  {model === listed.defaultModel ? <span className="answer-with-note">default</span> : null}
                </button>
              ))}
            </>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * The actions under a message: Copy; Edit on a user message; Regenerate and Answer with… on a reply; and the pager
 * where the message has alternatives. The actions show on hover and keyboard focus in space kept for them, so the
 * text never moves or hides under them; the pager always shows.
 */
export function MessageToolbar({ message }: { readonly message: MessageView }) {
  const replyRunning = useAppStore((state) => selectReplyRunning(state, message.conversationId));
  // The rows a summary covers stay shown, but no branch can start from them.
  const covered = message.compactedInto !== null;
  const streaming = message.status === 'streaming';
  const isReply = message.role === 'assistant';
  return (
    <div className={`message-toolbar ${isReply ? 'for-reply' : 'for-user'}`} data-testid="message-toolbar">
      {covered ? null : <SiblingPager message={message} disabled={replyRunning} />}
      {streaming ? null : (
        <div className="message-toolbar-actions" role="group" aria-label="Message actions">
          <CopyButton text={message.text} />
          {!isReply && !covered && !replyRunning ? (
            <button
              type="button"
              className="icon-button message-action"
              data-testid="edit-message"
              aria-label="Edit"
              title="Edit and send again"
              onClick={() => editInPlace(message.id)}
            >
              <PencilIcon />
            </button>
          ) : null}
          {isReply && !covered ? (
            <>
              <button
                type="button"
                className="icon-button message-action"
                data-testid="regenerate-reply"
                aria-label="Regenerate"
                title="Regenerate with the same brain"
                disabled={replyRunning}
                onClick={() => void regenerateReply(message.conversationId, message.id)}
              >
                <RetryIcon />
              </button>
              <AnswerWithMenu message={message} disabled={replyRunning} />
            </>
          ) : null}
        </div>
      )}
    </div>
  );
}
