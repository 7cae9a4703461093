import { ConversationPane } from './components/ConversationPane';
import { EmptyState } from './components/EmptyState';
import { NoticeBanner } from './components/NoticeBanner';
import { RequestDialog } from './components/RequestDialog';
import { SettingsDialog } from './components/SettingsDialog';
import { Sidebar } from './components/Sidebar';
import { useAppStore } from './state/store';
import { useThemeSync } from './theme/theme';

export function App() {
  useThemeSync();
  const openConversationId = useAppStore((state) => state.openConversationId);
  const settingsOpen = useAppStore((state) => state.settingsOpen);
  const requestPreviewOpen = useAppStore((state) => state.requestPreviewOpen);
  const showRequestPreview = requestPreviewOpen && openConversationId !== null && !settingsOpen;
  return (
    <div className="app">
      <div className="app-frame" inert={settingsOpen || showRequestPreview}>
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
      {showRequestPreview ? <RequestDialog key={openConversationId} conversationId={openConversationId} /> : null}
      {settingsOpen ? <SettingsDialog /> : null}
    </div>
  );
}
