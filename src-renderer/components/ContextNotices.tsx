import type { ContextStatusView } from '../../src-shared/api';
import { BRAINS } from '../../src-shared/brains';
import { dismissCompactionNotice, openCompactDialog, stopCompaction } from '../state/context-actions';
import { messageCount, type CompactionOutcome, type CompactionRun } from '../state/context-slice';
import { useAppStore } from '../state/store';
import { CloseIcon, StopIcon, WarningIcon } from './icons';
import { formatCount } from '../../src-shared/format-count';

/** "Summarising 812 messages… 240 read", or a start line until the main process says how many. */
export function compactionProgressText(run: CompactionRun): string {
  if (run.totalMessages === null) return 'Starting to summarise…';
  return `Summarising ${messageCount(run.totalMessages)}… ${formatCount(run.summarisedMessages)} read`;
}

/** "312 older messages are outside Kimi's window; compact to keep them in view." */
export function outsideWindowText(status: ContextStatusView): string {
  const count = status.outsideWindow;
  const label = BRAINS[status.brain].label;
  const verb = count === 1 ? 'is' : 'are';
  return `${formatCount(count)} older ${count === 1 ? 'message' : 'messages'} ${verb} outside ${label}'s window; compact to keep them in view.`;
}

function CompactionProgressLine({ conversationId, run }: { readonly conversationId: string; readonly run: CompactionRun }) {
  const writer = run.brain === null ? null : BRAINS[run.brain].label;
  return (
    <div className="context-notice progress" data-testid="compaction-progress">
      <span className="context-notice-text" role="status">
        {compactionProgressText(run)}
        {writer === null ? null : <span className="context-notice-detail"> ({writer} writes the summary)</span>}
      </span>
      <button
        type="button"
        className="button small"
        data-testid="stop-compaction"
        aria-label="Stop the compaction"
        onClick={() => void stopCompaction(conversationId)}
      >
        <StopIcon />
        Stop
      </button>
    </div>
  );
}

function CompactionOutcomeLine({ conversationId, outcome }: { readonly conversationId: string; readonly outcome: CompactionOutcome }) {
  return (
    <div className={`context-notice tone-${outcome.tone}`} data-testid="compaction-outcome" data-tone={outcome.tone}>
      <span className="context-notice-text" role={outcome.tone === 'error' ? 'alert' : 'status'}>
        {outcome.tone === 'error' ? <WarningIcon /> : null}
        {outcome.text}
      </span>
      <button
        type="button"
        className="icon-button"
        aria-label="Dismiss"
        data-testid="dismiss-compaction-outcome"
        onClick={() => dismissCompactionNotice(conversationId)}
      >
        <CloseIcon />
      </button>
    </div>
  );
}

function CompactOffer({ conversationId, text, testId }: { readonly conversationId: string; readonly text: string; readonly testId: string }) {
  const turnRunning = useAppStore((state) => conversationId in state.activeTurns);
  return (
    <div className="context-notice tone-warning" data-testid={testId}>
      <span className="context-notice-text">
        <WarningIcon />
        {text}
      </span>
      <button
        type="button"
        className="button small"
        data-testid={`${testId}-compact`}
        disabled={turnRunning}
        aria-haspopup="dialog"
        onClick={openCompactDialog}
      >
        Compact now
      </button>
    </div>
  );
}

/** Lines under the header about the window: a running compaction, how the last one ended, what the window leaves out. */
export function ContextNotices({ conversationId }: { readonly conversationId: string }) {
  const status = useAppStore((state) => state.contextStatus[conversationId]);
  const run = useAppStore((state) => state.compactions[conversationId]);
  const outcome = useAppStore((state) => state.compactionOutcomes[conversationId]);
  const offerFull = run === undefined && status?.full === true;
  const offerOutside = run === undefined && status !== undefined && status.outsideWindow > 0;
  if (run === undefined && outcome === undefined && !offerFull && !offerOutside) return null;
  return (
    <div className="context-notices" data-testid="context-notices">
      {run === undefined ? null : <CompactionProgressLine conversationId={conversationId} run={run} />}
      {outcome === undefined ? null : <CompactionOutcomeLine conversationId={conversationId} outcome={outcome} />}
      {offerOutside && status !== undefined ? (
        <CompactOffer conversationId={conversationId} text={outsideWindowText(status)} testId="outside-window" />
      ) : offerFull && status !== undefined ? (
        <CompactOffer
          conversationId={conversationId}
          text={`${BRAINS[status.brain].label} refused this conversation as too large; the next turn compacts it first.`}
          testId="window-full"
        />
      ) : null}
    </div>
  );
}
