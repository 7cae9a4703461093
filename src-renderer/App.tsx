import { ConversationPane } from './components/ConversationPane';
import { EmptyState } from './components/EmptyState';
import { MemoriesDialog } from './components/MemoriesDialog';
import { NoticeBanner } from './components/NoticeBanner';
import { RequestDialog } from './components/RequestDialog';
import { SettingsDialog } from './components/SettingsDialog';
import { Sidebar } from './components/Sidebar';
import { UndoDeleteToasts } from './components/UndoDeleteToasts';
import { selectExportDialogOpen } from './state/selectors';
import { useAppStore } from './state/store';
import { useThemeSync } from './theme/theme';

export function App() {
  useThemeSync();
  const openConversationId = useAppStore((state) => state.openConversationId);
  const settingsOpen = useAppStore((state) => state.settingsOpen);
  const requestPreviewOpen = useAppStore((state) => state.requestPreviewOpen);
  const memoriesOpen = useAppStore((state) => state.memoriesOpen);
  // The export dialogs are rendered by their buttons, into the document body, outside this frame.
  const exportDialogOpen = useAppStore(selectExportDialogOpen);
  const showMemories = memoriesOpen && !settingsOpen;
  const showRequestPreview = requestPreviewOpen && openConversationId !== null && !settingsOpen && !memoriesOpen;
  return (
    <div className="app">
      <div className="app-frame" inert={settingsOpen || showRequestPreview || showMemories || exportDialogOpen}>
        <Sidebar />
        <main className="main">
          <NoticeBanner />
          {openConversationId === null ? (
            <EmptyState />
          ) : (
            <ConversationPane key={openConversationId} conversationId={openConversationId} />
          )}
        </main>
      </div>
      <UndoDeleteToasts />
      {showRequestPreview ? <RequestDialog key={openConversationId} conversationId={openConversationId} /> : null}
      {showMemories ? <MemoriesDialog /> : null}
      {settingsOpen ? <SettingsDialog /> : null}
    </div>
  );
}
