/**
 * The turn receipt: a pure function of one turn's invocation rows. Computed at read time, never stored in a message.
 */
import type { InvocationKind, InvocationStatus } from './api';
import { toolLabel } from './tool-key';

export interface ReceiptInvocation {
  readonly id: string;
  readonly kind: InvocationKind;
  readonly server: string | null;
  readonly tool: string;
  readonly status: InvocationStatus;
}

export interface ReceiptChip {
  readonly invocationId: string;
  readonly kind: InvocationKind;
  /** `server · tool`, or the bare tool name when there is no server. */
  readonly label: string;
  readonly status: InvocationStatus;
}

export interface TurnReceipt {
  readonly counts: Readonly<Record<InvocationKind, number>>;
  /** "4 memories · 2 tools · 1 skill"; empty when nothing was used (never "0 memories"). */
  readonly summary: string;
  readonly chips: readonly ReceiptChip[];
}

const NOUNS: Record<InvocationKind, [singular: string, plural: string]> = {
  memory: ['memory', 'memories'],
  tool: ['tool', 'tools'],
  skill: ['skill', 'skills'],
};
const ORDER: readonly InvocationKind[] = ['memory', 'tool', 'skill'];

/** A chip's text: the tool's label (tool-key.ts), `server · tool` or the bare tool. */
export function chipLabel(server: string | null, tool: string): string {
  return toolLabel({ server, tool });
}

export function buildReceipt(invocations: readonly ReceiptInvocation[]): TurnReceipt {
  const counts: Record<InvocationKind, number> = { memory: 0, tool: 0, skill: 0 };
  for (const invocation of invocations) counts[invocation.kind] += 1;
  const summary = ORDER.filter((kind) => counts[kind] > 0)
    .map((kind) => `${counts[kind]} ${NOUNS[kind][counts[kind] === 1 ? 0 : 1]}`)
    .join(' · ');
  return {
    counts,
    summary,
    chips: invocations.map((invocation) => ({
      invocationId: invocation.id,
      kind: invocation.kind,
      label: chipLabel(invocation.server, invocation.tool),
      status: invocation.status,
    })),
  };
}
