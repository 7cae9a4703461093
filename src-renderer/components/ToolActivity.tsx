import { memo } from 'react';
import { chipLabel } from '../../src-shared/receipt';
import { useAppStore } from '../state/store';

/** "Using current_time…" while a streaming reply waits on a tool. */
export const ToolActivity = memo(function ToolActivity({ messageId }: { readonly messageId: string }) {
  const runningTool = useAppStore((state) => state.runningTools[messageId]);
  if (runningTool === undefined) return null;
  return (
    <div className="tool-activity" data-testid="tool-activity" role="status">
      <span className="tool-activity-dot" aria-hidden="true" />
      Using {chipLabel(runningTool.server, runningTool.tool)}…
    </div>
  );
});
