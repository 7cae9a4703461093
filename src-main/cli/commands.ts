/**
 * The `anybrain` commands as plain functions over an opened core, so tests call them without a process. Each goes
 * through the Api's validated `dispatch`, as the windows do: nothing here reads the database or the engine.
 */
import { writeFilesAtomically } from './write-files';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import {
  ApiError,
  REPAIR_KINDS,
  type ApiEvent,
  type ApprovalView,
  type CommandInput,
  type CommandName,
  type CommandOutput,
  type ContextStatusView,
  type ConversationView,
  type ExportArchiveResult,
  type ExportBranches,
  type ExportChunk,
  type ExportFormat,
  type MessageView,
  type RepairKind,
} from '../../src-shared/api';
import { chipLabel } from '../../src-shared/receipt';
import { describeImportSummary } from '../../src-shared/import-summary';
import { startsLikeZip } from '../../src-shared/zip-signature';
import { BRAINS, isBrainId, REASONING_LEVELS, type BrainId, type ReasoningLevel } from '../../src-shared/brains';
import { contextPercent, historyInRequestWords, windowSourceWords } from '../../src-shared/context-windows';
import { estimateTokens } from '../core/context/token-estimate';
import type { Core } from '../core/core-types';
import { isAttachmentPath } from '../core/transcripts/export-attachments';
import { EXPORT_INDEX_FILE, isPlainFileName } from '../core/transcripts/export-file-names';
import { formatCount } from '../../src-shared/format-count';

export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Runs one command through the same validated dispatch the windows use. */
export async function call<Name extends CommandName>(core: Core, name: Name, input: CommandInput<Name>): Promise<CommandOutput<Name>> {
  const result = await core.dispatch(name, input);
  if (!result.ok) throw new ApiError(result.error.code, result.error.message);
  return result.value as CommandOutput<Name>;
}

