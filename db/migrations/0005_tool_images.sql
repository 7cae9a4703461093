-- The images a tool result held, in order, as JSON [{"mimeType", "data"}] with the bytes in base64; the text stays in `output`.
ALTER TABLE `tool_invocations` ADD `images` text;
