/**
 * Admission: the checks a turn must pass before anything is stored (a brain that can take turns, a connection that
 * may be used, a key where the official endpoint needs one), then the turn's start stored in one transaction with the
 * context the app brings to it. The turn id is minted here, once.
 */
import { ApiError, type ConnectionProblem } from '../../../src-shared/api';
import { attachmentRefusal } from '../../../src-shared/attachments';
import { AVAILABLE_BRAINS, BRAINS, type BrainId } from '../../../src-shared/brains';
import { retiredModelRefusal } from '../../../src-shared/models/lifecycle';
import { readReportedModel } from '../store/provider-models';
import { INLINE_LIMITS } from '../replay/wires/shared';
import { newId, nowIso } from '../store/clock';
import type { AppDatabase } from '../store/open';
import { pendingAttachments, type AttachmentRow } from '../store/attachments';
import { admitTurn, type AdmittedTurn, type TurnAdmission, type TurnAttachments, type TurnContextEntry } from '../store/turns';
import { parseSkillCommand, skillContext } from '../tools/skills';
import { resolveTarget, type ResolvedTarget, type TargetOverrides } from './resolve-target';
import type { TurnToolbox } from './turn-toolbox';

/** How many memories a turn takes into its context, best matches first. */
export const MEMORIES_PER_TURN = 4;

export interface BrainConnection {
  readonly baseUrl: string;
  readonly apiKey: string | null;
  /** Set when nothing may be sent: the turn is refused with this code and message before any request. */
  readonly problem?: ConnectionProblem | null;
}

export interface AdmissionDependencies {
  readonly db: AppDatabase;
  readonly toolbox: TurnToolbox;
  readonly connectionFor: (brain: BrainId) => BrainConnection;
  readonly streamOwner: string | null;
  /** Who takes the conversation's lease, and whether another holder still runs (store/turn-leases.ts). */
  readonly lease: TurnAdmission['lease'];
}

/** An admitted turn: what it runs with and the rows its start stored. */
export interface TurnContext extends AdmittedTurn {
  readonly conversationId: string;
  readonly turnId: string;
  readonly target: ResolvedTarget;
  readonly connection: BrainConnection;
}

/** The brain's connection, or an ApiError saying why nothing may be sent to it. */
export function checkedConnection(brain: BrainId, connectionFor: (brain: BrainId) => BrainConnection): BrainConnection {
  const info = BRAINS[brain];
  if (!AVAILABLE_BRAINS.includes(brain)) {
    const available = AVAILABLE_BRAINS.map((brain) => BRAINS[brain].label).join(', ');
    throw new ApiError('brain-unavailable', `${info.label} cannot take turns in this version yet. Switch to ${available}.`);
  }
  const connection = connectionFor(brain);
  if (connection.problem) throw new ApiError(connection.problem.code, connection.problem.message);
  // The official endpoint needs a key; a custom base URL (a local proxy or server) may not.
  if (info.keyVariable !== null && !connection.apiKey && connection.baseUrl === info.defaultBaseUrl) {
    throw new ApiError('missing-key', `No API key for ${info.label}. Add one in Settings, or set ${info.keyVariable} before starting Anybrain.`);
  }
  return connection;
}

/**
 * What the app itself brings to a turn: a skill the user started with `/name`, and the memories that best match the
 * message (or what follows the skill's name). Both become this turn's context on the user's message.
 */
function turnContext(toolbox: TurnToolbox, userText: string): TurnContextEntry[] {
  const started = parseSkillCommand(userText, toolbox.skills());
  const skill: TurnContextEntry[] = started
    ? [{ kind: 'skill', tool: started.skill.name, input: { input: started.rest }, output: skillContext(started.skill, 'user') }]
    : [];
  const memories = toolbox
    .recall(started ? started.rest : userText, MEMORIES_PER_TURN)
    .map((memory): TurnContextEntry => ({ kind: 'memory', tool: 'memory', input: { memoryId: memory.id }, output: memory.text }));
  return [...skill, ...memories];
}

