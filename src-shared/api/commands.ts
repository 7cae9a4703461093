/**
 * (contract) The commands: their zod input schemas (validated at the entry of the main process) and what each answers.
 */
import { z } from 'zod';
import { MAX_ATTACHMENT_BASE64_LENGTH, MAX_ATTACHMENTS_PER_MESSAGE } from '../attachments';
import { BRAIN_IDS, REASONING_LEVELS } from '../brains';
import { baseUrlProblem } from '../base-url';
import { MAX_CONTEXT_WINDOW, MIN_CONTEXT_WINDOW } from '../context-windows';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, MAX_SEARCH_QUERY_LENGTH } from '../search';
import { MAX_TITLE_LENGTH } from '../title-limit';
import { ENVIRONMENT_NAME_PATTERN, MCP_LABEL_MAX_LENGTH, MCP_SERVER_ID_PATTERN, TOOL_POLICY_VALUES } from '../tool-rules';
import {
  EXPORT_BRANCHES,
  EXPORT_FORMATS,
  REPAIR_KINDS,
  THEMES,
  type ApprovalView,
  type AttachmentContent,
  type AttachmentView,
  type CompactionPreview,
  type UsageDayView,
  type ModelPriceView,
  type CompactionResult,
  type ContextStatusView,
  type ConversationView,
  type DataHealthView,
  type BrainTestResult,
  type ExportArchiveResult,
  type ExportChunk,
  type ExportResult,
  type ImportSummaryView,
  type McpServerView,
  type MemoryView,
  type NotAnsweringView,
  type MessagePage,
  type RepairResult,
  type RepairUndoResult,
  type LivePathRepairResult,
  type RequestPreview,
  type SearchResultsView,
  type SendResult,
  type SettingsView,
  type SkillsView,
  type ToolView,
} from './views';

const brainId = z.enum(BRAIN_IDS);
const reasoningLevel = z.enum(REASONING_LEVELS);
const entityId = z.string().min(1).max(64);
/** A model id as the pickers and the window overrides take it. */
const modelName = z.string().trim().min(1).max(200);

/** The most a price may say, in dollars per million tokens: above any model sold today by a hundred times. */
export const MAX_DOLLARS_PER_MILLION_TOKENS = 10_000;
const dollarsPerMillion = z.number().finite().min(0).max(MAX_DOLLARS_PER_MILLION_TOKENS);
const priceFigures = z
  .object({
    inputPerMillion: dollarsPerMillion,
    outputPerMillion: dollarsPerMillion,
    cacheReadPerMillion: dollarsPerMillion.nullable(),
    cacheWritePerMillion: dollarsPerMillion.nullable(),
  })
  .strict();
const exportId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'an export id is 1 to 64 letters, digits, _ or -');

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

/** The most turns one export may name: more than a conversation of any length a person would pick turns from. */
export const MAX_EXPORT_TURN_IDS = 10_000;

