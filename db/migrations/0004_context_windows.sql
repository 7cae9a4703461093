ALTER TABLE `brain_state` ADD `refused_tokens` integer;--> statement-breakpoint
ALTER TABLE `brain_state` ADD `refused_model` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `covers_through_id` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `replayed_tokens_through` integer;--> statement-breakpoint
ALTER TABLE `messages` ADD `replayed_rows_through` integer;--> statement-breakpoint
CREATE INDEX `messages_live_path` ON `messages` (`conversation_id`,`seq`,`token_estimate`,`compacted_into`,`kind`,`status`,`replayed_tokens_through`,`replayed_rows_through`);--> statement-breakpoint
CREATE INDEX `messages_compacted_into` ON `messages` (`compacted_into`) WHERE compacted_into IS NOT NULL;--> statement-breakpoint
-- Each row's estimate now counts what it replays beyond its words: a few tokens of framing, and on a reply the calls
-- it replays (its last 12 brain calls, 40 tokens of framing each, inputs and answers cut to 500 characters) and the context the app brought to
-- its turn (recalled memories, a skill the user started). Counted here at four characters a token.
UPDATE `messages` SET `token_estimate` = `token_estimate` + 4 + coalesce((
  SELECT sum(40 + (min(length(coalesce(`input`, '{}')), 500) + 3) / 4 + (min(length(coalesce(`output`, '')), 500) + 3) / 4)
  FROM (
    SELECT `input`, `output` FROM `tool_invocations`
    WHERE `tool_invocations`.`message_id` = `messages`.`id`
      AND (`kind` = 'tool' OR (`kind` = 'skill' AND `provider_call_id` IS NOT NULL))
    ORDER BY `seq` DESC LIMIT 12
  )
), 0) + coalesce((
  SELECT sum((length(coalesce(`output`, '')) + 3) / 4) FROM `tool_invocations`
  WHERE `tool_invocations`.`message_id` = `messages`.`id`
    AND (`kind` = 'memory' OR (`kind` = 'skill' AND `provider_call_id` IS NULL))
), 0);
--> statement-breakpoint
-- Running totals over each conversation's non-summary rows, in order (a failed reply adds nothing): what lies between
-- two rows is the difference of their totals, read without touching the rows between.
UPDATE `messages` SET `replayed_tokens_through` = `totals`.`tokens`, `replayed_rows_through` = `totals`.`rows`
FROM (
  SELECT `id`,
    sum(CASE WHEN `status` = 'failed' THEN 0 ELSE `token_estimate` END) OVER (PARTITION BY `conversation_id` ORDER BY `seq`) AS `tokens`,
    sum(CASE WHEN `status` = 'failed' THEN 0 ELSE 1 END) OVER (PARTITION BY `conversation_id` ORDER BY `seq`) AS `rows`
  FROM `messages` WHERE `kind` != 'summary'
) AS `totals`
WHERE `messages`.`id` = `totals`.`id`;
