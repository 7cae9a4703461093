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