/** (contract) The shapes commands answer with and events carry: plain readonly data, no behaviour. */
import type { ReportedModel } from '../models/reported';
import type { BrainId, ReasoningLevel, WireId } from '../brains';
import type { ContextLevel, ContextLines, WindowSource } from '../context-windows';
import { MCP_SERVER_STATUSES, TOOL_POLICY_VALUES, type McpServerOrigin, type McpServerStatus, type ToolPolicyValue } from '../tool-rules';
import type { ToolImageFacts } from '../tool-images';
import type { AttachmentKind } from '../attachments';

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
  /** Stable machine code: `provider-error`, `empty-reply`, `missing-key`, `connection`, `interrupted`, `refusal` (the brain declined to answer), … */
  readonly code: string;
  /** One sentence a person can act on. */
  readonly message: string;
  /** Whether a retry of the same turn can succeed. */
  readonly retryable: boolean;
  /** The provider's HTTP status, where there was one. */
  readonly status?: number;
  /** How long the provider asked to wait before a retry (`retry-after`), in seconds, where it said. */
  readonly retryAfterSeconds?: number;
  /** A size refusal (`context-too-large`): the window or limit the provider named, in tokens, where it said. */
  readonly limitTokens?: number;
  /** A size refusal: what the provider counted for the request, in tokens, where it said. */
  readonly requestTokens?: number;
}

export interface Usage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
  /** The part of `cacheWriteTokens` written to be kept an hour (Anthropic), priced higher than a five-minute write. */
  readonly cacheWriteHourTokens?: number;
  readonly reasoningTokens?: number;
}

