import { useId, useState, type ComponentType } from 'react';
import type { MessageView } from '../../src-shared/api';
import { MarkdownView } from '../markdown/Markdown';
import { loadCoveredMessages, loadOlderCoveredMessages } from '../state/context-actions';
import { messageCount } from '../state/context-slice';
import { useAppStore } from '../state/store';
import { formatCount } from '../../src-shared/format-count';

/** How one covered row renders: the list's own row content, passed in so the card does not import the row. */
export type CoveredRowContent = ComponentType<{ readonly message: MessageView }>;

interface CoveredMessagesProps {
  readonly summaryId: string;
  readonly listId: string;
  readonly RowContent: CoveredRowContent;
}

function CoveredMessages({ summaryId, listId, RowContent }: CoveredMessagesProps) {
  const rows = useAppStore((state) => state.coveredBySummary[summaryId]);
  if (rows === undefined || rows.status === 'loading') {
    return (
      <div id={listId} className="covered-rows" role="status">
        Loading the messages…
      </div>
    );
  }
  if (rows.status === 'error') {
    return (
      <div id={listId} className="covered-rows" role="alert">
        <span>Could not load the messages: {rows.error}</span>
        <button type="button" className="button small" onClick={() => void loadCoveredMessages(summaryId)}>
          Try again
        </button>
      </div>
    );
  }
  return (
    <div id={listId} className="covered-rows" data-testid="covered-rows" aria-label="Messages the summary stands for">
      {rows.hasOlder ? (
        <button
          type="button"
          className="button small ghost"
          data-testid="covered-show-older"
          disabled={rows.loadingOlder}
          onClick={() => void loadOlderCoveredMessages(summaryId)}
        >
          {rows.loadingOlder ? 'Loading older…' : 'Show older'}
        </button>
      ) : null}
      {rows.messages.map((message) => (
        <div key={message.id} className="covered-row" data-testid="covered-row">
          <RowContent message={message} />
        </div>
      ))}
    </div>
  );
}

/**
 * A summary row as what it is: words Anybrain wrote so the brains keep the gist of older messages in their window.
 * The messages it stands for stay stored; the card shows them, subdued, on request.
 */
export function SummaryCard({ message, RowContent }: { readonly message: MessageView; readonly RowContent: CoveredRowContent }) {
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const titleId = useId();
  const count = messageCount(message.coveredMessages);
  const loaded = useAppStore((state) => message.id in state.coveredBySummary);

  const toggle = (): void => {
    if (!expanded && !loaded) void loadCoveredMessages(message.id);
    setExpanded(!expanded);
  };

  return (
    <article
      className="message summary-card"
      data-testid="message"
      data-message-id={message.id}
      data-role={message.role}
      data-status={message.status}
      data-brain={message.brain ?? ''}
      data-kind="summary"
      aria-labelledby={titleId}
    >
      <header className="summary-card-header">
        <div id={titleId} className="summary-card-title" data-testid="summary-title">
          Summary of {message.coveredMessages === 1 ? '1 earlier message' : `${formatCount(message.coveredMessages)} earlier messages`}
        </div>
        <p className="summary-card-byline" data-testid="summary-byline">
          Written by Anybrain for the brains&apos; context, in place of these messages: not your words or a brain&apos;s reply.
        </p>
      </header>
      <div className="message-body summary-card-body" data-testid="message-text">
        <MarkdownView text={message.text} />
      </div>
      {expanded ? <CoveredMessages summaryId={message.id} listId={listId} RowContent={RowContent} /> : null}
      {/* Below the rows it shows: the list keeps its end still, so the button stays where it was clicked. */}
      <button
        type="button"
        className="button small ghost summary-card-toggle"
        data-testid="summary-toggle"
        aria-expanded={expanded}
        aria-controls={expanded ? listId : undefined}
        onClick={toggle}
      >
        {expanded ? `Hide the ${count}` : `Show the ${count}`}
      </button>
    </article>
  );
}
