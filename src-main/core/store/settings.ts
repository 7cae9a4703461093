import { eq, sql } from 'drizzle-orm';
import type { PriceFigures, Theme } from '../../../src-shared/api';
import type { BrainId } from '../../../src-shared/brains';
import type { ToolPolicyValue } from '../../../src-shared/tool-rules';
import type { ContextLines, ModelWindowOverrides } from '../../../src-shared/context-windows';
import { brainState, counters, settings } from '../../../db/schema';
import type { Usage } from '../../../src-shared/api';
import type { AppDatabase } from './open';

/** Every setting the app keeps, with its type. Keys never appear here: they live outside the database. */
export interface SettingValues {
  defaultBrain: BrainId;
  theme: Theme;
  baseUrls: Partial<Record<BrainId, string>>;
  /**
   * Per brain, the origin (`https://host:port`) the user confirmed its key may be sent to: by storing the key there or
   * by answering a `key-host-unconfirmed` refusal. Origins only, never keys.
   */
  keyOrigins: Partial<Record<BrainId, string>>;
  /** Folders read_file and list_directory may read, as the user granted them. */
  grantedFolders: string[];
  /**
   * MCP servers: command and argument array, the names of their environment variables (values live in the secret
   * store, see mcp-server-store.ts), enabled, and who added them.
   */
  mcpServers: unknown[];
  /** Per tool (`server/tool` or a built-in's bare name): allow, ask or deny. */
  toolPolicies: Record<string, ToolPolicyValue>;
  /** The user's windows, by `brain/model`. */
  modelWindows: ModelWindowOverrides;
  /** Per brain, the warning and emergency lines in percent of its window. */
  contextLines: Partial<Record<BrainId, ContextLines>>;
  /** The brain that writes compaction summaries; absent or null: the brain the turn goes to. */
  compactionBrain: BrainId | null;
  /** Prices the user set, by `brain/model`: every request of the model is priced by them instead of the list's. */
  modelPrices: Record<string, PriceFigures>;
}

export type SettingKey = keyof SettingValues;

export function readSetting<Key extends SettingKey>(db: AppDatabase, key: Key): SettingValues[Key] | undefined {
  const row = db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).get();
  return row ? (row.value as SettingValues[Key]) : undefined;
}

export function writeSetting<Key extends SettingKey>(db: AppDatabase, key: Key, value: SettingValues[Key]): void {
  db.insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value } })
    .run();
}

/**
 * Overwrites a setting so its old value leaves the database file: SQLite's secure_delete zeroes the freed page, and a
 * truncating checkpoint empties the write-ahead log that still held the old page.
 */
export function overwriteSettingLeavingNoTrace<Key extends SettingKey>(db: AppDatabase, key: Key, value: SettingValues[Key]): void {
  const sqlite = db.$client;
  sqlite.pragma('secure_delete = ON');
  try {
    writeSetting(db, key, value);
  } finally {
    sqlite.pragma('secure_delete = OFF');
  }
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
}

export function incrementCounter(db: AppDatabase, name: string, by = 1): void {
  db.insert(counters)
    .values({ name, value: by })
    .onConflictDoUpdate({ target: counters.name, set: { value: sql`${counters.value} + ${by}` } })
    .run();
}

export function readCounters(db: AppDatabase): Record<string, number> {
  return Object.fromEntries(db.select().from(counters).all().map((row) => [row.name, row.value]));
}

export interface BrainStateUpdate {
  readonly conversationId: string;
  readonly brain: BrainId;
  readonly usage?: Usage | null;
  readonly full?: boolean;
  /** A size refusal's limit (or the refused request's size) and the model it was for. */
  readonly refused?: { readonly tokens: number; readonly model: string } | null;
  /** Where the request starts while rows are left out without a summary, and the window that cut was made for. */
  readonly trim?: { readonly fromSeq: number; readonly window: number } | null;
  readonly now: string;
}

/**
 * The per-(conversation, brain) snapshot: last usage, whether the provider refused the conversation's size, and where
 * the request starts while older rows are left out.
 */
export function saveBrainState(db: AppDatabase, update: BrainStateUpdate): void {
  const changes: Partial<typeof brainState.$inferInsert> = { updatedAt: update.now };
  if (update.usage !== undefined) changes.usage = update.usage;
  if (update.full !== undefined) changes.full = update.full;
  if (update.refused !== undefined) {
    changes.refusedTokens = update.refused?.tokens ?? null;
    changes.refusedModel = update.refused?.model ?? null;
  }
  if (update.trim !== undefined) {
    changes.trimFromSeq = update.trim?.fromSeq ?? null;
    changes.trimWindow = update.trim?.window ?? null;
  }
  db.insert(brainState)
    .values({
      conversationId: update.conversationId,
      brain: update.brain,
      usage: update.usage ?? null,
      full: update.full ?? false,
      refusedTokens: update.refused?.tokens ?? null,
      refusedModel: update.refused?.model ?? null,
      trimFromSeq: update.trim?.fromSeq ?? null,
      trimWindow: update.trim?.window ?? null,
      updatedAt: update.now,
    })
    .onConflictDoUpdate({ target: [brainState.conversationId, brainState.brain], set: changes })
    .run();
}

export function readBrainState(db: AppDatabase, conversationId: string, brain: BrainId) {
  return (
    db
      .select()
      .from(brainState)
      .where(sql`${brainState.conversationId} = ${conversationId} AND ${brainState.brain} = ${brain}`)
      .get() ?? null
  );
}

/** After a compaction the conversation is smaller for every brain: no brain's `full` flag holds any more. */
export function clearFullFlags(db: AppDatabase, conversationId: string, now: string): void {
  db.update(brainState).set({ full: false, updatedAt: now }).where(sql`${brainState.conversationId} = ${conversationId} AND ${brainState.full} = 1`).run();
}
