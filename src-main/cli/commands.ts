/**
 * The `anybrain` commands as plain functions over an opened core, so tests call them without a process.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { ApiEvent, ApprovalView, CommandName, CommandOutput, ConversationView, ExportFormat, MessageView } from '../../src-shared/api';
import { chipLabel } from '../../src-shared/receipt';
import { ApiError } from '../../src-shared/api';
import { BRAINS, isBrainId } from '../../src-shared/brains';
import type { OpenedCore } from '../core/app';
import { countMessagesByStatus } from '../core/store/messages';
import { readCounters } from '../core/store/settings';
import {
  applyRepair,
  measureTextHealth,
  planRepair,
  QUOTE_ESCAPE_COUNTER,
  REPAIR_KINDS,
  undoLastRepair,
  type RepairKind,
} from '../core/transcripts/repair';

export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Runs one command through the same validated dispatch the windows use. */
export async function call<Name extends CommandName>(core: OpenedCore, name: Name, input: unknown): Promise<CommandOutput<Name>> {
  const result = await core.dispatch(name, input);
  if (!result.ok) throw new ApiError(result.error.code, result.error.message);
  return result.value as CommandOutput<Name>;
}

export async function listCommand(core: OpenedCore, output: Output, options: { json?: boolean }): Promise<number> {
  const conversations = await call(core, 'listConversations', {});
  if (options.json) {
    const rows = conversations.map((conversation) => ({
      id: conversation.id,
      title: conversation.title,
      brain: conversation.brain,
      updated_at: conversation.updatedAt,
    }));
    output.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (conversations.length === 0) {
    output.stderr('No conversations yet. Start one with: anybrain chat --brain claude "hello"\n');
    return 0;
  }
  for (const conversation of conversations) {
    const brain = conversation.brain ? BRAINS[conversation.brain].label : '-';
    output.stdout(`${conversation.id}  ${conversation.updatedAt}  ${brain.padEnd(7)}  ${conversation.title}\n`);
  }
  return 0;
}

/** Answers a tool call whose policy is "ask": a person at a terminal, or nobody (then the call is denied). */
export type ApprovalAsker = (approval: ApprovalView) => Promise<'allow' | 'deny'>;

export interface ChatOptions {
  readonly conversation?: string;
  /** Without one, calls that need approval are denied and the brain is told so. */
  readonly askApproval?: ApprovalAsker;
  readonly brain: string;
  readonly model?: string;
  readonly text: string;
  /** Aborted on Ctrl-C: the reply so far is kept as `stopped`. */
  readonly interrupt?: AbortSignal;
}

export async function chatCommand(core: OpenedCore, output: Output, options: ChatOptions): Promise<number> {
  if (!isBrainId(options.brain)) {
    throw new ApiError('invalid-input', `Unknown brain "${options.brain}". Choose one of: ${Object.keys(BRAINS).join(', ')}.`);
  }
  let conversation: ConversationView;
  if (options.conversation) {
    conversation = await call(core, 'setConversationBrain', {
      id: options.conversation,
      brain: options.brain,
      ...(options.model ? { model: options.model } : {}),
    });
  } else {
    conversation = await call(core, 'createConversation', { brain: options.brain, ...(options.model ? { model: options.model } : {}) });
  }
  output.stderr(`${conversation.id}\n`);

  let assistantId: string | null = null;
  const finished = new Promise<MessageView>((resolve) => {
    const unsubscribe = core.onEvent((event: ApiEvent) => {
      if (event.type === 'turn-started' && event.conversationId === conversation.id) assistantId = event.assistantMessage.id;
      if (event.type === 'message-delta' && event.messageId === assistantId) output.stdout(event.textDelta);
      if (event.type === 'approval-requested' && event.approval.conversationId === conversation.id) {
        const { approval } = event;
        const decide = options.askApproval ?? (async () => {
          output.stderr(`\nDenied ${chipLabel(approval.server, approval.tool)}: it needs approval and nobody is at a terminal to give it.\n`);
          return 'deny' as const;
        });
        void decide(approval).then((decision) => core.dispatch('answerApproval', { approvalId: approval.approvalId, decision }));
      }
      if ((event.type === 'turn-done' || event.type === 'turn-failed') && event.message.id === assistantId) {
        unsubscribe();
        resolve(event.message);
      }
    });
  });
  const onInterrupt = () => void core.dispatch('stop', { conversationId: conversation.id });
  options.interrupt?.addEventListener('abort', onInterrupt, { once: true });
  try {
    await call(core, 'send', { conversationId: conversation.id, text: options.text });
    const message = await finished;
    output.stdout(message.text.endsWith('\n') || message.text.length === 0 ? '' : '\n');
    if (message.modelMismatch) {
      output.stderr(`Warning: asked for ${message.modelRequested}, served by ${message.modelResponded}.\n`);
    }
    if (message.error) output.stderr(`${message.status === 'failed' ? 'Error' : 'Note'}: ${message.error.message}\n`);
    if (message.status === 'stopped') return 130;
    return message.status === 'failed' ? 1 : 0;
  } finally {
    options.interrupt?.removeEventListener('abort', onInterrupt);
  }
}

export async function exportCommand(
  core: OpenedCore,
  output: Output,
  options: { conversation: string; format: string; out?: string },
): Promise<number> {
  const exported = await call(core, 'exportConversation', { id: options.conversation, format: options.format as ExportFormat });
  if (options.out) {
    writeFileAtomically(options.out, exported.content);
    output.stderr(`Wrote ${options.out}\n`);
  } else {
    output.stdout(exported.content);
  }
  return 0;
}

/**
 * Writes beside the target and renames over it: a process killed mid-write (or a full disk) leaves either the
 * previous file or the whole new one, never half a transcript in its place.
 */
export function writeFileAtomically(path: string, content: string): void {
  const temporaryPath = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporaryPath, content);
    renameSync(temporaryPath, path);
  } catch (error) {
    rmSync(temporaryPath, { force: true });
    throw error;
  }
}

