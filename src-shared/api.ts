/**
 * (contract) The one typed Api between the renderer and the main process.
 *
 * Both transports (Electron IPC and the loopback web host) are derived from `commandSchemas`: every command's input is
 * validated with zod at the entry of the main process, and `Api` (what the renderer calls) is the mapped promise type.
 * Extend by adding commands and events; never change the meaning of an existing one.
 */
import { z } from 'zod';
import { BRAIN_IDS, REASONING_LEVELS, type BrainId, type ReasoningLevel, type WireId } from './brains';
import { baseUrlProblem } from './base-url';
import type { TurnReceipt } from './receipt';
import {
  ENVIRONMENT_NAME_PATTERN,
  MCP_LABEL_MAX_LENGTH,
  MCP_SERVER_ID_PATTERN,
  MCP_SERVER_STATUSES,
  TOOL_POLICY_VALUES,
  type McpServerStatus,
  type ToolPolicyValue,
} from './tool-rules';

const brainId = z.enum(BRAIN_IDS);
const reasoningLevel = z.enum(REASONING_LEVELS);
const entityId = z.string().min(1).max(64);

/** The longest transcript `importTranscript` takes, in UTF-16 code units (what zod's string `max` counts). */
export const MAX_IMPORT_CONTENT_LENGTH = 200_000_000;

/**
 * The largest command body the web host reads, in bytes: the longest import once written as JSON in UTF-8, plus room
 * for the envelope. JSON-escaped UTF-8 takes at most two bytes per code unit for ASCII (quotes, backslashes and newlines
 * escape to two), Latin, Greek, Cyrillic, Arabic, Hebrew and emoji; text mostly in three-byte scripts (CJK) meets this
 * limit before the import limit and is refused with 413 naming it. Any body within it decodes to a string shorter than
 * V8's longest (2^29 - 24 code units), so reading it never throws.
 */
export const MAX_COMMAND_BODY_BYTES = 2 * MAX_IMPORT_CONTENT_LENGTH + 1024 * 1024;

