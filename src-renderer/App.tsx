import { ConversationPane } from './components/ConversationPane';
import { EmptyState } from './components/EmptyState';
import { ImageViewer } from './components/ImageViewer';
import { MemoriesDialog } from './components/MemoriesDialog';
import { NoticeBanner } from './components/NoticeBanner';
import { NotAnsweringStrip } from './components/NotAnsweringStrip';
import { CompactDialog } from './components/CompactDialog';
import { RequestDialog } from './components/RequestDialog';
import { SettingsDialog } from './components/SettingsDialog';
import { ShortcutsSheet } from './components/ShortcutsSheet';
import { Sidebar } from './components/Sidebar';
import { UndoDeleteToasts } from './components/UndoDeleteToasts';
import { useSidebarLayout, useWindowShortcuts } from './components/useWindowShortcuts';
import { selectExportDialogOpen } from './state/selectors';
import { useAppStore } from './state/store';
import { sidebarShown } from './state/ui-slice';
import { closeSidebarOverlay } from './state/window-actions';
import { useThemeSync } from './theme/theme';

export function App() {
  useThemeSync();
  useSidebarLayout();
  useWindowShortcuts();
  const openConversationId = useAppStore((state) => state.openConversationId);
  const settingsOpen = useAppStore((state) => state.settingsOpen);
  const requestPreviewOpen = useAppStore((state) => state.requestPreviewOpen);
  const compactDialogOpen = useAppStore((state) => state.compactDialogOpen);
  const memoriesOpen = useAppStore((state) => state.memoriesOpen);
  const shortcutsOpen = useAppStore((state) => state.shortcutsOpen);
  const imageEnlarged = useAppStore((state) => state.enlargedAttachment !== null);
  const narrowWindow = useAppStore((state) => state.narrowWindow);
  const showSidebar = useAppStore(sidebarShown);
  const overlayOpen = narrowWindow && showSidebar;
  // The export dialogs are rendered by their buttons, into the document body, outside this frame.
  const exportDialogOpen = useAppStore(selectExportDialogOpen);
  const showMemories = memoriesOpen && !settingsOpen;
  const showRequestPreview = requestPreviewOpen && openConversationId !== null && !settingsOpen && !memoriesOpen;
  const showCompactDialog = compactDialogOpen && openConversationId !== null && !settingsOpen && !memoriesOpen;
  return (
    <div className="app">
      <div
        className={narrowWindow ? 'app-frame is-narrow' : showSidebar ? 'app-frame' : 'app-frame is-sidebar-hidden'}
        inert={settingsOpen || showRequestPreview || showCompactDialog || showMemories || exportDialogOpen || shortcutsOpen || imageEnlarged}
      >
        <Sidebar />
        {overlayOpen ? <div className="sidebar-scrim" data-testid="sidebar-scrim" aria-hidden="true" onClick={closeSidebarOverlay} /> : null}
        <main className="main" inert={overlayOpen}>
          <NoticeBanner />
          <NotAnsweringStrip />
          {openConversationId === null ? (
            <EmptyState />
          ) : (
            <ConversationPane key={openConversationId} conversationId={openConversationId} />
          )}
        </main>
      </div>
      <UndoDeleteToasts />
      {showRequestPreview ? <RequestDialog key={openConversationId} conversationId={openConversationId} /> : null}
      {showCompactDialog ? <CompactDialog key={openConversationId} conversationId={openConversationId} /> : null}
      {showMemories ? <MemoriesDialog /> : null}
      {settingsOpen ? <SettingsDialog /> : null}
      {shortcutsOpen ? <ShortcutsSheet /> : null}
      <ImageViewer />
    </div>
  );
}
