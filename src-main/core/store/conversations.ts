import { and, desc, eq, lt, lte, or, sql } from 'drizzle-orm';
import type { ConversationView } from '../../../src-shared/api';
import { isBrainId, REASONING_LEVELS, type BrainId, type ReasoningLevel } from '../../../src-shared/brains';
import { conversations } from '../../../db/schema';
import type { AppDatabase } from './open';
import { committedRow } from './statements';
import { boundedTitle } from '../../../src-shared/title-limit';

export const DEFAULT_TITLE = 'New conversation';

type ConversationRow = typeof conversations.$inferSelect;

export function toConversationView(row: ConversationRow): ConversationView {
  return {
    id: row.id,
    title: row.title,
    brain: isBrainId(row.brain) ? row.brain : null,
    model: row.model,
    reasoningLevel: (REASONING_LEVELS as readonly string[]).includes(row.reasoningLevel ?? '')
      ? (row.reasoningLevel as ReasoningLevel)
      : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    archived: row.archived,
  };
}

export interface NewConversation {
  readonly id: string;
  readonly title: string;
  readonly brain: BrainId | null;
  readonly model: string | null;
  readonly now: string;
  /** When it was last active, if not `now` (an imported conversation keeps its own times). */
  readonly updatedAt?: string;
}

export function insertConversation(db: AppDatabase, conversation: NewConversation): ConversationView {
  const row = committedRow(db, () =>
    db
      .insert(conversations)
      .values({
        id: conversation.id,
        title: boundedTitle(conversation.title),
        brain: conversation.brain,
        model: conversation.model,
        createdAt: conversation.now,
        updatedAt: conversation.updatedAt ?? conversation.now,
      })
      .returning()
      .get(),
  );
  return toConversationView(row);
}

export function getConversation(db: AppDatabase, id: string): ConversationView | null {
  const row = db.select().from(conversations).where(eq(conversations.id, id)).get();
  return row ? toConversationView(row) : null;
}

/** A LIKE pattern (with `ESCAPE '\\'`) matching any text that contains `text`, its % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** The last conversation a page of the list ended with: the next page starts after it. */
export interface ConversationCursor {
  readonly updatedAt: string;
  readonly id: string;
}

export interface ConversationListPage {
  /** After this conversation, in list order (it is not repeated). */
  readonly before?: ConversationCursor;
  /** At most this many; every one when absent. */
  readonly limit?: number;
}

/**
 * Newest first (by `updatedAt`, then id); `query` filters by title, case-insensitively, with % and _ matched literally.
 * `page` reads one page of that order: the `conversations_updated_at` index walks it, so a page costs the same at any
 * depth and list length.
 */
export function listConversations(db: AppDatabase, query?: string, page: ConversationListPage = {}): ConversationView[] {
  const trimmed = query?.trim();
  const pattern = trimmed ? containsPattern(trimmed) : null;
  const { before, limit } = page;
  const conditions = [
    pattern === null ? undefined : sql`${conversations.title} LIKE ${pattern} ESCAPE '\\'`,
    before === undefined
      ? undefined
      : // The first term bounds the walk of the index; the second steps past `before` among equal times.
        and(
          lte(conversations.updatedAt, before.updatedAt),
          or(lt(conversations.updatedAt, before.updatedAt), lt(conversations.id, before.id)),
        ),
  ];
  const ordered = db
    .select()
    .from(conversations)
    .where(and(...conditions))
    .orderBy(desc(conversations.updatedAt), desc(conversations.id));
  return (limit === undefined ? ordered.all() : ordered.limit(limit).all()).map(toConversationView);
}

export function updateConversation(
  db: AppDatabase,
  id: string,
  changes: Partial<Pick<ConversationRow, 'title' | 'brain' | 'model' | 'reasoningLevel' | 'updatedAt'>>,
): ConversationView | null {
  const bounded = changes.title === undefined ? changes : { ...changes, title: boundedTitle(changes.title) };
  const row = committedRow(db, () => db.update(conversations).set(bounded).where(eq(conversations.id, id)).returning().get());
  return row ? toConversationView(row) : null;
}

export function deleteConversation(db: AppDatabase, id: string): boolean {
  return db.delete(conversations).where(eq(conversations.id, id)).run().changes === 1;
}
