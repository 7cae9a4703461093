/**
 * Branches: every message names the one it follows (`parent_id`), so a conversation is a tree, and the conversation's
 * `current_leaf_id` picks the branch shown and replayed, the live path from that leaf up to the first message.
 * `on_live_path` marks that path's rows; this module alone moves the leaf, and it keeps the marks in the same
 * transaction, at a cost of the rows between the old and the new leaf and their common ancestor, never the whole tree.
 */
import { ApiError, type SiblingsView } from '../../../src-shared/api';
import { inTransaction, type AppDatabase } from './open';
import { statementCacheFor } from './statements';

// A leaf that no longer exists (a row deleted by hand) falls back to the newest row still marked on the path.
const selectLeaf = statementCacheFor(
  `SELECT coalesce(
     (SELECT m.id FROM conversations c JOIN messages m ON m.id = c.current_leaf_id WHERE c.id = @conversationId),
     (SELECT id FROM messages WHERE conversation_id = @conversationId AND on_live_path = 1 AND kind != 'summary' ORDER BY seq DESC LIMIT 1)
   ) AS leafId`,
);
const updateLeaf = statementCacheFor(`UPDATE conversations SET current_leaf_id = ? WHERE id = ?`);
// From the new leaf up to the first row already on the live path (the fork), that row included.
const walkUpToLivePath = statementCacheFor(
  `WITH RECURSIVE up(id, parent_id, on_live_path, seq) AS (
     SELECT id, parent_id, on_live_path, seq FROM messages WHERE id = ? AND conversation_id = ?
     UNION ALL
     SELECT m.id, m.parent_id, m.on_live_path, m.seq FROM messages m JOIN up ON m.id = up.parent_id WHERE up.on_live_path = 0
   )
   SELECT id, on_live_path AS onLivePath, seq FROM up`,
);
// The old path below the fork: a row's seq grows down every path, so they are the marked rows after the fork's seq.
const unmarkBelow = statementCacheFor(
  `UPDATE messages SET on_live_path = 0 WHERE conversation_id = ? AND on_live_path = 1 AND seq > ? AND kind != 'summary'`,
);
const markRow = statementCacheFor(`UPDATE messages SET on_live_path = 1 WHERE id = ?`);

/** The conversation's current leaf: the newest message of the branch shown, or null before the first message. */
export function currentLeafId(db: AppDatabase, conversationId: string): string | null {
  return (selectLeaf(db).get({ conversationId }) as { leafId: string | null } | undefined)?.leafId ?? null;
}

/**
 * Makes `leafId` the conversation's current leaf (null: no message shown) and marks the new live path: the rows from
 * the leaf up to where it meets the old path are marked, the old path's rows below that point unmarked.
 */
export function moveLeaf(db: AppDatabase, conversationId: string, leafId: string | null): void {
  inTransaction(db, () => {
    if (leafId === null) {
      unmarkBelow(db).run(conversationId, -1);
    } else {
      const walked = walkUpToLivePath(db).all(leafId, conversationId) as { id: string; onLivePath: number; seq: number }[];
      if (walked.length === 0) throw new Error(`Message ${leafId} is not in conversation ${conversationId}.`);
      const fork = walked[walked.length - 1]!;
      unmarkBelow(db).run(conversationId, fork.onLivePath === 1 ? fork.seq : -1);
      for (const row of walked) if (row.onLivePath === 0) markRow(db).run(row.id);
    }
    updateLeaf(db).run(leafId, conversationId);
  });
}

/** Records the newest message as the leaf when it follows the leaf: the common case, without walking anything. */
export function extendLeaf(db: AppDatabase, conversationId: string, leafId: string): void {
  updateLeaf(db).run(leafId, conversationId);
}

const selectNewestDescendant = statementCacheFor(
  `WITH RECURSIVE below(id, seq) AS (
     SELECT id, seq FROM messages WHERE id = ? AND conversation_id = ?
     UNION ALL
     SELECT m.id, m.seq FROM messages m JOIN below ON m.parent_id = below.id WHERE m.conversation_id = ?
   )
   SELECT id FROM below ORDER BY seq DESC LIMIT 1`,
);

/** The newest message at or below `messageId`: the leaf of the branch a person last wrote on through it. */
export function newestDescendant(db: AppDatabase, conversationId: string, messageId: string): string | null {
  const row = selectNewestDescendant(db).get(messageId, conversationId, conversationId) as { id: string } | undefined;
  return row?.id ?? null;
}