/** The tokens of a reply's provider requests summed (input includes the cached part, on every wire), and their price. */
export interface SpendView {
  readonly requests: number;
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly outputTokens: number;
  /** An estimate in US dollars from the bundled price list; null when the list does not know the model (never 0 for unknown). */
  readonly costUsd: number | null;
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
  /** Set on a row a compaction summarised: the summary's id. The row stays stored and shown, out of the replay. */
  readonly compactedInto: string | null;
  /** On a summary row (`kind: 'summary'`): the last message it summarises. */
  readonly coversThroughId: string | null;
  /** On a summary row: how many messages it stands for, those under older summaries it covers included. */
  readonly coveredMessages: number;
  /** The message this one follows (null for the first, and for a summary). */
  readonly parentId: string | null;
  /** Where this message has alternatives (an edit, a regenerated reply, another brain's answer): its place among them. */
  readonly siblings: SiblingsView | null;
  /** The reply's readable reasoning, or null when it showed none; its opaque carriers never leave the main process. */
  readonly reasoning: ReasoningView | null;
  /** The files the user attached to this message, in the order attached; empty when none. */
  readonly attachments: readonly AttachmentView[];
  /** On a reply: what its provider requests (each tool round) cost, summed; null when none was counted. */
  readonly spend: SpendView | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface KeyStorageView {
  /** Where a stored key lives, e.g. "the system keychain"; null when this host has no store at all. */
  readonly place: string | null;
  /**
   * False while the store has not answered within its time limit (a keychain waiting on an unlock prompt nobody
   * answers): `refusal` then says so, and keys come from the environment until it answers.
   */
  readonly answering: boolean;
  /** Why no key can be stored here, with what to do instead; null when keys can be stored. */
  readonly refusal: string | null;
  /** The store's own words on why (a keychain library's error), or null. */
  readonly refusalDetail: string | null;
}

/** The readable reasoning of a reply: "Kimi thought for 12 s". */
export interface ReasoningView {
  readonly text: string;
  /** From the first reasoning the brain streamed to its first words or call (or the reply's end); null when unmeasured. */
  readonly durationMs: number | null;
}

/** A message among the messages that follow the same parent, oldest first: "‹ 2 / 3 ›". */
export interface SiblingsView {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
  readonly previousId: string | null;
  readonly nextId: string | null;
}

/**
 * How full the target brain's window is for a conversation: what the next request would replay, against the window of
 * the brain and model it goes to (never the window of the brain that answered last).
 */
export interface ContextStatusView {
  readonly conversationId: string;
  readonly brain: BrainId;
  readonly model: string;
  /** Tokens the next request replays: the live history, the system prompt and the tool declarations. */
  readonly tokens: number;
  /** Whether `tokens` leans on a provider's own count (a usage snapshot) or only on the estimate. */
  readonly measuredBy: 'usage' | 'estimate';
  readonly contextWindow: number;
  readonly outputLimit: number;
  readonly windowSource: WindowSource;
  /** For a window the provider reported, when it said so (ISO 8601); else null. */
  readonly windowReportedAt: string | null;
  /** Why the window is a guess (a model the table does not know), or null. */
  readonly windowNote: string | null;
  /** `tokens` as a whole percentage of the window. */
  readonly percent: number;
  readonly level: ContextLevel;
  readonly lines: ContextLines;
  /** The provider refused this conversation's size on this brain: the next turn compacts first. */
  readonly full: boolean;
  /** Live messages the next request leaves out because they do not fit this brain's window. */
  readonly outsideWindow: number;
  /**
   * The summary the next request holds in place of older messages, and the brain whose window it was made for (null
   * for a summary imported or written before that was recorded); null when the request holds the messages themselves.
   */
  readonly summary: { readonly messageId: string; readonly madeFor: BrainId | null } | null;
  /** A compaction of this conversation is running now (its events tell its progress and end). */
  readonly compacting: boolean;
  /** Every provider request of this conversation so far (replies and compactions, every brain), summed; null before the first. */
  readonly spent: SpendView | null;
  /** "61 % of Kimi's window". */
  readonly description: string;
}

/** The provider requests of one day (UTC), brain and model, summed. */
export interface UsageDayView {
  readonly day: string;
  readonly brain: BrainId;
  readonly model: string;
  readonly requests: number;
  /** Every input token, cached or not (the same measure on every wire). */
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly outputTokens: number;
  readonly reasoningTokens: number;
  /** Dollars, an estimate from the price list bundled with this release; null when a request's price is unknown. */
  readonly costUsd: number | null;
}

/** Dollars per million tokens; a null cache price means the provider charges that part as ordinary input. */
export interface PriceFigures {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
  readonly cacheReadPerMillion: number | null;
  readonly cacheWritePerMillion: number | null;
}

/** A model's price as requests are priced: the user's own where set, else the bundled list's. */
export interface ModelPriceView {
  readonly brain: BrainId;
  readonly model: string;
  /** The bundled price list's figures at its base tier; null when the list does not know the model. */
  readonly listed: PriceFigures | null;
  /** The list's entry the model matched (`claude-sonnet-5` for `claude-sonnet-5-5`); null when unknown. */
  readonly pricedAs: string | null;
  /** The price the user set, which every request of the model is priced by; null when the list's is used. */
  readonly own: PriceFigures | null;
}

/** What Compact now would do, before it runs: nothing is asked of any brain to answer this. */
export interface CompactionPreview {
  /** The brain and model whose window the summary is made for. */
  readonly brain: BrainId;
  readonly model: string;
  /** The brain and model that would write it. */
  readonly summariser: BrainId;
  readonly summariserModel: string;
  /** Messages it would fold, whole turns only: 0 when there is nothing to fold. */
  readonly messages: number;
  /** The newest message it would fold, and its first words. */
  readonly through: { readonly messageId: string; readonly excerpt: string } | null;
  /** One sentence for the person: what Compact now would do, or why it cannot. */
  readonly message: string;
}

/** How a compaction ended. */
export interface CompactionResult {
  readonly outcome: 'compacted' | 'nothing-to-compact' | 'stopped' | 'failed';
  /** The new summary row, when one was stored. */
  readonly summary: MessageView | null;
  /** Messages the summary covers directly. */
  readonly coveredMessages: number;
  /** One sentence for the person. */
  readonly message: string;
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
  /** The images the result held, beside its text output: named only, their bytes never leave the store. */
  readonly images?: readonly ToolImageFacts[];
}

export interface MessagePage {
  /** Oldest first. */
  readonly messages: readonly MessageView[];
  /** The tool, memory and skill uses of these messages, by message then order: receipts are built from them. */
  readonly invocations: readonly InvocationView[];
  /** True when older messages exist before the first one returned. */
  readonly hasOlder: boolean;
  /** On a page read after `afterSeq` only: true when newer messages exist after the last one returned. */
  readonly hasNewer?: boolean;
}

export interface BrainSettingsView {
  readonly brain: BrainId;
  readonly label: string;
  readonly wire: WireId;
  readonly defaultModel: string;
  /** The picker's models: the provider's own chat models, newest first, once it has answered; else the catalogue's. */
  readonly models: readonly string[];
  /** When the provider's list behind `models` was given (ISO 8601); null when `models` are the catalogue's. */
  readonly modelsListedAt: string | null;
  /** What the provider said of each model it listed (its life cycle above all), empty before it has answered. */
  readonly reportedModels: readonly ReportedModel[];
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

/** What a brain's Test found: the provider's answer, never the key. */
export interface BrainTestResult {
  readonly ok: boolean;
  /** One sentence: the model count, or the provider's own error (or why nothing was sent). */
  readonly message: string;
  /** The models the provider listed, when it answered. */
  readonly models?: readonly string[];
}

export const CONNECTION_PROBLEM_CODES = ['key-host-unconfirmed', 'insecure-base-url'] as const;

export interface ConnectionProblem {
  readonly code: (typeof CONNECTION_PROBLEM_CODES)[number];
  /** One sentence a person can act on; the same text a refused turn shows. */
  readonly message: string;
}

/** One model's window as the app uses it, and the user's override of it. */
export interface ModelWindowView {
  readonly brain: BrainId;
  readonly model: string;
  readonly contextWindow: number;
  readonly outputLimit: number;
  readonly source: WindowSource;
  /** For a window the provider reported, when it said so (ISO 8601); else null. */
  readonly reportedAt: string | null;
  readonly note: string | null;
  /** The user's own values, or null when the table's are used. */
  readonly override: { readonly contextWindow: number | null; readonly outputLimit: number | null } | null;
}

export interface ContextSettingsView {
  /** The brain that writes compaction summaries; null: the brain the turn goes to. */
  readonly compactionBrain: BrainId | null;
  readonly lines: Readonly<Record<BrainId, ContextLines>>;
  /** Every model offered in the pickers, and any other model given an override. */
  readonly modelWindows: readonly ModelWindowView[];
}

export interface SettingsView {
  readonly defaultBrain: BrainId;
  readonly theme: Theme;
  readonly brains: readonly BrainSettingsView[];
  /** Whether keys can be stored here (Electron's safeStorage, or the system keychain); else keys come from the environment. */
  readonly canStoreKeys: boolean;
  /** Where a stored key lives ("the system keychain"), and why none can be stored here when `canStoreKeys` is false. */
  readonly keyStorage: KeyStorageView;
  readonly dataDir: string;
  readonly context: ContextSettingsView;
}

export interface SendResult {
  readonly turnId: string;
  readonly userMessageId: string;
  readonly assistantMessageId: string;
}

/** What `importConversations` wrote: "212 conversations, 9,804 messages imported; 3 skipped: why". */
export interface ImportSummaryView {
  /** What the file was: an Anybrain transcript, or ChatGPT's or Claude's data export. */
  readonly source: 'anybrain' | 'chatgpt' | 'claude';
  readonly conversations: number;
  readonly messages: number;
  /** The conversations of the file left out, each with the reason. */
  readonly skipped: readonly { readonly title: string; readonly reason: string }[];
  /** The new conversations, in the file's order. */
  readonly conversationIds: readonly string[];
}

/** A file an export writes beside its main file (a Markdown export's attachments). */
export interface ExportFile {
  /** Relative to the main file's folder: `<export name>.attachments/<file>`, one folder and one plain file name. */
  readonly path: string;
  readonly dataBase64: string;
}

export interface ExportResult {
  readonly filename: string;
  readonly mimeType: string;
  readonly content: string;
  /** Markdown with attachments: the files its links name, to write beside it. Absent when there are none. */
  readonly files?: readonly ExportFile[];
}

/** The answer to exportAllConversations: a zip, read in chunks with readExport, or nothing when it was cancelled. */
export type ExportArchiveResult =
  | {
      readonly outcome: 'done';
      readonly exportId: string;
      readonly filename: string;
      readonly mimeType: string;
      /** The zip's size: readExport hands it out from offset 0 until `nextOffset` is null. */
      readonly bytes: number;
      readonly conversations: number;
      readonly messages: number;
    }
  | { readonly outcome: 'cancelled'; readonly exportId: string };

/** One piece of a finished export's zip. */
export interface ExportChunk {
  readonly exportId: string;
  readonly offset: number;
  /** The bytes from `offset`, in base64 (the same answer crosses IPC, HTTP and the command line). */
  readonly data: string;
  /** Where the next piece starts; null after the last piece, when the zip is let go. */
  readonly nextOffset: number | null;
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
  /** The window the request was built against, and how much of it the request fills. */
  readonly context: ContextStatusView;
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
  readonly origin: McpServerOrigin;
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

/** Which branches Markdown and HTML show: the live path (the conversation as the window shows it) or every branch. */
export const EXPORT_BRANCHES = ['live', 'all'] as const;
export type ExportBranches = (typeof EXPORT_BRANCHES)[number];

/** What an export shows beyond the words; every field is optional, and an export without them reads as before. */
export interface ExportOptions {
  /** Markdown and HTML: each reply's tool, memory and skill calls (default true). */
  readonly includeTools?: boolean;
  /** Markdown and HTML: each reply's readable reasoning (default false). */
  readonly includeReasoning?: boolean;
  /** Markdown and HTML: the live path (default), or every branch with each alternative labelled. JSON always has every branch. */
  readonly branches?: ExportBranches;
  /** Only these turns, in conversation order; absent: the whole conversation. */
  readonly turnIds?: readonly string[];
  /**
   * The attachments' bytes: JSON embeds them in base64 (default false: each is named by name, media type and sha256),
   * HTML shows images as data: URLs, Markdown writes the files beside it (both default true). Left out, each
   * attachment is named with a note.
   */
  readonly includeAttachments?: boolean;
}

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

/** The counts `anybrain doctor` prints: the database's own checks and the stored texts' health. */
/** Things outside Anybrain it waits on, each of which may hang instead of failing. */
export const OUTSIDE_KINDS = ['keychain', 'disk', 'mcp-server', 'provider'] as const;
export type OutsideKind = (typeof OUTSIDE_KINDS)[number];

/** Something outside Anybrain that has not answered within its time limit: "The system keychain is not answering…". */
export interface NotAnsweringView {
  /** One per thing: `keychain`, `disk`, `mcp:<server id>`, `provider:<brain>`. */
  readonly key: string;
  readonly kind: OutsideKind;
  /** The thing in words: "the system keychain", "the MCP server “Files”". */
  readonly subject: string;
  /** What happened and what Anybrain does meanwhile, as a person reads it. */
  readonly message: string;
  /** When it stopped answering (ISO-8601). */
  readonly since: string;
}

export interface DataHealthView {
  /** SQLite's `integrity_check`: `ok`, or the first problem it names. */
  readonly integrity: string;
  readonly foreignKeyProblems: number;
  readonly interruptedReplies: number;
  /**
   * Replies still marked streaming: being written by a running Anybrain, or ended in the window and waiting for the
   * store to take their end (a full disk). A process that has gone leaves none: the next start marks them interrupted.
   */
  readonly streamingReplies: number;
  readonly failedReplies: number;
  readonly stoppedReplies: number;
  /** Replies found still streaming when this process opened the data folder, now marked interrupted. */
  readonly interruptedAtThisStart: number;
  /** Files a killed import or attach left (attachments no row names, unfinished writes), removed at this start. */
  readonly leftoversRemovedAtThisStart: { readonly files: number; readonly bytes: number };
  /** Such files kept because another Anybrain has the data folder open and may still store their rows. */
  readonly leftoversKept: { readonly files: number; readonly bytes: number };
  readonly chromeRows: number;
  readonly quoteEscapeRows: number;
  /** Escaped quotes normalised so far, by turns and by repairs. */
  readonly quoteEscapeNormalizations: number;
  /** Conversations whose marked live path is not the walk from their current leaf (`repairLivePaths` re-marks them). */
  readonly staleLivePaths: number;
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

export interface LivePathRepairResult {
  /** The conversations whose live-path marks disagree with the walk from their current leaf. */
  readonly conversationIds: readonly string[];
  /** How many were marked again, or null for a dry run. */
  readonly repaired: number | null;
}

export interface RepairUndoResult {
  /** The kind of the repair undone, or null when there was none to undo. */
  readonly kind: RepairKind | null;
  readonly restored: number;
  /** Texts edited since the repair, left as they are. */
  readonly skipped: number;
}

/**
 * One search result: a message whose words match (best first, by bm25), or a conversation whose title matches
 * (`messageId` null). `snippet` is plain text in which each matched part sits between SEARCH_MARK_START and
 * SEARCH_MARK_END (see src-shared/search.ts); it is never HTML.
 */
export interface SearchHitView {
  readonly conversationId: string;
  readonly conversationTitle: string;
  readonly messageId: string | null;
  readonly role: MessageRole | null;
  readonly brain: BrainId | null;
  readonly snippet: string;
  readonly createdAt: string;
  /** The message is on a branch the conversation does not show now: opening it shows that branch. */
  readonly offBranch: boolean;
}

export interface SearchResultsView {
  /** Title matches first (newest conversation first), then message hits, best first. */
  readonly hits: readonly SearchHitView[];
  /** Set while messages written before the search index existed are still being indexed: how far it has come. */
  readonly indexing: { readonly percent: number } | null;
}

/** A file attached to a message (or waiting to be sent, before it has one): its bytes stay in the data folder. */
export interface AttachmentView {
  readonly id: string;
  readonly name: string;
  /** Sniffed from the bytes, never taken from the name. */
  readonly mediaType: string;
  readonly kind: AttachmentKind;
  readonly size: number;
  readonly sha256: string;
  /** An image's pixels; null for PDFs and text. */
  readonly width: number | null;
  readonly height: number | null;
}

/** An attachment's bytes, for showing an image or opening a file. */
export interface AttachmentContent {
  readonly mediaType: string;
  readonly dataBase64: string;
}
