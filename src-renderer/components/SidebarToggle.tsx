import { useRef, type RefObject } from 'react';
import { createConversation } from '../state/conversation-actions';
import { useAppStore } from '../state/store';
import { sidebarShown } from '../state/ui-slice';
import { toggleSidebarShown } from '../state/window-actions';
import { isApplePlatform } from './brain-shortcuts';
import { PlusIcon, SidebarIcon } from './icons';
import { windowAriaShortcut, windowShortcutLabel } from './shortcuts';
import { useFocusReturn } from './useFocusReturn';

/** The id of the sidebar's `<nav>`, which the toggles control. */
export const SIDEBAR_ID = 'sidebar';

/** Hides or shows the sidebar; its name says what a press will do. */
interface SidebarToggleProps {
  readonly buttonRef: RefObject<HTMLButtonElement | null>;
  readonly testId: string;
}

export function SidebarToggle({ buttonRef, testId }: SidebarToggleProps) {
  const shown = useAppStore(sidebarShown);
  const apple = isApplePlatform();
  const label = shown ? 'Hide sidebar' : 'Show sidebar';
  return (
    <button
      ref={buttonRef}
      type="button"
      className="icon-button sidebar-toggle"
      data-testid={testId}
      aria-label={label}
      aria-expanded={shown}
      aria-controls={SIDEBAR_ID}
      aria-keyshortcuts={windowAriaShortcut('toggle-sidebar', apple)}
      title={`${label} (${windowShortcutLabel('toggle-sidebar', apple)})`}
      onClick={toggleSidebarShown}
    >
      <SidebarIcon />
    </button>
  );
}

/**
 * What stands in for the sidebar at the start of the main column while it is hidden: its toggle and a compact
 * New conversation. When a narrow window's overlay closes, focus comes back to the toggle.
 */
export function CollapsedSidebarControls() {
  const shown = useAppStore(sidebarShown);
  const overlayOpen = useAppStore((state) => state.sidebarOverlayOpen);
  const toggleRef = useRef<HTMLButtonElement>(null);
  useFocusReturn(overlayOpen, toggleRef);
  if (shown && !overlayOpen) return null;
  const apple = isApplePlatform();
  return (
    <div className="collapsed-sidebar-controls">
      <SidebarToggle buttonRef={toggleRef} testId="show-sidebar" />
      <button
        type="button"
        className="icon-button"
        data-testid="new-conversation-compact"
        aria-label="New conversation"
        aria-keyshortcuts={windowAriaShortcut('new-conversation', apple)}
        title={`New conversation (${windowShortcutLabel('new-conversation', apple)})`}
        onClick={() => void createConversation()}
      >
        <PlusIcon />
      </button>
    </div>
  );
}
