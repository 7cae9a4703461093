CREATE TABLE `brain_state` (
	`conversation_id` text NOT NULL,
	`brain` text NOT NULL,
	`usage` text,
	`full` integer DEFAULT false NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`conversation_id`, `brain`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`brain` text,
	`model` text,
	`reasoning_level` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`archived` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `conversations_updated_at` ON `conversations` (`updated_at`);--> statement-breakpoint
CREATE TABLE `counters` (
	`name` text PRIMARY KEY NOT NULL,
	`value` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `memories` (
	`id` text PRIMARY KEY NOT NULL,
	`text` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`conversation_id` text NOT NULL,
	`seq` integer NOT NULL,
	`turn_id` text NOT NULL,
	`role` text NOT NULL,
	`kind` text DEFAULT 'chat' NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	`token_estimate` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'complete' NOT NULL,
	`error` text,
	`brain` text,
	`model_requested` text,
	`model_responded` text,
	`reasoning_level` text,
	`reasoning` text,
	`usage` text,
	`compacted_into` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_conversation_seq` ON `messages` (`conversation_id`,`seq`);--> statement-breakpoint
CREATE INDEX `messages_turn` ON `messages` (`turn_id`);--> statement-breakpoint
CREATE INDEX `messages_status` ON `messages` (`status`) WHERE status = 'streaming';--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tool_invocations` (
	`id` text PRIMARY KEY NOT NULL,
	`turn_id` text NOT NULL,
	`message_id` text NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`server` text,
	`tool` text NOT NULL,
	`provider_call_id` text,
	`input` text,
	`output` text,
	`status` text NOT NULL,
	`opaque` text,
	`started_at` text NOT NULL,
	`ended_at` text,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tool_invocations_message` ON `tool_invocations` (`message_id`,`seq`);--> statement-breakpoint
CREATE INDEX `tool_invocations_turn` ON `tool_invocations` (`turn_id`);