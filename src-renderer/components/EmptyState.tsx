import { createConversation } from '../state/conversation-actions';
import { PlusIcon } from './icons';
import { CollapsedSidebarControls } from './SidebarToggle';

export function EmptyState() {
  return (
    <section className="empty-state" aria-label="No conversation open">
      <div className="empty-state-bar">
        <CollapsedSidebarControls />
      </div>
      <div className="empty-card">
        <div className="empty-logo" aria-hidden="true">
          A
        </div>
        <h1>One conversation, any brain</h1>
        <p>Start a conversation, then let Claude, Kimi, GLM or another brain take the next turn. Each one sees the whole history.</p>
        <button
          type="button"
          className="button primary"
          data-testid="empty-state-new-conversation"
          onClick={() => void createConversation()}
        >
          <PlusIcon />
          New conversation
        </button>
      </div>
    </section>
  );
}
