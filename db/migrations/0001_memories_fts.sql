-- Custom migration: drizzle cannot declare FTS5 virtual tables. Memories are searched with FTS5 and ranked by bm25.
CREATE VIRTUAL TABLE `memories_fts` USING fts5(`text`, content='memories', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `memories_fts_insert` AFTER INSERT ON `memories` BEGIN
  INSERT INTO `memories_fts`(rowid, `text`) VALUES (new.rowid, new.`text`);
END;
--> statement-breakpoint
CREATE TRIGGER `memories_fts_delete` AFTER DELETE ON `memories` BEGIN
  INSERT INTO `memories_fts`(`memories_fts`, rowid, `text`) VALUES ('delete', old.rowid, old.`text`);
END;
--> statement-breakpoint
CREATE TRIGGER `memories_fts_update` AFTER UPDATE OF `text` ON `memories` BEGIN
  INSERT INTO `memories_fts`(`memories_fts`, rowid, `text`) VALUES ('delete', old.rowid, old.`text`);
  INSERT INTO `memories_fts`(rowid, `text`) VALUES (new.rowid, new.`text`);
END;
--> statement-breakpoint
-- Memories saved before this migration are indexed too: the triggers only see rows written after it.
INSERT INTO `memories_fts`(`memories_fts`) VALUES ('rebuild');