export async function listCommand(core: Core, output: Output, options: { json?: boolean }): Promise<number> {
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

/**
 * The brain, model and reasoning level `chat` and `request` take alike: `chat` stores them on the conversation and
 * `request` asks for them, and the engine resolves both the same way (engine/resolve-target.ts).
 */
export interface TargetFlags {
  readonly brain: string;
  readonly model?: string;
  /** `off`, `low`, `medium` or `high`; absent keeps the conversation's pick (none once the brain changes). */
  readonly reasoning?: string;
}

/** A `--brain` flag's value as a brain, or the error naming the brains there are. */
export function checkedBrain(name: string): BrainId {
  if (!isBrainId(name)) throw new ApiError('invalid-input', `Unknown brain "${name}". Choose one of: ${Object.keys(BRAINS).join(', ')}.`);
  return name;
}

function checkedTarget(flags: TargetFlags): { brain: BrainId; model?: string; reasoningLevel?: ReasoningLevel } {
  const brain = checkedBrain(flags.brain);
  const reasoning = flags.reasoning;
  if (reasoning !== undefined && !(REASONING_LEVELS as readonly string[]).includes(reasoning)) {
    throw new ApiError('invalid-input', `Unknown reasoning level "${reasoning}". Choose one of: ${REASONING_LEVELS.join(', ')}.`);
  }
  return {
    brain,
    ...(flags.model ? { model: flags.model } : {}),
    ...(reasoning === undefined ? {} : { reasoningLevel: reasoning as ReasoningLevel }),
  };
}

export interface ChatOptions extends TargetFlags {
  readonly conversation?: string;
  /** Without one, calls that need approval are denied and the brain is told so. */
  readonly askApproval?: ApprovalAsker;
  /** The message to send; absent with `regenerate`. */
  readonly text?: string;
  /** Answer the last user message of the branch shown again, as a sibling of its replies, instead of sending one. */
  readonly regenerate?: boolean;
  /** Aborted on Ctrl-C: the reply so far is kept as `stopped`. */
  readonly interrupt?: AbortSignal;
  /** Files to attach to the message (`--attach FILE`, repeatable), in order. */
  readonly attach?: readonly string[];
}

/**
 * Adds each file as a pending attachment, in order. A file refused (empty, too large, not a kind Anybrain takes, a
 * damaged image) or unreadable refuses the whole message: the files added before it are removed again.
 */
async function addAttachedFiles(core: Core, paths: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  try {
    for (const path of paths) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch (error) {
        throw new ApiError('not-found', `Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
      }
      ids.push((await call(core, 'addAttachment', { name: basename(path), dataBase64: bytes.toString('base64') })).id);
    }
    return ids;
  } catch (error) {
    await removePendingAttachments(core, ids);
    throw error;
  }
}

async function removePendingAttachments(core: Core, ids: readonly string[]): Promise<void> {
  for (const id of ids) await core.dispatch('removeAttachment', { id });
}

/** How many rows `--regenerate` reads at a time, newest first, looking for the last user message. */
const REGENERATE_PAGE = 50;

/** The newest user message of the branch shown, paging back from the leaf; null when there is none. */
async function lastUserMessageId(core: Core, conversationId: string): Promise<string | null> {
  let beforeSeq: number | undefined;
  for (;;) {
    const page = await call(core, 'listMessages', { conversationId, limit: REGENERATE_PAGE, ...(beforeSeq === undefined ? {} : { beforeSeq }) });
    const newest = page.messages.findLast((message) => message.role === 'user' && message.kind === 'chat');
    if (newest !== undefined) return newest.id;
    const oldest = page.messages.find((message) => message.kind !== 'summary');
    if (!page.hasOlder || oldest === undefined) return null;
    beforeSeq = oldest.seq;
  }
}

export async function chatCommand(core: Core, output: Output, options: ChatOptions): Promise<number> {
  const target = checkedTarget(options);
  const attach = options.attach ?? [];
  if (options.regenerate) {
    if (options.text !== undefined) throw new ApiError('invalid-input', '--regenerate answers the last message again: give no message with it.');
    if (attach.length > 0) throw new ApiError('invalid-input', '--regenerate answers the last message again: attach no files with it.');
    if (options.conversation === undefined) throw new ApiError('invalid-input', '--regenerate answers a message of a conversation: name it with --conversation ID.');
  } else if (options.text === undefined && attach.length === 0) {
    throw new ApiError('invalid-input', 'Give the message to send (or --attach FILE), or --regenerate with --conversation ID to answer the last one again.');
  }
  // Files first: one that is refused stops the message before a conversation is started for it.
  const attachmentIds = await addAttachedFiles(core, attach);
  const id = options.conversation ?? (await call(core, 'createConversation', { brain: target.brain, ...(target.model ? { model: target.model } : {}) })).id;
  const answered = options.regenerate ? await lastUserMessageId(core, id) : null;
  if (options.regenerate && answered === null) throw new ApiError('nothing-to-retry', 'There is no message to answer again in this conversation.');
  const conversation: ConversationView = await call(core, 'setConversationBrain', { id, ...target });
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
    if (answered !== null) await call(core, 'answerWith', { messageId: answered, ...target });
    else {
      try {
        await call(core, 'send', { conversationId: conversation.id, text: options.text ?? '', ...(attachmentIds.length > 0 ? { attachmentIds } : {}) });
      } catch (error) {
        // A refused message (a model that cannot take a file, a turn already running) leaves no files waiting.
        await removePendingAttachments(core, attachmentIds);
        throw error;
      }
    }
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

export interface ExportCommandOptions {
  readonly conversation?: string;
  readonly all?: boolean;
  readonly format: string;
  readonly out?: string;
  /** Markdown and HTML: the tool, memory and skill calls (`--no-tools` turns them off). */
  readonly tools?: boolean;
  /** Markdown and HTML: each reply's reasoning. */
  readonly reasoning?: boolean;
  /** Comma-separated turn ids: only those turns (one conversation only). */
  readonly turns?: string;
  /** Markdown and HTML: `live` (the default) or `all` branches. */
  readonly branches?: string;
  /** JSON: each attachment's bytes in base64 (Markdown writes them beside the file, HTML shows images, either way). */
  readonly embed?: boolean;
  /** Ctrl-C: a running `--all` export stops and writes nothing. */
  readonly interrupt?: AbortSignal;
}

export async function exportCommand(core: Core, output: Output, options: ExportCommandOptions): Promise<number> {
  const shown = {
    includeTools: options.tools ?? true,
    includeReasoning: options.reasoning ?? false,
    ...(options.branches === undefined ? {} : { branches: options.branches as ExportBranches }),
    ...(options.embed ? { includeAttachments: true } : {}),
  };
  if (options.all) {
    if (options.conversation !== undefined) throw new ApiError('invalid-input', 'Give either --conversation ID or --all, not both.');
    if (options.turns !== undefined) throw new ApiError('invalid-input', '--turns picks turns of one conversation: use it with --conversation ID.');
    if (options.out === undefined) throw new ApiError('invalid-input', '--all writes one file per conversation: name the folder with --out DIR.');
    return exportAllCommand(core, output, { format: options.format as ExportFormat, ...shown, folder: options.out, ...(options.interrupt ? { interrupt: options.interrupt } : {}) });
  }
  if (options.conversation === undefined) throw new ApiError('invalid-input', 'Name the conversation with --conversation ID, or export every one with --all --out DIR.');
  const turnIds = options.turns
    ?.split(',')
    .map((turnId) => turnId.trim())
    .filter((turnId) => turnId !== '');
  const exported = await call(core, 'exportConversation', {
    id: options.conversation,
    format: options.format as ExportFormat,
    ...shown,
    ...(turnIds === undefined ? {} : { turnIds }),
  });
  const files = exported.files ?? [];
  const unsafe = files.find((file) => !isAttachmentPath(file.path));
  if (unsafe !== undefined) throw new ApiError('internal', `The export named a file ${JSON.stringify(unsafe.path)} outside its folder; nothing was written.`);
  if (options.out) {
    // The Markdown last, beside the folder its links name: a written .md finds its files.
    writeFilesAtomically([
      ...files.map((file) => ({ path: join(dirname(options.out!), file.path), content: Buffer.from(file.dataBase64, 'base64') })),
      { path: options.out, content: exported.content },
    ]);
    const folder = files[0]?.path.split('/')[0];
    output.stderr(`Wrote ${options.out}${folder === undefined ? '' : ` and ${files.length} attachment${files.length === 1 ? '' : 's'} in ${join(dirname(options.out), folder)}`}\n`);
  } else {
    output.stdout(exported.content);
    if (files.length > 0) output.stderr(`The Markdown links ${files.length} attachment${files.length === 1 ? '' : 's'} it cannot carry on stdout: write it with --out FILE to save them beside it.\n`);
  }
  return 0;
}

/**
 * `anybrain export --all --out DIR`: the same zip the window downloads, unpacked into DIR (created if missing), the
 * index written last. Progress goes to stderr; Ctrl-C cancels the export, and then nothing is written.
 */
async function exportAllCommand(
  core: Core,
  output: Output,
  options: {
    format: ExportFormat;
    includeTools: boolean;
    includeReasoning: boolean;
    branches?: ExportBranches;
    includeAttachments?: boolean;
    folder: string;
    interrupt?: AbortSignal;
  },
): Promise<number> {
  const exportId = randomUUID();
  const unsubscribe = core.onEvent((event: ApiEvent) => {
    if (event.type === 'export-progress' && event.exportId === exportId && event.done > 0) {
      output.stderr(`Exported ${event.done} of ${event.total} conversations\n`);
    }
  });
  const onInterrupt = () => void core.dispatch('cancelExport', { exportId });
  options.interrupt?.addEventListener('abort', onInterrupt, { once: true });
  let result: ExportArchiveResult;
  try {
    const { format, includeTools, includeReasoning, branches, includeAttachments } = options;
    result = await call(core, 'exportAllConversations', {
      exportId,
      format,
      includeTools,
      includeReasoning,
      ...(branches === undefined ? {} : { branches }),
      ...(includeAttachments === undefined ? {} : { includeAttachments }),
    });
  } finally {
    unsubscribe();
    options.interrupt?.removeEventListener('abort', onInterrupt);
  }
  if (result.outcome === 'cancelled') {
    output.stderr('Export stopped; nothing was written.\n');
    return 130;
  }
  const files = unzipSync(await readWholeExport(core, exportId));
  const names = Object.keys(files);
  const unsafe = names.find((name) => !isPlainFileName(name) && !isAttachmentPath(name));
  if (unsafe !== undefined) throw new ApiError('internal', `The export named a file ${JSON.stringify(unsafe)} outside its folder; nothing was written.`);
  // The index last: a folder with an index holds every file it names.
  const ordered = [...names.filter((name) => name !== EXPORT_INDEX_FILE), EXPORT_INDEX_FILE];
  writeFilesAtomically(ordered.flatMap((name) => (files[name] === undefined ? [] : [{ path: join(options.folder, name), content: files[name] }])));
  output.stderr(`Wrote ${result.conversations} conversations (${result.messages} messages) and ${EXPORT_INDEX_FILE} to ${options.folder}\n`);
  return 0;
}

/** A finished export's zip, read piece by piece through the Api. */
export async function readWholeExport(core: Core, exportId: string): Promise<Uint8Array> {
  const pieces: Buffer[] = [];
  for (let offset: number | null = 0; offset !== null; ) {
    const chunk: ExportChunk = await call(core, 'readExport', { exportId, offset });
    pieces.push(Buffer.from(chunk.data, 'base64'));
    offset = chunk.nextOffset;
  }
  return new Uint8Array(Buffer.concat(pieces));
}

/** "3 (12.4 MB)": files a killed import or attach left behind. */
function leftoverText(count: { readonly files: number; readonly bytes: number }): string {
  return count.files === 0 ? '0' : `${count.files} (${(count.bytes / 1_000_000).toFixed(1)} MB)`;
}

export async function doctorCommand(core: Core, output: Output): Promise<number> {
  const health = await call(core, 'getDataHealth', {});
  const lines = [
    `data folder: ${core.dataDir}`,
    `integrity: ${health.integrity}`,
    `foreign key problems: ${health.foreignKeyProblems}`,
    `interrupted replies: ${health.interruptedReplies}${health.interruptedAtThisStart ? ` (${health.interruptedAtThisStart} found at this start)` : ''}`,
    `replies being written by a running Anybrain: ${health.streamingReplies}`,
    `leftover files removed at this start: ${leftoverText(health.leftoversRemovedAtThisStart)}`,
    `leftover files kept while another Anybrain uses this folder: ${leftoverText(health.leftoversKept)}`,
    `failed replies: ${health.failedReplies}`,
    `stopped replies: ${health.stoppedReplies}`,
    `chrome-bearing replies: ${health.chromeRows}`,
    `replies with escaped quotes: ${health.quoteEscapeRows}`,
    `quote-escape normalizations so far: ${health.quoteEscapeNormalizations}`,
    `conversations showing a branch other than their current one: ${health.staleLivePaths}`,
  ];
  output.stdout(`${lines.join('\n')}\n`);
  const problems =
    health.integrity !== 'ok' ||
    health.foreignKeyProblems > 0 ||
    health.interruptedReplies > 0 ||
    health.chromeRows > 0 ||
    health.quoteEscapeRows > 0 ||
    health.staleLivePaths > 0;
  if (problems) {
    output.stderr(
      'Problems found: see the counts above. Interrupted replies can be retried from the app; ' +
        '`anybrain repair chrome`, `anybrain repair quote-escapes` and `anybrain repair live-path` show what they would fix (add --apply to fix).\n',
    );
  }
  return problems ? 1 : 0;
}

export async function requestCommand(
  core: Core,
  output: Output,
  options: TargetFlags & { conversation: string; message?: string },
): Promise<number> {
  const preview = await call(core, 'previewRequest', {
    conversationId: options.conversation,
    ...checkedTarget(options),
    ...(options.message === undefined ? {} : { message: options.message }),
  });
  output.stdout(`${preview.body}\n`);
  output.stderr(`${describeWindow(preview.context, estimateTokens(preview.body))}\n`);
  for (const warning of preview.warnings) output.stderr(`Note: ${warning}\n`);
  return 0;
}

/**
 * The window a request was built against, in one paragraph for stderr: the window, how full the conversation would
 * make it, and how much of it the request itself takes (`requestTokens`, the body's own estimate).
 */
export function describeWindow(context: ContextStatusView, requestTokens: number): string {
  const label = BRAINS[context.brain].label;
  const lines = [
    `Window: ${label} (${context.model}) holds ${formatCount(context.contextWindow)} tokens (${windowSourceWords({ brain: context.brain, source: context.windowSource, reportedAt: context.windowReportedAt })}). ` +
      `The conversation is about ${formatCount(context.tokens)} tokens, ${context.description}; ` +
      `this request holds about ${formatCount(requestTokens)} (${formatCount(contextPercent(requestTokens, context.contextWindow))} %).`,
  ];
  if (context.windowNote) lines.push(`Note: ${context.windowNote}`);
  if (context.summary !== null) lines.push(`History: ${historyInRequestWords(context)} (summary ${context.summary.messageId}).`);
  if (context.outsideWindow > 0) {
    const count = context.outsideWindow;
    lines.push(`${formatCount(count)} older message${count === 1 ? ' is' : 's are'} outside ${label}'s window and left out; \`anybrain compact --conversation ${context.conversationId} --brain ${context.brain}\` summarises them.`);
  }
  return lines.join('\n');
}

/** Compacts a conversation now, with progress on stderr; Ctrl-C stops it and leaves the conversation as it was. */
export async function compactCommand(
  core: Core,
  output: Output,
  options: { conversation: string; brain?: string; preview?: boolean; interrupt?: AbortSignal },
): Promise<number> {
  if (options.brain !== undefined) checkedBrain(options.brain);
  const conversationId = options.conversation;
  if (options.preview === true) {
    const preview = await call(core, 'previewCompaction', { conversationId, ...(options.brain ? { brain: options.brain as BrainId } : {}) });
    output.stdout(`${preview.message}\n`);
    return 0;
  }
  const unsubscribe = core.onEvent((event: ApiEvent) => {
    if (event.type === 'compaction-started' && event.conversationId === conversationId) {
      output.stderr(`${BRAINS[event.brain].label} (${event.model}) is summarising ${event.messages} messages…\n`);
    }
    if (event.type === 'compaction-progress' && event.conversationId === conversationId && event.characters === 0 && event.summarisedMessages > 0) {
      output.stderr(`${event.summarisedMessages} of ${event.totalMessages} messages read\n`);
    }
  });
  const onInterrupt = () => void core.dispatch('stop', { conversationId });
  options.interrupt?.addEventListener('abort', onInterrupt, { once: true });
  try {
    const result = await call(core, 'compactConversation', { conversationId, ...(options.brain ? { brain: options.brain as BrainId } : {}) });
    output.stderr(`${result.message}\n`);
    if (result.summary) output.stdout(`${result.summary.text}\n`);
    switch (result.outcome) {
      case 'compacted':
      case 'nothing-to-compact':
        return 0;
      case 'stopped':
        return 130;
      case 'failed':
        return 1;
      default: {
        const unreachable: never = result.outcome;
        throw new Error(`Unknown compaction outcome ${String(unreachable)}`);
      }
    }
  } finally {
    unsubscribe();
    options.interrupt?.removeEventListener('abort', onInterrupt);
  }
}

/**
 * `anybrain import FILE`: a transcript v1, or ChatGPT's or Claude's data export, told apart by content. The new
 * conversation ids go to stdout, one a line (a transcript's one id, as before); the summary goes to stderr.
 */
export async function importCommand(core: Core, output: Output, file: string): Promise<number> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new ApiError('unreadable-file', `Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const name = basename(file);
  const summary = await call(
    core,
    'importConversations',
    startsLikeZip(bytes) ? { name, contentBase64: bytes.toString('base64') } : { name, content: bytes.toString('utf8') },
  );
  for (const conversationId of summary.conversationIds) output.stdout(`${conversationId}\n`);
  output.stderr(`${describeImportSummary(summary)}\n`);
  return summary.conversations > 0 || summary.skipped.length === 0 ? 0 : 1;
}

/** `anybrain repair live-path`: the marks of the branch shown, set again from each conversation's current leaf. */
export const LIVE_PATH_REPAIR = 'live-path';

export async function repairCommand(core: Core, output: Output, options: { kind?: string; apply?: boolean; undo?: boolean }): Promise<number> {
  if (options.kind === LIVE_PATH_REPAIR) {
    if (options.undo) throw new ApiError('invalid-input', 'A live-path repair has nothing to undo: it marks again the branch each conversation already shows.');
    const repair = await call(core, 'repairLivePaths', { apply: options.apply === true });
    for (const conversationId of repair.conversationIds) output.stdout(`${conversationId}\n`);
    if (repair.repaired === null) {
      output.stderr(`${repair.conversationIds.length} conversations would have their shown branch marked again. Nothing was changed; add --apply to mark them.\n`);
    } else {
      output.stderr(`${repair.repaired} conversations had their shown branch marked again.\n`);
    }
    return 0;
  }
  if (options.undo) {
    const undone = await call(core, 'undoRepair', {});
    if (undone.kind === null) {
      output.stderr('There is no applied repair to undo.\n');
      return 0;
    }
    output.stdout(`Undid the last ${undone.kind} repair: ${undone.restored} texts restored${undone.skipped ? `, ${undone.skipped} skipped because they changed since` : ''}.\n`);
    return 0;
  }
  if (!isRepairKind(options.kind)) {
    throw new ApiError('invalid-input', `Say what to repair: ${[...REPAIR_KINDS, LIVE_PATH_REPAIR].join(', ')} (or --undo).`);
  }
  const repair = await call(core, 'repairTexts', { kind: options.kind, apply: options.apply === true });
  for (const change of repair.changes) {
    output.stdout(`${change.conversationId} ${change.messageId}: ${JSON.stringify(change.before.slice(0, 80))} -> ${JSON.stringify(change.after.slice(0, 80))}\n`);
  }
  if (repair.changed === null) {
    output.stderr(`${repair.changes.length} texts would change. Nothing was changed; add --apply to change them (anybrain repair --undo reverts).\n`);
    return 0;
  }
  output.stderr(`${repair.changed} texts changed. \`anybrain repair --undo\` restores them exactly.\n`);
  return 0;
}

function isRepairKind(value: unknown): value is RepairKind {
  return typeof value === 'string' && (REPAIR_KINDS as readonly string[]).includes(value);
}
