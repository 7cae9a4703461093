-- Custom migration: drizzle cannot declare FTS5 virtual tables. Every conversation's words are searched with FTS5 and
-- ranked by bm25. The index reads each text from `messages` (external content) rather than keeping a copy of it.
-- Whether a row is in the index is a rule the triggers and the backfill share: it is, exactly when it is not streaming
-- and not waiting for the backfill. An external-content index must be told the exact text it indexed to remove a row,
-- so the triggers remove only rows the rule says are there.
CREATE VIRTUAL TABLE `messages_fts` USING fts5(`text`, content='messages', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
-- unicode61 makes one token of a whole run of Chinese, Japanese or Korean characters ("서울에서" is one token, and a
-- Chinese sentence without spaces is one token), so a word inside such a run is never found. The messages that hold
-- any of those scripts are also indexed by trigrams, which find any substring of three or more characters (shorter
-- terms are matched with LIKE over this table alone, so it keeps its own copy of just those texts).
CREATE VIRTUAL TABLE `messages_cjk_fts` USING fts5(`text`, tokenize='trigram remove_diacritics 1');
--> statement-breakpoint
-- Rows written before this migration, waiting to be indexed: the worker (store/search-backfill.ts) indexes rowids
-- after `done_through_rowid` up to `through_rowid` in batches, and deletes this row when it is done. The migration
-- itself stays fast at any size. A row in that range is left to the worker whatever happens to it meanwhile.
CREATE TABLE `search_backfill` (
  `id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
  `done_through_rowid` integer NOT NULL,
  `through_rowid` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `search_backfill` (`id`, `done_through_rowid`, `through_rowid`)
  SELECT 1, 0, max(rowid) FROM `messages` HAVING count(*) > 0;
--> statement-breakpoint
-- A message is indexed when it is written finished (an import, a user message) or when it stops streaming; a streamed
-- checkpoint touches no index, since an FTS write costs about ten times a plain one (DESIGN.md, "Performance shape").
-- The GLOB ranges: Hangul Jamo, CJK punctuation through Katakana and compatibility Jamo, CJK Extension A, CJK Unified
-- Ideographs, Hangul syllables, CJK compatibility ideographs, halfwidth Katakana.
CREATE TRIGGER `messages_fts_insert` AFTER INSERT ON `messages`
  WHEN new.`status` != 'streaming'
    AND NOT EXISTS (SELECT 1 FROM `search_backfill` WHERE new.rowid > `done_through_rowid` AND new.rowid <= `through_rowid`) BEGIN
  INSERT INTO `messages_fts`(rowid, `text`) VALUES (new.rowid, new.`text`);
  INSERT INTO `messages_cjk_fts`(rowid, `text`) SELECT new.rowid, new.`text`
    WHERE new.`text` GLOB '*[ᄀ-ᇿ　-㆏㐀-䶿一-鿿가-힣豈-﫿ｦ-ﾟ]*';
END;
--> statement-breakpoint
-- Reindexed when a reply finishes, when a finished text changes (a repair, an edit), and taken out when a row goes
-- back to streaming. Checkpoints of a streaming reply (streaming before and after) do not fire it.
CREATE TRIGGER `messages_fts_update` AFTER UPDATE OF `status`, `text` ON `messages`
  WHEN (old.`status` != 'streaming' OR new.`status` != 'streaming')
    AND (old.`status` IS NOT new.`status` OR old.`text` IS NOT new.`text`)
    AND NOT EXISTS (SELECT 1 FROM `search_backfill` WHERE old.rowid > `done_through_rowid` AND old.rowid <= `through_rowid`) BEGIN
  INSERT INTO `messages_fts`(`messages_fts`, rowid, `text`) SELECT 'delete', old.rowid, old.`text` WHERE old.`status` != 'streaming';
  DELETE FROM `messages_cjk_fts` WHERE rowid = old.rowid;
  INSERT INTO `messages_fts`(rowid, `text`) SELECT new.rowid, new.`text` WHERE new.`status` != 'streaming';
  INSERT INTO `messages_cjk_fts`(rowid, `text`) SELECT new.rowid, new.`text`
    WHERE new.`status` != 'streaming' AND new.`text` GLOB '*[ᄀ-ᇿ　-㆏㐀-䶿一-鿿가-힣豈-﫿ｦ-ﾟ]*';
END;
--> statement-breakpoint
-- Also fires for the rows a conversation's deletion removes (foreign key cascade).
CREATE TRIGGER `messages_fts_delete` AFTER DELETE ON `messages`
  WHEN old.`status` != 'streaming'
    AND NOT EXISTS (SELECT 1 FROM `search_backfill` WHERE old.rowid > `done_through_rowid` AND old.rowid <= `through_rowid`) BEGIN
  INSERT INTO `messages_fts`(`messages_fts`, rowid, `text`) VALUES ('delete', old.rowid, old.`text`);
  DELETE FROM `messages_cjk_fts` WHERE rowid = old.rowid;
END;
