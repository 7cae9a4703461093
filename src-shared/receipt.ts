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
  /** What the call gave back; for a recalled memory, the memory's text. */
  readonly output?: string | null;
}

export interface ReceiptChip {
  readonly invocationId: string;
  readonly kind: InvocationKind;
  /** A recalled memory's first words; otherwise `server · tool`, or the bare tool name when there is no server. */
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

/** How much of a recalled memory its chip shows. */
export const MEMORY_PREVIEW_LENGTH = 40;

/** The tool name a memory the app recalled for the turn is recorded under (engine/admit.ts). */
const RECALLED_MEMORY_TOOL = 'memory';

/**
 * A memory's chip text: its first words, whitespace collapsed, cut at a word boundary within the preview length with
 * an ellipsis; a first word longer than that is cut inside it.
 */
export function memoryPreview(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  const characters = [...collapsed];
  if (characters.length <= MEMORY_PREVIEW_LENGTH) return collapsed;
  const head = characters.slice(0, MEMORY_PREVIEW_LENGTH).join('');
  const boundary = head.lastIndexOf(' ');
  const cut = boundary > 0 && characters[MEMORY_PREVIEW_LENGTH] !== ' ' ? head.slice(0, boundary) : head;
  return `${cut.replace(/[\s.,;:!?]+$/u, '')}…`;
}

function invocationLabel(invocation: ReceiptInvocation): string {
  const recalled = invocation.kind === 'memory' && invocation.server === null && invocation.tool === RECALLED_MEMORY_TOOL;
  const text = invocation.output?.trim() ?? '';
  return recalled && text !== '' ? memoryPreview(text) : chipLabel(invocation.server, invocation.tool);
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
      label: invocationLabel(invocation),
      status: invocation.status,
    })),
  };
}
