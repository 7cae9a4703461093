/**
 * One name for a tool. A tool is the pair (server, tool): the MCP server id, or null for a built-in, and the tool's
 * bare name. Every other spelling is derived here and only here:
 * - the wire name a brain calls: `server__tool`, or the bare name for a built-in;
 * - the policy key settings store: `server/tool`, or the bare name for a built-in;
 * - the label people read (chips, approvals, settings): `server · tool`, or the bare name for a built-in.
 *
 * Two tools with the same bare name are different tools when their servers differ: server-filesystem's `read_file`
 * (`files__read_file`) is not the built-in `read_file`, so names are compared as keys, never as bare names.
 *
 * A server id never contains `_` (tools/mcp/tool-names.ts keeps the tool part free of `__` too), so the separator
 * splits a wire name without ambiguity. Older names with more namespace segments (`mcp__server__tool`) read as their
 * last two segments.
 */

export interface ToolKey {
  /** The MCP server id, or null for a built-in tool. */
  readonly server: string | null;
  /** The bare tool name (for an MCP tool, the part of its wire name after the server). */
  readonly tool: string;
}

export const NAMESPACE_SEPARATOR = '__';

/** The name a brain sees and calls. */
export function wireNameOf(key: ToolKey): string {
  return key.server ? `${key.server}${NAMESPACE_SEPARATOR}${key.tool}` : key.tool;
}

/** The key a wire name stands for: `files__read_file` is (files, read_file); `read_file` is the built-in. */
export function toolKeyOfWireName(wireName: string): ToolKey {
  const parts = wireName.split(NAMESPACE_SEPARATOR);
  if (parts.length < 2) return { server: null, tool: wireName };
  return { server: parts[parts.length - 2]!, tool: parts[parts.length - 1]! };
}

/** The bare tool name a wire name stands for: `files__read_file` and `mcp__files__read_file` both give `read_file`. */
export function bareToolName(wireName: string): string {
  return toolKeyOfWireName(wireName).tool;
}

/** The same tool: same server (a built-in only matches a built-in) and same bare name. */
export function sameToolKey(left: ToolKey, right: ToolKey): boolean {
  return (left.server || null) === (right.server || null) && left.tool === right.tool;
}

/** The key a tool's approval policy is stored under (settings `toolPolicies`): `server/tool`, or the bare name. */
export function policyKeyOf(key: ToolKey): string {
  return key.server ? `${key.server}/${key.tool}` : key.tool;
}

/** What people read for a tool: `server · tool`, or the bare name when there is no server. */
export function toolLabel(key: ToolKey): string {
  const bare = key.tool.trim() || 'unnamed tool';
  return key.server && key.server.trim() ? `${key.server.trim()} · ${bare}` : bare;
}
