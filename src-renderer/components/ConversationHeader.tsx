import { openRequestPreview } from '../state/turn-actions';
import { openCompactDialog } from '../state/context-actions';
import { useAppStore } from '../state/store';
import { BrainPicker } from './BrainPicker';
import { ContextMeter } from './ContextMeter';
import { ExportChoosingBar, ExportConversationButton } from './ExportConversation';
import { CodeIcon } from './icons';
import { OverflowMenu } from './OverflowMenu';
import { CollapsedSidebarControls } from './SidebarToggle';
import { useMediaQuery } from './useMediaQuery';

/** Below this width the header's actions go into the "More actions" menu so the header keeps one row. */
export const NARROW_HEADER_QUERY = '(max-width: 1000px)';

const SHOW_REQUEST_TITLE = 'The exact request the next turn would send, without sending it';

export function ConversationHeader({ conversationId }: { readonly conversationId: string }) {
  const title = useAppStore((state) => state.conversationsById[conversationId]?.title);
  const busy = useAppStore((state) => conversationId in state.compactions || conversationId in state.activeTurns);
  const narrow = useMediaQuery(NARROW_HEADER_QUERY);

  return (
    <header className={`conversation-header${narrow ? ' is-narrow' : ''}`}>
      <div className="conversation-header-row">
        <CollapsedSidebarControls />
        <h1 className="conversation-heading" title={title}>
          {title ?? ''}
        </h1>
        <BrainPicker conversationId={conversationId} />
        <ContextMeter conversationId={conversationId} compact={narrow} />
        {narrow ? (
          <OverflowMenu>
            <button
              type="button"
              role="menuitem"
              className="menu-item"
              data-testid="compact-now"
              title="Summarise the oldest messages into one summary; they stay here, collapsed under it"
              disabled={busy}
              aria-haspopup="dialog"
              onClick={openCompactDialog}
            >
              Compact now
            </button>
            <button
              type="button"
              role="menuitem"
              className="menu-item"
              data-testid="show-request"
              aria-haspopup="dialog"
              title={SHOW_REQUEST_TITLE}
              onClick={openRequestPreview}
            >
              <CodeIcon />
              Show request
            </button>
            <ExportConversationButton conversationId={conversationId} asMenuItem />
          </OverflowMenu>
        ) : (
          <div className="conversation-actions-bar">
            <button
              type="button"
              className="button small ghost"
              data-testid="show-request"
              aria-haspopup="dialog"
              title={SHOW_REQUEST_TITLE}
              onClick={openRequestPreview}
            >
              <CodeIcon />
              Show request
            </button>
            <ExportConversationButton conversationId={conversationId} />
          </div>
        )}
      </div>
      <ExportChoosingBar conversationId={conversationId} />
    </header>
  );
}
