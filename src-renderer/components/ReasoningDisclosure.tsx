import { useId, useState } from 'react';
import type { MessageView } from '../../src-shared/api';
import { displayedReasoning } from '../state/messages-slice';
import { useAppStore } from '../state/store';
import { brainLabel } from './brain-options';
import { secondsText } from './format';
import { ChevronRightIcon } from './icons';

/** "Kimi is thinking…" until its first words or call, then "Kimi thought for 12 s" (or "Kimi thought", unmeasured). */
export function reasoningLabel(message: MessageView, thinking: boolean): string {
  const brain = brainLabel(message.brain);
  if (thinking) return `${brain} is thinking…`;
  const durationMs = message.reasoning?.durationMs ?? null;
  return durationMs === null ? `${brain} thought` : `${brain} thought for ${secondsText(durationMs)}`;
}

/**
 * A reply's readable reasoning, collapsed under a label that names its brain; expanded, it shows the reasoning as
 * plain text (model output is untrusted, so it is never rendered as HTML).
 */
export function ReasoningDisclosure({ message }: { readonly message: MessageView }) {
  const reasoning = useAppStore((state) => displayedReasoning(state, message));
  const answering = useAppStore(
    (state) => (state.streamingText[message.id] ?? message.text).length > 0 || message.id in state.runningTools,
  );
  const [expanded, setExpanded] = useState(false);
  const regionId = useId();
  if (reasoning.length === 0) return null;
  const thinking = message.status === 'streaming' && !answering;
  return (
    <div className={thinking ? 'reasoning is-thinking' : 'reasoning'} data-testid="reasoning">
      <button
        type="button"
        className="reasoning-toggle"
        data-testid="reasoning-toggle"
        aria-expanded={expanded}
        aria-controls={regionId}
        onClick={() => setExpanded((open) => !open)}
      >
        <ChevronRightIcon />
        <span>{reasoningLabel(message, thinking)}</span>
      </button>
      {expanded ? (
        <div id={regionId} className="reasoning-text" data-testid="reasoning-text" dir="auto">
          {reasoning}
        </div>
      ) : null}
    </div>
  );
}
