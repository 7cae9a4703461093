-- Custom migration: drizzle cannot declare FTS5 virtual tables. Every conversation's words are searched with FTS5 and
-- ranked by bm25. The index keeps its own copy of each text (not `content='messages'`): a message is indexed only once
-- it stops streaming, and rows written before this migration are indexed later by a worker, so whether a row is in the
-- index varies; an external-content index would need the exact old text of every row it deletes, a copy needs only the
-- rowid.
CREATE VIRTUAL TABLE `messages_fts` USING fts5(`text`, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
-- unicode61 makes one token of a whole run of Chinese, Japanese or Korean characters ("서울에서" is one token, and a
-- Chinese sentence without spaces is one token), so a word inside such a run is never found. The messages that hold
-- any of those scripts are also indexed by trigrams, which find any substring of three or more characters (shorter
-- terms are matched with LIKE over this smaller table).
CREATE VIRTUAL TABLE `messages_cjk_fts` USING fts5(`text`, tokenize='trigram remove_diacritics 1');
--> statement-breakpoint
-- Rows written before this migration still to be indexed: the worker (store/search-backfill.ts) indexes rowids up to
-- `through_rowid` in batches, and deletes this row when it is done. The migration itself stays fast at any size.
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
CREATE TRIGGER `messages_fts_insert` AFTER INSERT ON `messages` WHEN new.`status` != 'streaming' BEGIN
  INSERT INTO `messages_fts`(rowid, `text`) VALUES (new.rowid, new.`text`);
  INSERT INTO `messages_cjk_fts`(rowid, `text`) SELECT new.rowid, new.`text`
    WHERE new.`text` GLOB '*[ᄀ-ᇿ　-㆏㐀-䶿一-鿿가-힣豈-﫿ｦ-ﾟ]*';
END;
--> statement-breakpoint
-- Reindexed when a reply finishes, and when a finished text changes (a repair, an edit); a row not indexed yet (the
-- backfill has not reached it) is simply added.
CREATE TRIGGER `messages_fts_update` AFTER UPDATE OF `status`, `text` ON `messages`
  WHEN new.`status` != 'streaming' AND (old.`status` = 'streaming' OR old.`text` IS NOT new.`text`) BEGIN
  DELETE FROM `messages_fts` WHERE rowid = old.rowid;
  DELETE FROM `messages_cjk_fts` WHERE rowid = old.rowid;
  INSERT INTO `messages_fts`(rowid, `text`) VALUES (new.rowid, new.`text`);
  INSERT INTO `messages_cjk_fts`(rowid, `text`) SELECT new.rowid, new.`text`
    WHERE new.`text` GLOB '*[ᄀ-ᇿ　-㆏㐀-䶿一-鿿가-힣豈-﫿ｦ-ﾟ]*';
END;
--> statement-breakpoint
-- A row that goes back to streaming (its text is being rewritten) leaves the index until it finishes again.
CREATE TRIGGER `messages_fts_unfinish` AFTER UPDATE OF `status` ON `messages`
  WHEN new.`status` = 'streaming' AND old.`status` != 'streaming' BEGIN
  DELETE FROM `messages_fts` WHERE rowid = old.rowid;
  DELETE FROM `messages_cjk_fts` WHERE rowid = old.rowid;
END;
--> statement-breakpoint
-- Also fires for the rows a conversation's deletion removes (foreign key cascade).
CREATE TRIGGER `messages_fts_delete` AFTER DELETE ON `messages` BEGIN
  DELETE FROM `messages_fts` WHERE rowid = old.rowid;
  DELETE FROM `messages_cjk_fts` WHERE rowid = old.rowid;
END;
