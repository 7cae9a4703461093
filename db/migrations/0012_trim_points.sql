ALTER TABLE `brain_state` ADD `trim_from_seq` integer;--> statement-breakpoint
ALTER TABLE `brain_state` ADD `trim_window` integer;