/** Where a turn's rows go and who writes its reply, when not the next message on the branch shown to its brain. */
export interface TurnPlacement {
  /** The message the turn's first new row follows (see `TurnAdmission.parentId`); absent, the current leaf. */
  readonly parentId?: string | null;
  readonly overrides?: TargetOverrides;
  /** The files the new user message carries (see `TurnAdmission.attachments`). */
  readonly attachments?: TurnAttachments;
}

/**
 * Refuses, before anything is stored, pending attachments the target model cannot take: the sentence the composer
 * shows too (src-shared/attachments.ts `attachmentRefusal`).
 */
function checkAttachments(db: AppDatabase, target: ResolvedTarget, attachments: TurnAttachments | undefined): void {
  if (attachments?.link === undefined || attachments.link.length === 0) return;
  const rows = pendingAttachments(db, attachments.link);
  const imageTypes = rows.filter((row) => row.kind === 'image').map((row) => row.mediaType);
  const refusal = attachmentRefusal(target.brain, target.model, rows.map((row) => row.kind), imageTypes);
  if (refusal !== null) throw new ApiError('attachment-not-supported', refusal);
  const tooLarge = inlineLimitRefusal(target.brain, rows);
  if (tooLarge !== null) throw new ApiError('attachment-too-large', tooLarge);
}

/** Base64 carries 3 bytes in 4 characters. */
function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

function megabytes(base64Characters: number): string {
  return `${(Math.floor(base64Characters / 4) * 3 / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A new message's files must fit the wire's inline limits (wires/shared.ts `INLINE_LIMITS`): where they do not, the
 * replay would send a stand-in in their place, so the sender is told now instead.
 */
function inlineLimitRefusal(brain: BrainId, rows: readonly AttachmentRow[]): string | null {
  const limits = INLINE_LIMITS[BRAINS[brain].wire];
  const label = BRAINS[brain].label;
  const inline = rows.filter((row) => row.kind !== 'text');
  const image = inline.find((row) => row.kind === 'image' && base64Length(row.size) > limits.perImage);
  if (image !== undefined) return `${image.name} is too large for ${label}, which takes images of at most ${megabytes(limits.perImage)}. Attach a smaller image.`;
  const pages = inline.filter((row) => row.kind === 'pdf').reduce((sum, row) => sum + Math.max(1, row.pages ?? 1), 0);
  if (pages > limits.pdfPagesPerRequest) {
    return `${label} reads at most ${limits.pdfPagesPerRequest} PDF pages in one message, and these PDFs have ${pages}. Attach fewer pages.`;
  }
  const total = inline.reduce((sum, row) => sum + base64Length(row.size), 0);
  if (total > limits.perRequest) {
    const what = inline.length === 1 ? `${inline[0]!.name} is` : 'These files together are';
    return `${what} too large for ${label}, which takes at most ${megabytes(limits.perRequest)} of files in one message. Attach less.`;
  }
  return null;
}

/** Admits a turn: `userText` is the new message, or null to answer the last user message again. */
export function admit(deps: AdmissionDependencies, conversationId: string, userText: string | null, placement: TurnPlacement = {}): TurnContext {
  const target = resolveTarget(deps.db, conversationId, placement.overrides);
  const resolved = deps.connectionFor(target.brain);
  const retired = retiredModelRefusal(target.brain, target.model, readReportedModel(deps.db, target.brain, resolved.baseUrl, target.model));
  if (retired !== null) throw new ApiError('model-retired', retired);
  const connection = checkedConnection(target.brain, () => resolved);
  checkAttachments(deps.db, target, placement.attachments);
  const turnId = newId();
  const admitted = admitTurn(deps.db, {
    conversationId,
    turnId,
    userText,
    ...(placement.parentId === undefined ? {} : { parentId: placement.parentId }),
    ...(placement.attachments === undefined || userText === null ? {} : { attachments: placement.attachments }),
    ...target,
    streamOwner: deps.streamOwner,
    context: userText === null ? [] : turnContext(deps.toolbox, userText),
    now: nowIso(),
    lease: deps.lease,
  });
  return { ...admitted, conversationId, turnId, target, connection };
}
