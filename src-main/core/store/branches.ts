/**
 * Branches: every message names the one it follows (`parent_id`), so a conversation is a tree, and the conversation's
 * `current_leaf_id` picks the branch shown and replayed, the live path from that leaf up to the first message.
 * `on_live_path` marks that path's rows; this module alone moves the leaf, and it keeps the marks in the same
 * transaction, at a cost of the rows between the old and the new leaf and their common ancestor, never the whole tree.
 */
import { ApiError, type SiblingsView } from '../../../src-shared/api';
import { nowIso } from './clock';
import { inTransaction, type AppDatabase } from './open';
import { clearFullFlags } from './settings';
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
// The rows of the old path below the fork that a replay holds: a failed or unfinished reply never replays.
const countReplayedBelow = statementCacheFor(
  `SELECT count(*) AS count FROM messages WHERE conversation_id = ? AND on_live_path = 1 AND seq > ? AND kind != 'summary'
   AND status NOT IN ('failed', 'streaming')`,
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
    let walked: { id: string; onLivePath: number; seq: number }[] = [];
    let forkSeq = -1;
    if (leafId !== null) {
      walked = walkUpToLivePath(db).all(leafId, conversationId) as { id: string; onLivePath: number; seq: number }[];
      if (walked.length === 0) throw new Error(`Message ${leafId} is not in conversation ${conversationId}.`);
      const fork = walked[walked.length - 1]!;
      if (fork.onLivePath === 1) forkSeq = fork.seq;
    }
    // A size refusal was for the path left behind: when that path replayed rows the new one does not, the next turn
    // measures the new path instead of compacting it first. The refused size stays the window's bound
    // (context/pressure.ts) for every branch, so no request grows past it.
    const leftBehind = (countReplayedBelow(db).get(conversationId, forkSeq) as { count: number }).count;
    if (leftBehind > 0) clearFullFlags(db, conversationId, nowIso());
    unmarkBelow(db).run(conversationId, forkSeq);
    for (const row of walked) if (row.onLivePath === 0) markRow(db).run(row.id);
    updateLeaf(db).run(leafId, conversationId);
  });
}

/** Records the newest message as the leaf when it follows the leaf: the common case, without walking anything. */
export function extendLeaf(db: AppDatabase, conversationId: string, leafId: string): void {
  updateLeaf(db).run(leafId, conversationId);
}

// CROSS JOIN keeps the walked row outside: with `messages` outside, SQLite's planner looks each step's children up by
// the conversation alone and scans every row of it per row walked (9 s for 10,000 messages, bench/branches).
export const NEWEST_DESCENDANT_SQL = `WITH RECURSIVE below(id, seq) AS (
     SELECT id, seq FROM messages WHERE id = ? AND conversation_id = ?
     UNION ALL
     SELECT m.id, m.seq FROM below CROSS JOIN messages m ON m.conversation_id = ? AND m.parent_id = below.id
   )
   SELECT id FROM below ORDER BY seq DESC LIMIT 1`;
const selectNewestDescendant = statementCacheFor(NEWEST_DESCENDANT_SQL);

/** The newest message at or below `messageId`: the leaf of the branch a person last wrote on through it. */
export function newestDescendant(db: AppDatabase, conversationId: string, messageId: string): string | null {
  const row = selectNewestDescendant(db).get(messageId, conversationId, conversationId) as { id: string } | undefined;
  return row?.id ?? null;
}

const selectBranchRow = statementCacheFor(
  `SELECT m.id, m.conversation_id AS conversationId, m.parent_id AS parentId, m.kind, m.role, m.brain,
     m.model_requested AS modelRequested, m.reasoning_level AS reasoningLevel, m.compacted_into AS compactedInto
   FROM messages m WHERE m.id = ?`,
);
// From a message's parent up a branch the live path does not show, to the first row a summary covers or the live
// path shows: the live path's own covered rows end where its summary covers through, so the walk can stop there.
const selectNearestCoveredOrLive = statementCacheFor(
  `WITH RECURSIVE up(id, parent_id, compacted_into, on_live_path) AS (
     SELECT id, parent_id, compacted_into, on_live_path FROM messages WHERE id = ?
     UNION ALL
     SELECT m.id, m.parent_id, m.compacted_into, m.on_live_path FROM messages m JOIN up ON m.id = up.parent_id
     WHERE up.compacted_into IS NULL AND up.on_live_path = 0
   )
   SELECT id, compacted_into AS compactedInto FROM up WHERE compacted_into IS NOT NULL OR on_live_path = 1 LIMIT 1`,
);
// The summary no later summary covers, through the chain of summaries that fold earlier ones.
const selectStandingSummaryThrough = statementCacheFor(
  `WITH RECURSIVE chain(id, compacted_into, covers_through_id, hops) AS (
     SELECT id, compacted_into, covers_through_id, 0 FROM messages WHERE id = ?
     UNION ALL
     SELECT m.id, m.compacted_into, m.covers_through_id, chain.hops + 1 FROM messages m JOIN chain ON m.id = chain.compacted_into
     WHERE chain.hops < 10000
   )
   SELECT covers_through_id AS coversThroughId FROM chain WHERE compacted_into IS NULL LIMIT 1`,
);

