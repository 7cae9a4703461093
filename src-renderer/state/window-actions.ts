import { useAppStore, type AppState } from './store';
import { setNarrowWindow, showSidebar, sidebarShown, toggleSidebar } from './ui-slice';

const { getState, setState } = useAppStore;

const SIDEBAR_HIDDEN_KEY = 'anybrain.sidebarHidden';

/** Below this width the sidebar would leave the conversation too narrow; it becomes an overlay instead. */
export const NARROW_WINDOW_QUERY = '(max-width: 719px)';

/** Whether the sidebar was hidden in a wide window last time; a display preference, so local storage suffices. */
export function storedSidebarHidden(readStorage: () => Pick<Storage, 'getItem'> = () => localStorage): boolean {
  try {
    return readStorage().getItem(SIDEBAR_HIDDEN_KEY) === 'true';
  } catch {
    return false;
  }
}

function rememberSidebarHidden(hidden: boolean): void {
  try {
    localStorage.setItem(SIDEBAR_HIDDEN_KEY, String(hidden));
  } catch {
    // Storage can be unavailable; the sidebar then opens on the next start.
  }
}

/** Applies a change to the sidebar, remembering the wide window's choice (a narrow window's overlay is never kept). */
function changeSidebar(change: Partial<AppState>): void {
  setState(change);
  if (change.sidebarHidden !== undefined) rememberSidebarHidden(change.sidebarHidden);
}

export function toggleSidebarShown(): void {
  changeSidebar(toggleSidebar(getState()));
}

export function closeSidebarOverlay(): void {
  if (getState().sidebarOverlayOpen) setState({ sidebarOverlayOpen: false });
}

/** Shows the sidebar if it is not showing and focuses its search box. */
export function focusSearch(): void {
  const state = getState();
  changeSidebar({ ...(sidebarShown(state) ? {} : showSidebar(state)), searchFocusRequests: state.searchFocusRequests + 1 });
}

export function noteWindowWidth(narrow: boolean): void {
  setState((state) => setNarrowWindow(state, narrow));
}

/** Starts from the remembered sidebar choice and the window's width, before the first paint. */
export function restoreSidebar(narrow: boolean): void {
  setState({ sidebarHidden: storedSidebarHidden(), narrowWindow: narrow, sidebarOverlayOpen: false });
}

export function openShortcuts(): void {
  setState({ shortcutsOpen: true });
}

export function closeShortcuts(): void {
  setState({ shortcutsOpen: false });
}
