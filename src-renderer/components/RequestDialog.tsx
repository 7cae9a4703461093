import { useMemo, useState } from 'react';
import type { RequestPreview } from '../../src-shared/api';
import { closeRequestPreview, previewNextRequest } from '../state/turn-actions';
import { selectConversationBrain } from '../state/selectors';
import { useAppStore } from '../state/store';
import { brainLabel } from './brain-options';
import { meterFigures } from './ContextMeter';
import { Dialog } from './Dialog';
import { prettyJsonText } from './format';
import { useAnswerFor } from './use-answer';
import { useCopy } from './use-copy';
import { historyInRequestWords } from '../../src-shared/context-windows';
import { formatCount } from '../../src-shared/format-count';


const byteLength = (text: string): number => new TextEncoder().encode(text).length;

function CopyExactBytesButton({ body }: { readonly body: string }) {
  const { copyState, copy } = useCopy();

  return (
    <button type="button" className="button small" data-testid="copy-request" onClick={() => void copy(body)}>
      {copyState === 'copied' ? 'Copied' : copyState === 'failed' ? 'Copy failed' : 'Copy exact bytes'}
    </button>
  );
}

interface PreviewViewProps {
  readonly preview: RequestPreview;
  readonly conversationId: string;
  readonly hasDraft: boolean;
}

function PreviewView({ preview, conversationId, hasDraft }: PreviewViewProps) {
  const readableBody = useMemo(() => prettyJsonText(preview.body), [preview.body]);
  const size = useMemo(() => byteLength(preview.body), [preview.body]);
  return (
    <>
      <dl className="request-facts">
        <div>
          <dt>Brain</dt>
          <dd data-testid="request-brain">{brainLabel(preview.brain)}</dd>
        </div>
        <div>
          <dt>Model</dt>
          <dd data-testid="request-model">{preview.model}</dd>
        </div>
        <div>
          <dt>Wire</dt>
          <dd data-testid="request-wire">{preview.wire}</dd>
        </div>
        <div>
          <dt>Reasoning</dt>
          <dd data-testid="request-reasoning">{preview.reasoningLevel}</dd>
        </div>
        <div>
          <dt>Window</dt>
          <dd data-testid="request-window" title={meterFigures(preview.context)}>
            {preview.context.description}
          </dd>
        </div>
        <div>
          <dt>History</dt>
          <dd data-testid="request-history">{historyInRequestWords(preview.context)}</dd>
        </div>
      </dl>
      {preview.warnings.length === 0 ? null : (
        <div className="request-warnings" data-testid="request-warnings">
          <h3>Warnings</h3>
          <ul>
            {preview.warnings.map((warning, index) => (
              <li key={index}>{warning}</li>
            ))}
          </ul>
        </div>
      )}
      <p className="request-note">
        The body below is indented for reading. “Copy exact bytes” copies it exactly as it would be sent: the same
        bytes{' '}
        <code>
          anybrain request --conversation {conversationId} --brain {preview.brain} --model {preview.model}
          {hasDraft ? ' --message "<your draft>"' : ''}
        </code>{' '}
        prints.
      </p>
      <div className="request-body-header">
        <span className="field-label">Body</span>
        <span className="request-body-size">{formatCount(size)} bytes</span>
        <CopyExactBytesButton body={preview.body} />
      </div>
      <pre className="request-body" data-testid="request-body" tabIndex={0} aria-label="Request body">
        {readableBody}
      </pre>
    </>
  );
}

/** "Show request": the exact request the next turn would send, fetched again whenever the conversation's pick changes. */
export function RequestDialog({ conversationId }: { readonly conversationId: string }) {
  const brain = useAppStore((state) => selectConversationBrain(state, conversationId));
  const model = useAppStore((state) => state.conversationsById[conversationId]?.model ?? null);
  const reasoningLevel = useAppStore((state) => state.conversationsById[conversationId]?.reasoningLevel ?? null);
  const hasDraft = useAppStore((state) => (state.drafts[conversationId] ?? '').trim() !== '');
  const [attempt, setAttempt] = useState(0);
  const requestKey = [conversationId, brain, model ?? '', reasoningLevel ?? '', attempt].join('\n');
  const { answer: loaded, current } = useAnswerFor<RequestPreview>(requestKey, () => previewNextRequest(conversationId));
  const refreshing = !current;

  return (
    <Dialog
      title="Next request"
      titleId="request-title"
      testId="request-dialog"
      closeTestId="close-request"
      closeLabel="Close the request view"
      onClose={closeRequestPreview}
      wide
    >
      <p className="request-intro">
        The request the next turn would send to {brainLabel(brain)}
        {hasDraft ? ', with your draft as the new message' : ''}. Nothing is sent.
      </p>
      <div className="request-status" role="status">
        {refreshing ? 'Building the request…' : null}
      </div>
      {loaded?.status === 'error' && !refreshing ? (
        <div className="request-error" data-testid="request-error" role="alert">
          <span>Could not build the request: {loaded.message}</span>
          <button type="button" className="button small" onClick={() => setAttempt((count) => count + 1)}>
            Try again
          </button>
        </div>
      ) : null}
      {loaded?.status === 'ready' ? (
        <div className={refreshing ? 'request-preview is-stale' : 'request-preview'} aria-busy={refreshing}>
          <PreviewView preview={loaded.value} conversationId={conversationId} hasDraft={hasDraft} />
        </div>
      ) : null}
    </Dialog>
  );
}
