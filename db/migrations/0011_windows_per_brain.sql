CREATE TABLE `request_usage` (
	`id` text PRIMARY KEY NOT NULL,
	`conversation_id` text NOT NULL,
	`turn_id` text NOT NULL,
	`purpose` text NOT NULL,
	`round` integer NOT NULL,
	`brain` text NOT NULL,
	`model` text NOT NULL,
	`input_tokens` integer NOT NULL,
	`cache_read_tokens` integer NOT NULL,
	`cache_write_tokens` integer NOT NULL,
	`output_tokens` integer NOT NULL,
	`reasoning_tokens` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `request_usage_turn` ON `request_usage` (`turn_id`);--> statement-breakpoint
CREATE INDEX `request_usage_conversation` ON `request_usage` (`conversation_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `summary_windows` (
	`summary_id` text PRIMARY KEY NOT NULL,
	`brain` text NOT NULL,
	`model` text NOT NULL,
	`context_window` integer NOT NULL,
	`input_budget` integer NOT NULL,
	`requested` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`summary_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `brain_state` ADD `trim_from_seq` integer;--> statement-breakpoint
ALTER TABLE `brain_state` ADD `trim_window` integer;--> statement-breakpoint
CREATE INDEX `messages_summaries` ON `messages` (`conversation_id`,`seq`) WHERE kind = 'summary';