export function doctorCommand(core: OpenedCore, output: Output): number {
  const integrity = core.db.$client.pragma('integrity_check', { simple: true }) as string;
  const foreignKeyProblems = (core.db.$client.pragma('foreign_key_check') as unknown[]).length;
  const statuses = countMessagesByStatus(core.db);
  const health = measureTextHealth(core.db);
  const normalizations = readCounters(core.db)[QUOTE_ESCAPE_COUNTER] ?? 0;
  const lines = [
    `data folder: ${core.dataDir}`,
    `integrity: ${integrity}`,
    `foreign key problems: ${foreignKeyProblems}`,
    `interrupted replies: ${statuses.interrupted}${core.recoveredInterrupted ? ` (${core.recoveredInterrupted} found at this start)` : ''}`,
    `failed replies: ${statuses.failed}`,
    `stopped replies: ${statuses.stopped}`,
    `chrome-bearing replies: ${health.chromeRows}`,
    `replies with escaped quotes: ${health.quoteEscapeRows}`,
    `quote-escape normalizations so far: ${normalizations}`,
  ];
  output.stdout(`${lines.join('\n')}\n`);
  const problems = integrity !== 'ok' || foreignKeyProblems > 0 || statuses.interrupted > 0 || health.chromeRows > 0 || health.quoteEscapeRows > 0;
  if (problems) {
    output.stderr(
      'Problems found: see the counts above. Interrupted replies can be retried from the app; ' +
        '`anybrain repair chrome` and `anybrain repair quote-escapes` show what they would fix (add --apply to fix).\n',
    );
  }
  return problems ? 1 : 0;
}

export async function requestCommand(
  core: OpenedCore,
  output: Output,
  options: { conversation: string; brain: string; model?: string; message?: string },
): Promise<number> {
  if (!isBrainId(options.brain)) {
    throw new ApiError('invalid-input', `Unknown brain "${options.brain}". Choose one of: ${Object.keys(BRAINS).join(', ')}.`);
  }
  const preview = await call(core, 'previewRequest', {
    conversationId: options.conversation,
    brain: options.brain,
    ...(options.model ? { model: options.model } : {}),
    ...(options.message === undefined ? {} : { message: options.message }),
  });
  output.stdout(`${preview.body}\n`);
  for (const warning of preview.warnings) output.stderr(`Note: ${warning}\n`);
  return 0;
}

export async function importCommand(core: OpenedCore, output: Output, file: string): Promise<number> {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ApiError('unreadable-file', `Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const conversation = await call(core, 'importTranscript', { content });
  output.stdout(`${conversation.id}\n`);
  return 0;
}

export function repairCommand(core: OpenedCore, output: Output, options: { kind?: string; apply?: boolean; undo?: boolean }): number {
  if (options.undo) {
    const undone = undoLastRepair(core.db);
    if (undone.kind === null) {
      output.stderr('There is no applied repair to undo.\n');
      return 0;
    }
    output.stdout(`Undid the last ${undone.kind} repair: ${undone.restored} texts restored${undone.skipped ? `, ${undone.skipped} skipped because they changed since` : ''}.\n`);
    return 0;
  }
  if (!isRepairKind(options.kind)) {
    throw new ApiError('invalid-input', `Say what to repair: ${REPAIR_KINDS.join(' or ')} (or --undo).`);
  }
  const changes = planRepair(core.db, options.kind);
  for (const change of changes) {
    output.stdout(`${change.conversationId} ${change.messageId}: ${JSON.stringify(change.before.slice(0, 80))} -> ${JSON.stringify(change.after.slice(0, 80))}\n`);
  }
  if (!options.apply) {
    output.stderr(`${changes.length} texts would change. Nothing was changed; add --apply to change them (anybrain repair --undo reverts).\n`);
    return 0;
  }
  const applied = applyRepair(core.db, options.kind, changes);
  output.stderr(`${applied.changed} texts changed. \`anybrain repair --undo\` restores them exactly.\n`);
  return 0;
}

function isRepairKind(value: unknown): value is RepairKind {
  return typeof value === 'string' && (REPAIR_KINDS as readonly string[]).includes(value);
}
