CREATE TABLE `repair_changes` (
	`repair_id` text NOT NULL,
	`kind` text NOT NULL,
	`message_id` text NOT NULL,
	`before_text` text NOT NULL,
	`after_text` text NOT NULL,
	`applied_at` text NOT NULL,
	PRIMARY KEY(`repair_id`, `message_id`),
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
