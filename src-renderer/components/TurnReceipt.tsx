import { memo, useId, useMemo, useState, type ReactNode } from 'react';
import type { InvocationKind, InvocationStatus, InvocationView, SpendView } from '../../src-shared/api';
import { buildReceipt, type ReceiptChip } from '../../src-shared/receipt';
import { spendDetail, spendLine } from '../../src-shared/usage';
import { imageLabel } from '../../src-shared/tool-images';
import { useAppStore } from '../state/store';
import { durationText, prettyJson } from './format';
import { CancelledStatusIcon, DeniedStatusIcon, ErrorStatusIcon } from './icons';

const NO_INVOCATIONS: readonly InvocationView[] = [];

const STATUS_WORDS: Record<InvocationStatus, string> = {
  ok: 'done',
  error: 'failed',
  denied: 'denied',
  cancelled: 'cancelled',
};

const KIND_WORDS: Record<InvocationKind, string> = { tool: 'Tool', memory: 'Memory', skill: 'Skill' };

const STATUS_ICONS: Record<Exclude<InvocationStatus, 'ok'>, () => ReactNode> = {
  error: ErrorStatusIcon,
  denied: DeniedStatusIcon,
  cancelled: CancelledStatusIcon,
};

interface ChipButtonProps {
  readonly chip: ReceiptChip;
  readonly expanded: boolean;
  readonly detailId: string;
  readonly onToggle: (invocationId: string) => void;
}

function ReceiptChipButton({ chip, expanded, detailId, onToggle }: ChipButtonProps) {
  const StatusIcon = chip.status === 'ok' ? null : STATUS_ICONS[chip.status];
  return (
    <button
      type="button"
      className={`receipt-chip kind-${chip.kind} status-${chip.status}`}
      data-testid="receipt-chip"
      data-kind={chip.kind}
      data-status={chip.status}
      aria-expanded={expanded}
      aria-controls={expanded ? detailId : undefined}
      aria-label={StatusIcon === null ? undefined : `${chip.label}, ${STATUS_WORDS[chip.status]}`}
      title={`${KIND_WORDS[chip.kind]}, ${STATUS_WORDS[chip.status]}: ${expanded ? 'hide' : 'show'} details`}
      onClick={() => onToggle(chip.invocationId)}
    >
      {StatusIcon === null ? null : <StatusIcon />}
      <span className="receipt-chip-label">{chip.label}</span>
    </button>
  );
}

function Fact({ label, children, testId }: { readonly label: string; readonly children: ReactNode; readonly testId?: string }) {
  return (
    <div className="invocation-fact">
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

interface DetailProps {
  readonly id: string;
  readonly chip: ReceiptChip;
  /** Undefined when only the host's receipt is known, not the row itself. */
  readonly invocation: InvocationView | undefined;
}

/** What one call did. Inputs and outputs come from models and tools, so they are shown as plain text only. */
function InvocationDetail({ id, chip, invocation }: DetailProps) {
  const duration = invocation === undefined ? null : durationText(invocation.startedAt, invocation.endedAt);
  const images = invocation?.images ?? [];
  return (
    <section id={id} className="invocation-detail" data-testid="invocation-detail" aria-label={`Details of ${chip.label}`}>
      <dl className="invocation-facts">
        <Fact label={KIND_WORDS[chip.kind]} testId="invocation-tool">
          {invocation?.tool ?? chip.label}
        </Fact>
        {invocation?.server ? <Fact label="Server">{invocation.server}</Fact> : null}
        <Fact label="Status" testId="invocation-status">
          <span className={`invocation-status status-${chip.status}`}>{chip.status}</span>
        </Fact>
        <Fact label="Duration" testId="invocation-duration">
          {duration ?? 'not recorded'}
        </Fact>
      </dl>
      {invocation === undefined ? (
        <p className="invocation-missing">The input and output show once the conversation is loaded again.</p>
      ) : (
        <>
          <h2 className="invocation-heading">Input</h2>
          <pre className="invocation-text" data-testid="invocation-input">
            {prettyJson(invocation.input)}
          </pre>
          <h2 className="invocation-heading">Output</h2>
          {invocation.output === null || invocation.output === '' ? (
            images.length > 0 ? null : (
              <p className="invocation-missing" data-testid="invocation-output">
                {invocation.output === null ? 'No output.' : 'Empty output.'}
              </p>
            )
          ) : (
            <pre className="invocation-text" data-testid="invocation-output">
              {invocation.output}
            </pre>
          )}
          {images.length === 0 ? null : (
            // Named, never drawn: the view carries no image bytes, and a tool's bytes are not trusted into the page.
            <ul className="invocation-images" aria-label="Images in the output">
              {images.map((image, index) => (
                <li key={index} className="invocation-image" data-testid="invocation-image">
                  Image: {imageLabel(image)}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/** What the reply's requests cost, "$0.012 · 91 % cached", with the figures behind it on hover. */
function ReplySpend({ spend, line }: { readonly spend: SpendView; readonly line: string }) {
  return (
    <span className="reply-spend" data-testid="reply-spend" title={spendDetail(spend)}>
      {line}
    </span>
  );
}

interface TurnReceiptStripProps {
  readonly messageId: string;
  /** The reply's counted requests, shown at the end of the strip once the reply has ended. */
  readonly spend?: SpendView | null;
}

/**
 * The receipt under one reply: what it used, counted, with a chip per call that opens its details, then what its
 * requests cost. Built from the reply's invocation rows, or taken from the host's receipt once the turn ended; nothing
 * when nothing was used and nothing is known of its cost.
 */
export const TurnReceiptStrip = memo(function TurnReceiptStrip({ messageId, spend = null }: TurnReceiptStripProps) {
  const sentReceipt = useAppStore((state) => state.receiptsByMessage[messageId]);
  const invocations = useAppStore((state) => state.invocationsByMessage[messageId] ?? NO_INVOCATIONS);
  const receipt = useMemo(() => sentReceipt ?? buildReceipt(invocations), [sentReceipt, invocations]);
  const [openInvocationId, setOpenInvocationId] = useState<string | null>(null);
  const detailId = useId();

  const line = spend === null ? null : spendLine(spend);
  const spent = spend === null || line === null ? null : <ReplySpend spend={spend} line={line} />;
  if (receipt.chips.length === 0) return spent === null ? null : <div className="turn-receipt">{spent}</div>;
  const openChip = receipt.chips.find((chip) => chip.invocationId === openInvocationId);
  const toggle = (invocationId: string): void =>
    setOpenInvocationId((current) => (current === invocationId ? null : invocationId));

  return (
    <div
      className="turn-receipt"
      data-testid="turn-receipt"
      role="group"
      aria-label={receipt.summary === '' ? 'Receipt' : `Receipt: ${receipt.summary}`}
    >
      <div className="receipt-line">
        {receipt.summary === '' ? null : (
          <span className="receipt-summary" data-testid="receipt-summary">
            {receipt.summary}
          </span>
        )}
        <ul className="receipt-chips" aria-label="What this reply used">
          {receipt.chips.map((chip) => (
            <li key={chip.invocationId}>
              <ReceiptChipButton
                chip={chip}
                expanded={chip.invocationId === openInvocationId}
                detailId={detailId}
                onToggle={toggle}
              />
            </li>
          ))}
        </ul>
        {spent}
      </div>
      {openChip === undefined ? null : (
        <InvocationDetail
          id={detailId}
          chip={openChip}
          invocation={invocations.find((invocation) => invocation.id === openChip.invocationId)}
        />
      )}
    </div>
  );
});
