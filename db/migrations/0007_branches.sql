DROP INDEX `messages_live_path`;--> statement-breakpoint
ALTER TABLE `messages` ADD `parent_id` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `on_live_path` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX `messages_children` ON `messages` (`conversation_id`,`parent_id`,`seq`);--> statement-breakpoint
CREATE INDEX `messages_live_path` ON `messages` (`conversation_id`,`on_live_path`,`seq`,`token_estimate`,`compacted_into`,`kind`,`status`,`replayed_tokens_through`,`replayed_rows_through`);--> statement-breakpoint
ALTER TABLE `conversations` ADD `current_leaf_id` text;--> statement-breakpoint
-- Every conversation so far is one straight path: each message follows the one before it, and the newest is the leaf.
-- A summary follows nothing and is on no path (it stands for covered rows: see store/live-path.ts).
UPDATE `messages` SET `parent_id` = (
  SELECT `before`.`id` FROM `messages` AS `before`
  WHERE `before`.`conversation_id` = `messages`.`conversation_id` AND `before`.`kind` != 'summary' AND `before`.`seq` < `messages`.`seq`
  ORDER BY `before`.`seq` DESC LIMIT 1
) WHERE `kind` != 'summary';
--> statement-breakpoint
UPDATE `messages` SET `on_live_path` = 0 WHERE `kind` = 'summary';
--> statement-breakpoint
UPDATE `conversations` SET `current_leaf_id` = (
  SELECT `id` FROM `messages` WHERE `messages`.`conversation_id` = `conversations`.`id` AND `kind` != 'summary' ORDER BY `seq` DESC LIMIT 1
);
