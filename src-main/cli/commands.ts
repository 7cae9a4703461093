/**
 * The `anybrain` commands as plain functions over an opened core, so tests call them without a process.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { ApiEvent, CommandName, CommandOutput, ConversationView, ExportFormat, MessageView } from '../../src-shared/api';
import { ApiError } from '../../src-shared/api';
import { BRAINS, isBrainId } from '../../src-shared/brains';
import type { OpenedCore } from '../core/app';
import { countMessagesByStatus } from '../core/store/messages';

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

export interface ChatOptions {
  readonly conversation?: string;
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
    writeFileSync(options.out, exported.content);
    output.stderr(`Wrote ${options.out}\n`);
  } else {
    output.stdout(exported.content);
  }
  return 0;
}

export function doctorCommand(core: OpenedCore, output: Output): number {
  const integrity = core.db.$client.pragma('integrity_check', { simple: true }) as string;
  const foreignKeyProblems = (core.db.$client.pragma('foreign_key_check') as unknown[]).length;
  const statuses = countMessagesByStatus(core.db);
  const lines = [
    `data folder: ${core.dataDir}`,
    `integrity: ${integrity}`,
    `foreign key problems: ${foreignKeyProblems}`,
    `interrupted replies: ${statuses.interrupted}${core.recoveredInterrupted ? ` (${core.recoveredInterrupted} found at this start)` : ''}`,
    `failed replies: ${statuses.failed}`,
    `stopped replies: ${statuses.stopped}`,
  ];
  output.stdout(`${lines.join('\n')}\n`);
  const problems = integrity !== 'ok' || foreignKeyProblems > 0 || statuses.interrupted > 0;
  if (problems) output.stderr('Problems found: see the counts above. Interrupted replies can be retried from the app.\n');
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