/**
 * Whether a branch may hang below `parentId`: the nearest summarised row above it (if any) must be the last row the
 * standing summary covers, else the summary, written for another branch, would stand for rows this branch never had.
 */
function summaryHoldsBelow(db: AppDatabase, parentId: string | null): boolean {
  if (parentId === null) return true;
  const nearest = selectNearestCoveredOrLive(db).get(parentId) as { id: string; compactedInto: string | null } | undefined;
  if (nearest === undefined || nearest.compactedInto === null) return true;
  const standing = selectStandingSummaryThrough(db).get(nearest.compactedInto) as { coversThroughId: string | null } | undefined;
  return standing?.coversThroughId === nearest.id;
}

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
}

/**
 * The message a branch may start beside, or an ApiError saying why not. A summary stands for the rows of one path up
 * to the message it covers through, so a branch may leave that path only below it: a message a summary covers, or one
 * on a branch that left the summarised path before the standing summary's last row, cannot have alternatives.
 */
export function branchPoint(db: AppDatabase, messageId: string): BranchRow {
  const row = selectBranchRow(db).get(messageId) as BranchRow | undefined;
  if (row === undefined) throw new ApiError('not-found', 'That message no longer exists.');
  if (row.kind === 'summary') throw new ApiError('invalid-input', 'A summary has no alternatives: edit or answer a message instead.');
  if (row.compactedInto !== null || !summaryHoldsBelow(db, row.parentId)) {
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

// The walk from the recorded leaf through `parent_id`, against the rows marked: how many rows are on one and not the
// other. One recursive query per conversation, over the primary key and the live-path index.
const countMarkDisagreements = statementCacheFor(
  `WITH RECURSIVE up(id) AS (
     SELECT current_leaf_id FROM conversations WHERE id = @conversationId AND current_leaf_id IS NOT NULL
     UNION
     SELECT m.parent_id FROM messages m JOIN up ON m.id = up.id WHERE m.parent_id IS NOT NULL AND m.conversation_id = @conversationId
   ),
   marked(id) AS (SELECT id FROM messages WHERE conversation_id = @conversationId AND on_live_path = 1)
   SELECT (SELECT count(*) FROM marked WHERE id NOT IN (SELECT id FROM up))
        + (SELECT count(*) FROM up WHERE id NOT IN (SELECT id FROM marked)) AS count`,
);
const selectConversationIds = statementCacheFor(`SELECT id FROM conversations ORDER BY id`);

/**
 * The conversations whose live-path marks disagree with the walk from their current leaf (rows changed by hand, or a
 * leaf naming a row that is gone): the window and the replay read the marks, so they would show another branch.
 */
export function conversationsWithStaleLivePath(db: AppDatabase): string[] {
  const ids = (selectConversationIds(db).all() as { id: string }[]).map((row) => row.id);
  return ids.filter((conversationId) => (countMarkDisagreements(db).get({ conversationId }) as { count: number }).count > 0);
}

const unmarkAll = statementCacheFor(`UPDATE messages SET on_live_path = 0 WHERE conversation_id = ? AND on_live_path = 1`);

/**
 * Marks a conversation's live path again from scratch: every mark cleared, then the walk from the current leaf (or, if
 * that row is gone, the newest row still marked) marked by `moveLeaf`, which otherwise trusts the marks it finds.
 */
export function remarkLivePath(db: AppDatabase, conversationId: string): void {
  inTransaction(db, () => {
    const leafId = currentLeafId(db, conversationId);
    unmarkAll(db).run(conversationId);
    moveLeaf(db, conversationId, leafId);
  });
}
