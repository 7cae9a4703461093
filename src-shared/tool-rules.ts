/**
 * The rules about tools and MCP servers that both processes check: the Api's payload schemas, the main process's
 * config validation and the renderer's forms read them from here, so they cannot drift apart.
 */

/** Every tool is allowed, asked about first, or denied. */
export const TOOL_POLICY_VALUES = ['allow', 'ask', 'deny'] as const;
export type ToolPolicyValue = (typeof TOOL_POLICY_VALUES)[number];

/** Where an MCP server is; `disabled` only for a server the user has not turned on. */
export const MCP_SERVER_STATUSES = ['stopped', 'starting', 'running', 'failed', 'disabled'] as const;
export type McpServerStatus = (typeof MCP_SERVER_STATUSES)[number];

export const MCP_SERVER_ORIGINS = ['user', 'import'] as const;
/** `user`: added by the user's own click in the app. `import`: any other path (a config file, a transcript, …). */
export type McpServerOrigin = (typeof MCP_SERVER_ORIGINS)[number];

/**
 * An MCP server id: a slug of lowercase letters, digits and `-`, at most 31 characters. It never contains `_`, so the
 * first `__` of a wire name ends it (tool-key.ts), and it leaves room for the tool in a 64-character wire name.
 */
export const MCP_SERVER_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,30}$/;

/** An environment variable name as POSIX shells accept it: letters, digits and `_`, not starting with a digit. */
export const ENVIRONMENT_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The longest MCP server label: the settings form's field holds this many characters. */
export const MCP_LABEL_MAX_LENGTH = 100;