export const MESSAGE_ROLES = ['user', 'assistant', 'system'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];
export const MESSAGE_KINDS = ['chat', 'notice', 'summary'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export const MESSAGE_STATUSES = ['complete', 'streaming', 'stopped', 'interrupted', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
/** What `repairTexts` fixes in stored replies: escaped quotes, or renderer chrome written into a reply's words. */
export const REPAIR_KINDS = ['quote-escapes', 'chrome'] as const;
export type RepairKind = (typeof REPAIR_KINDS)[number];

/** What went wrong with a turn, shown under the reply it belongs to. */
export interface TurnError {
  /** Stable machine code: `provider-error`, `empty-reply`, `missing-key`, `connection`, `interrupted`, … */
  readonly code: string;
  /** One sentence a person can act on. */
  readonly message: string;
  /** Whether a retry of the same turn can succeed. */
  readonly retryable: boolean;
  /** The provider's HTTP status, where there was one. */
  readonly status?: number;
  /** How long the provider asked to wait before a retry (`retry-after`), in seconds, where it said. */
  readonly retryAfterSeconds?: number;
}

export interface Usage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
  readonly reasoningTokens?: number;
}

export interface ConversationView {
  readonly id: string;
  readonly title: string;
  readonly brain: BrainId | null;
  readonly model: string | null;
  readonly reasoningLevel: ReasoningLevel | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly archived: boolean;
}

export interface MessageView {
  readonly id: string;
  readonly conversationId: string;
  readonly seq: number;
  readonly turnId: string;
  readonly role: MessageRole;
  readonly kind: MessageKind;
  readonly text: string;
  readonly status: MessageStatus;
  readonly error: TurnError | null;
  readonly brain: BrainId | null;
  readonly modelRequested: string | null;
  readonly modelResponded: string | null;
  /** True when the provider served a different model than the one requested: the renderer shows a warning. */
  readonly modelMismatch: boolean;
  readonly reasoningLevel: ReasoningLevel | null;
  readonly usage: Usage | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const INVOCATION_KINDS = ['tool', 'memory', 'skill'] as const;
export type InvocationKind = (typeof INVOCATION_KINDS)[number];
export const INVOCATION_STATUSES = ['ok', 'error', 'denied', 'cancelled'] as const;
export type InvocationStatus = (typeof INVOCATION_STATUSES)[number];

/** One tool, memory or skill use of a turn, as stored in `tool_invocations`. */
export interface InvocationView {
  readonly id: string;
  readonly turnId: string;
  readonly messageId: string;
  readonly seq: number;
  readonly kind: InvocationKind;
  /** The MCP server, or null for a built-in tool. */
  readonly server: string | null;
  /** The bare tool name. */
  readonly tool: string;
  readonly input: unknown;
  readonly output: string | null;
  readonly status: InvocationStatus;
  readonly startedAt: string;
  readonly endedAt: string | null;
}

export interface MessagePage {
  /** Oldest first. */
  readonly messages: readonly MessageView[];
  /** The tool, memory and skill uses of these messages, by message then order: receipts are built from them. */
  readonly invocations: readonly InvocationView[];
  /** True when older messages exist before the first one returned. */
  readonly hasOlder: boolean;
}

export interface BrainSettingsView {
  readonly brain: BrainId;
  readonly label: string;
  readonly wire: WireId;
  readonly defaultModel: string;
  readonly models: readonly string[];
  /** The base URL in use: settings, else `ANYBRAIN_<BRAIN>_BASE_URL`, else the brain's default. */
  readonly baseUrl: string;
  /** The base URL saved in settings, or null when none is. */
  readonly baseUrlOverride: string | null;
  /** Keys are write-only: the renderer only ever learns whether one is present and from where. */
  readonly keySource: 'stored' | 'environment' | 'none' | 'not-needed';
  /**
   * Why the next turn on this brain would be refused before anything is sent, or null. `key-host-unconfirmed`: the
   * key would go to a host it was not confirmed for (answer with confirmKeyHost); `insecure-base-url`: the base URL
   * is http:// to another computer.
   */
  readonly connectionProblem: ConnectionProblem | null;
  /** False when this build cannot run a turn on the brain yet. */
  readonly available: boolean;
}

export const CONNECTION_PROBLEM_CODES = ['key-host-unconfirmed', 'insecure-base-url'] as const;

export interface ConnectionProblem {
  readonly code: (typeof CONNECTION_PROBLEM_CODES)[number];
  /** One sentence a person can act on; the same text a refused turn shows. */
  readonly message: string;
}

export interface SettingsView {
  readonly defaultBrain: BrainId;
  readonly theme: Theme;
  readonly brains: readonly BrainSettingsView[];
  /** Whether keys can be stored here (Electron with a real keyring); elsewhere keys come from the environment. */
  readonly canStoreKeys: boolean;
  readonly dataDir: string;
}

export interface SendResult {
  readonly turnId: string;
  readonly userMessageId: string;
  readonly assistantMessageId: string;
}

export interface ExportResult {
  readonly filename: string;
  readonly mimeType: string;
  readonly content: string;
}

export interface RequestPreview {
  readonly brain: BrainId;
  readonly model: string;
  readonly reasoningLevel: ReasoningLevel;
  readonly wire: WireId;
  /** The request body exactly as it would be sent: the same bytes `anybrain request` prints. */
  readonly body: string;
  /** What the replay could only express lossily (calls left out, tools no longer offered). */
  readonly warnings: readonly string[];
}

export interface MemoryView {
  readonly id: string;
  readonly text: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface SkillView {
  readonly name: string;
  readonly description: string;
  readonly file: string;
}

export interface SkillsView {
  /** The folder skills are read from: the data folder's `skills/`. */
  readonly folder: string;
  readonly skills: readonly SkillView[];
  /** Files that could not be read as skills, with the reason. */
  readonly problems: ReadonlyArray<{ readonly file: string; readonly problem: string }>;
}

export { TOOL_POLICY_VALUES, type ToolPolicyValue };

export interface ToolView {
  /** The name declared to brains (`server__tool` for an MCP tool). */
  readonly name: string;
  /** The bare tool name. */
  readonly tool: string;
  /** The MCP server id, or null for a built-in tool. */
  readonly server: string | null;
  readonly description: string;
  readonly policy: ToolPolicyValue;
}

export { MCP_SERVER_STATUSES, type McpServerStatus };

export interface McpServerView {
  readonly id: string;
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  /**
   * The names of the environment variables the server starts with. Their values stay in the main process (its secret
   * store): they never cross the Api, so an edit sends `null` for a value it keeps.
   */
  readonly envNames: readonly string[];
  /** A server added, or changed in what it runs, is disabled until the user enables it (setMcpServerEnabled). */
  readonly enabled: boolean;
  /** `user` when added by the user's own action; anything else starts disabled. */
  readonly origin: 'user' | 'import';
  readonly status: McpServerStatus;
  readonly error: string | null;
}

export interface ApprovalView {
  readonly approvalId: string;
  readonly conversationId: string;
  readonly turnId: string;
  readonly server: string | null;
  readonly tool: string;
  readonly input: unknown;
}

export const EXPORT_FORMATS = ['json', 'md', 'html'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The counts `anybrain doctor` prints: the database's own checks and the stored texts' health. */
export interface DataHealthView {
  /** SQLite's `integrity_check`: `ok`, or the first problem it names. */
  readonly integrity: string;
  readonly foreignKeyProblems: number;
  readonly interruptedReplies: number;
  readonly failedReplies: number;
  readonly stoppedReplies: number;
  /** Replies found still streaming when this process opened the data folder, now marked interrupted. */
  readonly interruptedAtThisStart: number;
  readonly chromeRows: number;
  readonly quoteEscapeRows: number;
  /** Escaped quotes normalised so far, by turns and by repairs. */
  readonly quoteEscapeNormalizations: number;
}

export interface RepairChangeView {
  readonly conversationId: string;
  readonly messageId: string;
  readonly before: string;
  readonly after: string;
}

export interface RepairResult {
  /** Every text the repair changes (with `apply`) or would change (without). */
  readonly changes: readonly RepairChangeView[];
  /** How many texts were changed, or null for a dry run. */
  readonly changed: number | null;
}

export interface RepairUndoResult {
  /** The kind of the repair undone, or null when there was none to undo. */
  readonly kind: RepairKind | null;
  readonly restored: number;
  /** Texts edited since the repair, left as they are. */
  readonly skipped: number;
}

/** Input schemas: the single source of truth for what each command accepts. */
export const commandSchemas = {
  listConversations: z.object({ query: z.string().max(500).optional() }).strict(),
  createConversation: z
    .object({ title: z.string().max(500).optional(), brain: brainId.optional(), model: z.string().max(200).optional() })
    .strict(),
  renameConversation: z.object({ id: entityId, title: z.string().trim().min(1).max(500) }).strict(),
  deleteConversation: z.object({ id: entityId }).strict(),
  getConversation: z.object({ id: entityId }).strict(),
  setConversationBrain: z
    .object({
      id: entityId,
      brain: brainId,
      model: z.string().trim().min(1).max(200).nullable().optional(),
      reasoningLevel: reasoningLevel.nullable().optional(),
    })
    .strict(),
  /** A page of messages: the newest `limit` when `beforeSeq` is absent, else the `limit` before it. */
  listMessages: z
    .object({
      conversationId: entityId,
      beforeSeq: z.number().int().nonnegative().optional(),
      limit: z.number().int().min(1).max(500).default(100),
    })
    .strict(),
  send: z.object({ conversationId: entityId, text: z.string().min(1).max(1_000_000) }).strict(),
  /** Runs the last user message again after a failed, stopped or interrupted reply. */
  retry: z.object({ conversationId: entityId }).strict(),
  stop: z.object({ conversationId: entityId }).strict(),
  getSettings: z.object({}).strict(),
  setDefaultBrain: z.object({ brain: brainId }).strict(),
  setTheme: z.object({ theme: z.enum(THEMES) }).strict(),
  setBaseUrl: z
    .object({
      brain: brainId,
      baseUrl: z
        .string()
        .trim()
        .url()
        .superRefine((value, context) => {
          const problem = baseUrlProblem(value);
          if (problem !== null) context.addIssue({ code: 'custom', message: problem });
        })
        .nullable(),
    })
    .strict(),
  /**
   * The user's answer to a `key-host-unconfirmed` refusal: the brain's key may go to the host of its current base URL.
   * Only origins are stored, never keys.
   */
  confirmKeyHost: z.object({ brain: brainId }).strict(),
  /** Write-only: a key goes in, and never comes out through the Api. `null` removes it. */
  setKey: z.object({ brain: brainId, key: z.string().trim().min(1).max(4096).nullable() }).strict(),
  exportConversation: z.object({ id: entityId, format: z.enum(EXPORT_FORMATS) }).strict(),
  listMemories: z.object({ query: z.string().max(2000).optional(), limit: z.number().int().min(1).max(500).default(200) }).strict(),
  addMemory: z.object({ text: z.string().trim().min(1).max(4000) }).strict(),
  updateMemory: z.object({ id: entityId, text: z.string().trim().min(1).max(4000) }).strict(),
  deleteMemory: z.object({ id: entityId }).strict(),
  listSkills: z.object({}).strict(),
  listTools: z.object({}).strict(),
  setToolPolicy: z
    .object({ server: z.string().max(64).nullable(), tool: z.string().min(1).max(128), policy: z.enum(TOOL_POLICY_VALUES) })
    .strict(),
  listMcpServers: z.object({}).strict(),
  /**
   * Adds (no id) or replaces an MCP server: a command and its arguments, never a shell string. An `env` value of
   * `null` keeps the value stored for that variable; a variable left out is removed. A new server, or one whose
   * command, arguments or environment change, is saved disabled: only setMcpServerEnabled turns a server on.
   * `enabled` is kept for older callers: `false` turns the server off, and nothing here turns one on.
   */
  saveMcpServer: z
    .object({
      id: z.string().regex(MCP_SERVER_ID_PATTERN, 'an id is lower-case letters, digits and -').optional(),
      label: z.string().trim().min(1).max(MCP_LABEL_MAX_LENGTH),
      command: z.string().trim().min(1).max(1000),
      args: z.array(z.string().max(4000)).max(100),
      env: z.record(z.string().regex(ENVIRONMENT_NAME_PATTERN), z.string().max(8000).nullable()).default({}),
      enabled: z.boolean().optional(),
    })
    .strict(),
  /** The user's own toggle in Settings: the one command that starts a server's program running. */
  setMcpServerEnabled: z.object({ id: z.string().min(1).max(64), enabled: z.boolean() }).strict(),
  removeMcpServer: z.object({ id: z.string().min(1).max(64) }).strict(),
  getGrantedFolders: z.object({}).strict(),
  setGrantedFolders: z.object({ folders: z.array(z.string().trim().min(1).max(4096)).max(100) }).strict(),
  listApprovals: z.object({}).strict(),
  answerApproval: z.object({ approvalId: entityId, decision: z.enum(['allow', 'deny']) }).strict(),
  /** Imports a transcript v1 document as a new conversation; a malformed one is refused whole. */
  importTranscript: z.object({ content: z.string().min(1).max(MAX_IMPORT_CONTENT_LENGTH) }).strict(),
  /** The exact request the next turn would send (with `message` as the new user message), without sending anything. */
  previewRequest: z
    .object({
      conversationId: entityId,
      brain: brainId.optional(),
      model: z.string().trim().min(1).max(200).optional(),
      message: z.string().max(1_000_000).optional(),
    })
    .strict(),
  /** The data's health: integrity, unfinished replies, chrome and escaped quotes. Reads only. */
  getDataHealth: z.object({}).strict(),
  /** Fixes stored texts in one transaction when `apply` is true, logging each change so `undoRepair` restores it. */
  repairTexts: z.object({ kind: z.enum(REPAIR_KINDS), apply: z.boolean().default(false) }).strict(),
  /** Restores exactly the texts the last applied repair changed, except those edited since. */
  undoRepair: z.object({}).strict(),
} as const;

export type CommandName = keyof typeof commandSchemas;
export type CommandInput<Name extends CommandName> = z.input<(typeof commandSchemas)[Name]>;
export type ParsedCommandInput<Name extends CommandName> = z.output<(typeof commandSchemas)[Name]>;

export interface CommandOutputs {
  listConversations: ConversationView[];
  createConversation: ConversationView;
  renameConversation: ConversationView;
  deleteConversation: { deleted: boolean };
  getConversation: ConversationView;
  setConversationBrain: ConversationView;
  listMessages: MessagePage;
  send: SendResult;
  retry: SendResult;
  stop: { stopped: boolean };
  getSettings: SettingsView;
  setDefaultBrain: SettingsView;
  setTheme: SettingsView;
  setBaseUrl: SettingsView;
  setKey: SettingsView;
  confirmKeyHost: SettingsView;
  exportConversation: ExportResult;
  previewRequest: RequestPreview;
  importTranscript: ConversationView;
  listMemories: MemoryView[];
  addMemory: MemoryView;
  updateMemory: MemoryView;
  deleteMemory: { deleted: boolean };
  listSkills: SkillsView;
  listTools: ToolView[];
  setToolPolicy: ToolView[];
  listMcpServers: McpServerView[];
  saveMcpServer: McpServerView[];
  setMcpServerEnabled: McpServerView[];
  removeMcpServer: McpServerView[];
  getGrantedFolders: { folders: string[] };
  setGrantedFolders: { folders: string[] };
  listApprovals: ApprovalView[];
  answerApproval: { answered: boolean };
  getDataHealth: DataHealthView;
  repairTexts: RepairResult;
  undoRepair: RepairUndoResult;
}

export type CommandOutput<Name extends CommandName> = CommandOutputs[Name];

export const COMMAND_NAMES = Object.keys(commandSchemas) as CommandName[];

/** The main process's side of the Api: one handler per command, given the input its schema parsed. */
export type CommandHandlers = {
  readonly [Name in CommandName]: (input: ParsedCommandInput<Name>) => CommandOutput<Name> | Promise<CommandOutput<Name>>;
};

export function isCommandName(value: unknown): value is CommandName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(commandSchemas, value);
}

/** Events pushed from the main process. */
export type ApiEvent =
  | {
      readonly type: 'turn-started';
      readonly conversationId: string;
      readonly turnId: string;
      readonly userMessage: MessageView | null;
      readonly assistantMessage: MessageView;
    }
  | {
      /** Text appended to a streaming reply. Deltas are coalesced to at most one per frame. */
      readonly type: 'message-delta';
      readonly conversationId: string;
      readonly turnId: string;
      readonly messageId: string;
      readonly textDelta: string;
    }
  | {
      readonly type: 'tool-call-started';
      readonly conversationId: string;
      readonly turnId: string;
      readonly messageId: string;
      readonly tool: string;
      readonly server: string | null;
      readonly input: unknown;
    }
  | { readonly type: 'tool-call-finished'; readonly conversationId: string; readonly invocation: InvocationView }
  | {
      /** A tool whose policy is "ask" waits for the person: show the call and answer with answerApproval. */
      readonly type: 'approval-requested';
      readonly approval: ApprovalView;
    }
  | {
      readonly type: 'approval-resolved';
      readonly approvalId: string;
      readonly conversationId: string;
      readonly outcome: 'allow' | 'deny' | 'cancelled';
    }
  | {
      /** Sent just before turn-done: the receipt of the turn, built from its invocation rows. */
      readonly type: 'turn-receipt';
      readonly conversationId: string;
      readonly turnId: string;
      readonly messageId: string;
      readonly receipt: TurnReceipt;
    }
  | { readonly type: 'turn-done'; readonly conversationId: string; readonly turnId: string; readonly message: MessageView }
  | { readonly type: 'turn-failed'; readonly conversationId: string; readonly turnId: string; readonly message: MessageView }
  | { readonly type: 'conversation-updated'; readonly conversation: ConversationView }
  | { readonly type: 'conversation-deleted'; readonly conversationId: string };

export type ApiEventType = ApiEvent['type'];

/** What the renderer calls: one promise-returning function per command. */
export type Api = {
  readonly [Name in CommandName]: (input: CommandInput<Name>) => Promise<CommandOutput<Name>>;
};

/** Every transport answers with this envelope, so errors cross the boundary as values and are rethrown. */
export type CommandResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

/** A command refused by the main process, rethrown on the renderer side with its code. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The surface a transport exposes to the renderer (the preload's `window.anybrain`, or the web client). */
export interface ApiTransport {
  invoke<Name extends CommandName>(name: Name, input: CommandInput<Name>): Promise<CommandOutput<Name>>;
  /** Subscribe to events; returns an unsubscribe function. */
  subscribe(listener: (event: ApiEvent) => void): () => void;
}

export function createApi(transport: ApiTransport): Api {
  const api: Record<string, unknown> = {};
  for (const name of COMMAND_NAMES) {
    api[name] = (input: unknown) => transport.invoke(name, input as never);
  }
  return api as Api;
}

/**
 * What the Electron preload exposes as `window.anybrain`: exactly the Api functions and one event subscription.
 * The web client builds the same shape over HTTP + SSE.
 */
export interface AnybrainBridge {
  readonly api: Api;
  /** Subscribe to events pushed by the main process; returns an unsubscribe function. */
  readonly onEvent: (listener: (event: ApiEvent) => void) => () => void;
  /** Which host the renderer runs in. */
  readonly host: 'electron' | 'web';
}

/** IPC channel names shared by the preload and the main process. */
export const IPC_COMMAND_CHANNEL = 'anybrain:command';
export const IPC_EVENT_CHANNEL = 'anybrain:event';

/** Web host routes: POST `${WEB_COMMAND_PATH}/<name>` with the JSON input; GET `WEB_EVENTS_PATH` is an SSE stream. */
export const WEB_COMMAND_PATH = '/api/command';
export const WEB_EVENTS_PATH = '/api/events';
