import { ConversationPane } from './components/ConversationPane';
import { EmptyState } from './components/EmptyState';
import { NoticeBanner } from './components/NoticeBanner';
import { SettingsDialog } from './components/SettingsDialog';
import { Sidebar } from './components/Sidebar';
import { useAppStore } from './state/store';
import { useThemeSync } from './theme/theme';

export function App() {
  useThemeSync();
  const openConversationId = useAppStore((state) => state.openConversationId);
  const settingsOpen = useAppStore((state) => state.settingsOpen);
  return (
    <div className="app">
      <div className="app-frame" inert={settingsOpen}>
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
      {settingsOpen ? <SettingsDialog /> : null}
    </div>
  );
}