const selectBranchRow = statementCacheFor(
  `SELECT m.id, m.conversation_id AS conversationId, m.parent_id AS parentId, m.kind, m.role, m.brain,
     m.model_requested AS modelRequested, m.reasoning_level AS reasoningLevel, m.compacted_into AS compactedInto,
     parent.compacted_into AS parentCompactedInto,
     (SELECT covers_through_id FROM messages WHERE id = parent.compacted_into) AS parentSummaryThrough
   FROM messages m LEFT JOIN messages parent ON parent.id = m.parent_id WHERE m.id = ?`,
);

export interface BranchRow {
  readonly id: string;
  readonly conversationId: string;
  readonly parentId: string | null;
  readonly kind: string;
  readonly role: 'user' | 'assistant' | 'system';
  readonly brain: string | null;
  readonly modelRequested: string | null;
  readonly reasoningLevel: string | null;
  readonly compactedInto: string | null;
  readonly parentCompactedInto: string | null;
  readonly parentSummaryThrough: string | null;
}

/**
 * The message a branch may start beside, or an ApiError saying why not. A summary stands for the rows of one path up
 * to the message it covers through, so a branch may leave that path only below it: a message a summary covers, or one
 * whose parent a summary covers somewhere before its last row, cannot have alternatives.
 */
export function branchPoint(db: AppDatabase, messageId: string): BranchRow {
  const row = selectBranchRow(db).get(messageId) as BranchRow | undefined;
  if (row === undefined) throw new ApiError('not-found', 'That message no longer exists.');
  if (row.kind === 'summary') throw new ApiError('invalid-input', 'A summary has no alternatives: edit or answer a message instead.');
  const coveredParent = row.parentCompactedInto !== null && row.parentSummaryThrough !== row.parentId;
  if (row.compactedInto !== null || coveredParent) {
    throw new ApiError(
      'summarised',
      'That message is part of a summary, so the conversation cannot branch there. Branch from a message below the summary.',
    );
  }
  return row;
}

/** Shows the branch through `messageId`: its newest descendant becomes the leaf. Returns the new leaf. */
export function chooseBranch(db: AppDatabase, messageId: string): { conversationId: string; leafId: string } {
  return inTransaction(db, () => {
    const row = branchPoint(db, messageId);
    const leafId = newestDescendant(db, row.conversationId, messageId) ?? messageId;
    moveLeaf(db, row.conversationId, leafId);
    return { conversationId: row.conversationId, leafId };
  });
}

const selectChildren = statementCacheFor(
  `SELECT id FROM messages WHERE conversation_id = ? AND parent_id = ? AND kind != 'summary' ORDER BY seq`,
);
const selectRoots = statementCacheFor(
  `SELECT id FROM messages WHERE conversation_id = ? AND parent_id IS NULL AND kind != 'summary' ORDER BY seq`,
);

/** The ids of the messages that follow `parentId` (null: the first messages), oldest first. */
export function childrenOf(db: AppDatabase, conversationId: string, parentId: string | null): string[] {
  const rows = (parentId === null ? selectRoots(db).all(conversationId) : selectChildren(db).all(conversationId, parentId)) as { id: string }[];
  return rows.map((row) => row.id);
}

/** Each message's place among its alternatives, for the rows given; a message without alternatives is left out. */
export function siblingsOf(
  db: AppDatabase,
  rows: readonly { readonly id: string; readonly conversationId: string; readonly parentId: string | null; readonly kind: string }[],
): Map<string, SiblingsView> {
  const byParent = new Map<string, string[]>();
  const places = new Map<string, SiblingsView>();
  for (const row of rows) {
    if (row.kind === 'summary') continue;
    const key = `${row.conversationId}\u0000${row.parentId ?? ''}`;
    let children = byParent.get(key);
    if (children === undefined) {
      children = childrenOf(db, row.conversationId, row.parentId);
      byParent.set(key, children);
    }
    const index = children.indexOf(row.id);
    if (children.length < 2 || index < 0) continue;
    places.set(row.id, {
      index: index + 1,
      count: children.length,
      previousId: children[index - 1] ?? null,
      nextId: children[index + 1] ?? null,
    });
  }
  return places;
}
