CREATE TABLE `provider_models` (
	`brain` text PRIMARY KEY NOT NULL,
	`base_url` text NOT NULL,
	`fetched_at` text NOT NULL,
	`models` text NOT NULL
);