/** Input schemas: the single source of truth for what each command accepts. */
export const commandSchemas = {
  /**
   * Conversations newest first (by `updatedAt`, then id), filtered by title when `query` is given. Without `before` and
   * `limit` every match is answered, as the command line's `list` expects; the sidebar pages with them: `limit` at
   * most, each after the conversation `before` names (the last one it holds).
   */
  listConversations: z
    .object({
      query: z.string().max(500).optional(),
      before: z.object({ updatedAt: z.string().min(1).max(64), id: entityId }).strict().optional(),
      limit: z.number().int().min(1).max(1000).optional(),
    })
    .strict(),
  createConversation: z
    .object({ title: z.string().max(MAX_TITLE_LENGTH).optional(), brain: brainId.optional(), model: z.string().max(200).optional() })
    .strict(),
  renameConversation: z.object({ id: entityId, title: z.string().trim().min(1).max(MAX_TITLE_LENGTH) }).strict(),
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
  /**
   * A page of messages: the newest `limit` when neither cursor is given, the `limit` before `beforeSeq`, or the `limit`
   * after `afterSeq` (the list fetching again, on the way back down, the newer pages it let go of).
   */
  listMessages: z
    .object({
      conversationId: entityId,
      beforeSeq: z.number().int().nonnegative().optional(),
      afterSeq: z.number().int().nonnegative().optional(),
      limit: z.number().int().min(1).max(500).default(100),
    })
    .strict()
    .refine((input) => input.beforeSeq === undefined || input.afterSeq === undefined, {
      message: 'Give beforeSeq or afterSeq, not both.',
    }),
  /**
   * Sends a message: `text`, with the pending attachments `attachmentIds` (from addAttachment) linked to it. `text` may
   * be empty only when something is attached. A model that cannot take a kind attached is refused before anything is
   * stored (`attachment-not-supported`).
   */
  send: z
    .object({
      conversationId: entityId,
      text: z.string().max(1_000_000),
      attachmentIds: z.array(entityId).max(MAX_ATTACHMENTS_PER_MESSAGE).optional(),
    })
    .strict()
    .refine((input) => input.text.length > 0 || (input.attachmentIds?.length ?? 0) > 0, {
      message: 'Write a message or attach a file.',
      path: ['text'],
    }),
  /**
   * Stores a file for the next message: its media type sniffed from the bytes (never the name), the bytes kept once
   * per content in the data folder. Answers with the pending attachment; refused with `attachment-empty`,
   * `attachment-too-large`, `attachment-unsupported` or `attachment-corrupt`, storing nothing.
   */
  addAttachment: z
    .object({ name: z.string().trim().min(1).max(255), dataBase64: z.string().max(MAX_ATTACHMENT_BASE64_LENGTH) })
    .strict(),
  /** Drops an attachment not yet sent; its file goes when no other attachment holds the same bytes. */
  removeAttachment: z.object({ id: entityId }).strict(),
  /** An attachment's bytes, to show an image or open a file. */
  readAttachment: z.object({ id: entityId }).strict(),
  /** Runs the last user message again after a failed, stopped or interrupted reply. */
  retry: z.object({ conversationId: entityId }).strict(),
  stop: z.object({ conversationId: entityId }).strict(),
  /**
   * Sends `text` in place of a user message: a new user message beside it (same parent), answered by the conversation's
   * brain. The old branch is kept and reachable by `chooseSibling`.
   */
  editMessage: z.object({ messageId: entityId, text: z.string().min(1).max(1_000_000) }).strict(),
  /**
   * A new reply beside a reply (same parent), written by the same brain and model; given a user message, a new reply
   * to it. The history replayed is the path up to that point, whatever branch is shown.
   */
  regenerate: z.object({ messageId: entityId }).strict(),
  /** As `regenerate`, written by `brain` (its `model`, else the brain's pick) instead. */
  answerWith: z
    .object({ messageId: entityId, brain: brainId, model: z.string().trim().min(1).max(200).optional(), reasoningLevel: reasoningLevel.optional() })
    .strict(),
  /**
   * Shows the branch through `messageId`: its newest descendant becomes the conversation's current leaf. Answers with
   * the new live path from `messageId`'s parent down (or its newest page, when that is longer than a page).
   */
  chooseSibling: z.object({ messageId: entityId }).strict(),
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
  /**
   * The cheapest call the brain's wire allows (its model list), with the key and base URL a turn would use; refused
   * before anything is sent when a turn would be (an unconfirmed key host, plain http:// to another computer).
   */
  testBrain: z.object({ brain: brainId }).strict(),
  /** Write-only: a key goes in, and never comes out through the Api. `null` removes it. */
  setKey: z.object({ brain: brainId, key: z.string().trim().min(1).max(4096).nullable() }).strict(),
  /**
   * One conversation as a transcript. Markdown and HTML show tool calls unless `includeTools` is false, reasoning
   * only when `includeReasoning` is true, and the live path unless `branches` is `all`; `turnIds` keeps only those
   * turns, in conversation order (every format). JSON carries every branch and the current leaf. `includeAttachments`
   * carries the attachments' bytes: embedded in JSON (default off), images in HTML, files beside Markdown (default on).
   */
  exportConversation: z
    .object({
      id: entityId,
      format: z.enum(EXPORT_FORMATS),
      includeTools: z.boolean().optional(),
      includeReasoning: z.boolean().optional(),
      branches: z.enum(EXPORT_BRANCHES).optional(),
      turnIds: z.array(entityId).min(1).max(MAX_EXPORT_TURN_IDS).optional(),
      includeAttachments: z.boolean().optional(),
    })
    .strict(),
  /**
   * Exports every conversation into one zip (a file per conversation and an `index.json`), off the main thread. The
   * caller names the export, so it can match `export-progress` events and cancel before the answer comes. Answers when
   * the zip is ready (read it with readExport) or when cancelExport stopped it.
   */
  exportAllConversations: z
    .object({
      exportId: exportId,
      format: z.enum(EXPORT_FORMATS),
      includeTools: z.boolean().optional(),
      includeReasoning: z.boolean().optional(),
      branches: z.enum(EXPORT_BRANCHES).optional(),
      includeAttachments: z.boolean().optional(),
    })
    .strict(),
  /** Stops a running export (nothing is kept), or lets go of a finished one nobody read to the end. */
  cancelExport: z.object({ exportId: exportId }).strict(),
  /** A piece of a finished export's zip, from `offset`. */
  readExport: z.object({ exportId: exportId, offset: z.number().int().nonnegative() }).strict(),
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
  /**
   * Imports a file of conversations, recognised by its content: a transcript v1, ChatGPT's or Claude's data export
   * (`conversations.json`), or ChatGPT's zip. Text goes as `content`, bytes (a zip) as `contentBase64`; `name` labels
   * the `import-progress` events. Every conversation is checked before any is written, and all are written together.
   */
  importConversations: z
    .object({
      name: z.string().max(500),
      content: z.string().min(1).max(MAX_IMPORT_CONTENT_LENGTH).optional(),
      contentBase64: z.string().min(1).max(MAX_IMPORT_CONTENT_LENGTH).optional(),
    })
    .strict()
    .refine((input) => (input.content === undefined) !== (input.contentBase64 === undefined), {
      message: 'Give the file either as content (text) or as contentBase64 (bytes), exactly one of them.',
    }),
  /** The exact request the next turn would send (with `message` as the new user message), without sending anything. */
  previewRequest: z
    .object({
      conversationId: entityId,
      brain: brainId.optional(),
      model: z.string().trim().min(1).max(200).optional(),
      /** A level, or null for the model's default; absent keeps the conversation's pick (none on another brain). */
      reasoningLevel: reasoningLevel.nullable().optional(),
      message: z.string().max(1_000_000).optional(),
    })
    .strict(),
  /** How full the window of the brain the next turn goes to (or of `brain`/`model`) is for this conversation. */
  getContextStatus: z
    .object({ conversationId: entityId, brain: brainId.optional(), model: z.string().trim().min(1).max(200).optional() })
    .strict(),
  /**
   * Summarises the oldest live messages into one summary row, against `brain`'s window (default: the brain the next
   * turn goes to). Answers when it ends; progress comes as events, and `stop` cancels it leaving nothing changed.
   */
  compactConversation: z.object({ conversationId: entityId, brain: brainId.optional() }).strict(),
  /** What compactConversation would fold for `brain`'s window (default: the brain the next turn goes to), or why not. */
  previewCompaction: z.object({ conversationId: entityId, brain: brainId.optional() }).strict(),
  /** The messages a summary covers, oldest first, paged like listMessages. */
  listCoveredMessages: z
    .object({ summaryId: entityId, beforeSeq: z.number().int().nonnegative().optional(), limit: z.number().int().min(1).max(500).default(100) })
    .strict(),
  /** The user's window for one model; `null` fields go back to the table's value. */
  setModelWindow: z
    .object({
      brain: brainId,
      model: z.string().trim().min(1).max(200),
      contextWindow: z.number().int().min(MIN_CONTEXT_WINDOW).max(MAX_CONTEXT_WINDOW).nullable(),
      outputLimit: z.number().int().min(256).max(MAX_CONTEXT_WINDOW).nullable(),
    })
    .strict()
    .refine((value) => value.contextWindow === null || value.outputLimit === null || value.outputLimit < value.contextWindow, {
      message: 'the output limit must be smaller than the window',
      path: ['outputLimit'],
    }),
  /** The warning and emergency lines of one brain, as whole percentages of its window. */
  setContextLines: z
    .object({ brain: brainId, warningPercent: z.number().int().min(5).max(95), emergencyPercent: z.number().int().min(10).max(99) })
    .strict()
    .refine((value) => value.warningPercent < value.emergencyPercent, {
      message: 'the warning line must be below the emergency line',
      path: ['warningPercent'],
    }),
  /** Which brain writes compaction summaries; null: the brain the turn goes to. */
  setCompactionBrain: z.object({ brain: brainId.nullable() }).strict(),
  /** The data's health: integrity, unfinished replies, chrome and escaped quotes. Reads only. */
  getDataHealth: z.object({}).strict(),
  listNotAnswering: z.object({}).strict(),
  /** Fixes stored texts in one transaction when `apply` is true, logging each change so `undoRepair` restores it. */
  repairTexts: z.object({ kind: z.enum(REPAIR_KINDS), apply: z.boolean().default(false) }).strict(),
  /** Restores exactly the texts the last applied repair changed, except those edited since. */
  undoRepair: z.object({}).strict(),
  /**
   * Finds the conversations whose live-path marks disagree with the walk from their current leaf and, with `apply`,
   * marks each path again from its leaf. Nothing to undo: the marks follow the leaf, which stays.
   */
  repairLivePaths: z.object({ apply: z.boolean().default(false) }).strict(),
  /**
   * Full-text search over every conversation's words, and over titles: conversations whose title holds every term,
   * then messages, best first. Any text is a valid query (terms are quoted, never FTS syntax).
   */
  searchMessages: z
    .object({
      query: z.string().max(MAX_SEARCH_QUERY_LENGTH),
      limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(DEFAULT_SEARCH_LIMIT),
    })
    .strict(),
  /**
   * What the provider requests cost, summed per day (UTC), brain and model: every tool round and compaction part, in
   * tokens and in dollars estimated from the bundled price list. One conversation's, or every one's; from `since` on.
   */
  getUsage: z
    .object({ conversationId: entityId.optional(), since: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is written YYYY-MM-DD').optional() })
    .strict(),
  /** Each model's price as requests are priced: every model a request was counted for, every model offered, and every one priced. */
  getModelPrices: z.object({}).strict(),
  /** Sets a model's price (dollars per million tokens), or clears it (null); every counted request of the model is priced again. */
  setModelPrice: z.object({ brain: brainId, model: modelName, price: priceFigures.nullable() }).strict(),
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
  addAttachment: AttachmentView;
  removeAttachment: null;
  readAttachment: AttachmentContent;
  retry: SendResult;
  stop: { stopped: boolean };
  editMessage: SendResult;
  regenerate: SendResult;
  answerWith: SendResult;
  chooseSibling: MessagePage;
  getSettings: SettingsView;
  setDefaultBrain: SettingsView;
  setTheme: SettingsView;
  setBaseUrl: SettingsView;
  setKey: SettingsView;
  confirmKeyHost: SettingsView;
  testBrain: BrainTestResult;
  exportConversation: ExportResult;
  exportAllConversations: ExportArchiveResult;
  cancelExport: { cancelled: boolean };
  readExport: ExportChunk;
  previewRequest: RequestPreview;
  importTranscript: ConversationView;
  importConversations: ImportSummaryView;
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
  getContextStatus: ContextStatusView;
  compactConversation: CompactionResult;
  previewCompaction: CompactionPreview;
  listCoveredMessages: MessagePage;
  setModelWindow: SettingsView;
  setContextLines: SettingsView;
  setCompactionBrain: SettingsView;
  getDataHealth: DataHealthView;
  listNotAnswering: NotAnsweringView[];
  repairTexts: RepairResult;
  undoRepair: RepairUndoResult;
  repairLivePaths: LivePathRepairResult;
  searchMessages: SearchResultsView;
  getUsage: UsageDayView[];
  getModelPrices: ModelPriceView[];
  setModelPrice: ModelPriceView[];
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
