import { historyInRequestWords, windowSourceWords } from '../../src-shared/context-windows';
import { conversationSpendWords } from '../../src-shared/usage';
import { useEffect, useId, useState } from 'react';
import type { ContextStatusView } from '../../src-shared/api';
import { loadContextStatus, openCompactDialog } from '../state/context-actions';
import { selectConversationBrain } from '../state/selectors';
import { useAppStore } from '../state/store';
import { formatCount } from '../../src-shared/format-count';

/** The meter's colour: neutral below the warning line, amber from it, red from the emergency line or once refused. */
export type MeterTone = 'ok' | 'warning' | 'full';

export function meterTone(status: ContextStatusView): MeterTone {
  if (status.full || status.level === 'emergency') return 'full';
  return status.level === 'warning' ? 'warning' : 'ok';
}

/** "160,000 of 262,144 tokens (estimated); window: from the catalogue". */
export function meterFigures(status: ContextStatusView): string {
  const how = status.measuredBy === 'usage' ? "from the provider's count" : 'estimated';
  const source = windowSourceWords({ brain: status.brain, source: status.windowSource, reportedAt: status.windowReportedAt });
  return `${formatCount(status.tokens)} of ${formatCount(status.contextWindow)} tokens (${how}); window: ${source}; ${historyInRequestWords(status)}`;
}

/** A marker for a window the table only guessed: the note is its accessible description, and shows on a click. */
function WindowNote({ note }: { readonly note: string }) {
  const [open, setOpen] = useState(false);
  const noteId = useId();
  return (
    <span className="context-window-note">
      <button
        type="button"
        className="context-note-button"
        data-testid="context-window-note"
        aria-label="The window size is a guess"
        aria-describedby={noteId}
        aria-expanded={open}
        title={note}
        onClick={() => setOpen((shown) => !shown)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && open) {
            event.preventDefault();
            setOpen(false);
          }
        }}
      >
        i
      </button>
      <span id={noteId} className={open ? 'context-note-text' : 'visually-hidden'} data-testid="context-window-note-text">
        {note}
      </span>
    </span>
  );
}

/**
 * How full the window of the brain picked in the header is for this conversation: "61 % of Kimi's window" and a
 * small bar. Read again when the conversation opens and whenever its brain or model changes.
 */
export function ContextMeter({
  conversationId,
  compact = false,
}: {
  readonly conversationId: string;
  /** A narrow header: the bar and a percentage only (the full reading is its title), Compact now is in the menu. */
  readonly compact?: boolean;
}) {
  const brain = useAppStore((state) => selectConversationBrain(state, conversationId));
  const model = useAppStore((state) => state.conversationsById[conversationId]?.model ?? null);
  const status = useAppStore((state) => state.contextStatus[conversationId]);
  const busy = useAppStore((state) => conversationId in state.compactions || conversationId in state.activeTurns);

  useEffect(() => {
    void loadContextStatus(conversationId);
  }, [conversationId, brain, model]);

  if (status === undefined) return null;
  const tone = meterTone(status);
  const figures = meterFigures(status);
  const spent = conversationSpendWords(status.spent);
  const filled = Math.min(Math.max(status.percent, 0), 100);
  return (
    <div className={`context-meter tone-${tone}${compact ? ' is-compact' : ''}`} data-testid="context-meter" data-tone={tone}>
      <span className="context-meter-reading" title={spent === null ? figures : `${figures}\n${spent}`}>
        <span
          className="context-meter-bar"
          role="meter"
          aria-label="Context window used"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={filled}
          aria-valuetext={`${status.description}: ${figures}`}
        >
          <span className="context-meter-fill" style={{ width: `${filled}%` }} />
        </span>
        <span className="context-meter-text" data-testid="context-meter-text" title={compact ? status.description : undefined}>
          {compact ? `${Math.round(filled)} %` : status.description}
        </span>
        {status.windowNote === null ? null : <WindowNote note={status.windowNote} />}
      </span>
      {compact ? null : (
        <button
          type="button"
          className="button small ghost"
          data-testid="compact-now"
          title="Summarise the oldest messages into one summary; they stay here, collapsed under it"
          disabled={busy}
          aria-haspopup="dialog"
          onClick={openCompactDialog}
        >
          Compact now
        </button>
      )}
    </div>
  );
}
