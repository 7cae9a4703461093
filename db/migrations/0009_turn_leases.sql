CREATE TABLE `turn_leases` (
	`conversation_id` text PRIMARY KEY NOT NULL,
	`turn_id` text NOT NULL,
	`owner` text NOT NULL,
	`token` text NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
