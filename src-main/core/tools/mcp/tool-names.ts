/**
 * Wire names for MCP tools. A brain sees `<serverId>__<toolName>`, within the names every wire accepts
 * (Anthropic and OpenAI: `^[a-zA-Z0-9_-]{1,64}$`).
 *
 * The mapping, and why `bareToolName` (src-shared/tool-key.ts: the text after the last `__`) gives back the tool's
 * own name:
 * - A server id is a slug of lowercase letters, digits and `-` (at most 31 characters), so it never contains `_`
 *   and the first `__` in a wire name ends it.
 * - The tool part is the tool's own name when that name uses only `[a-zA-Z0-9_-]`, contains no `__` and fits in
 *   `64 - id length - 2` characters (at least 31). Then `bareToolName(wireName)` is exactly the tool's name.
 * - Otherwise the tool part is a stand-in: other characters become `_`, runs of `_` shrink to one (so the part
 *   never contains `__`), and a part that is too long, or that two tools of the server would share, is cut and ends
 *   in `-` plus six hex digits of the SHA-256 of the tool's own name. `bareToolName` then gives that stand-in, and
 *   the manager maps it back to the tool's own name when the brain calls it.
 */
import { createHash } from 'node:crypto';
import { NAMESPACE_SEPARATOR, wireNameOf } from '../../../../src-shared/tool-key';
import { MCP_SERVER_ID_PATTERN } from '../../../../src-shared/tool-rules';

export { NAMESPACE_SEPARATOR };
export const MAX_WIRE_NAME_LENGTH = 64;
export const WIRE_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const HASH_SUFFIX_LENGTH = 7;

function hashSuffix(toolName: string): string {
  return `-${createHash('sha256').update(toolName).digest('hex').slice(0, HASH_SUFFIX_LENGTH - 1)}`;
}

function sanitisedPart(toolName: string): string {
  const part = toolName.replace(/[^a-zA-Z0-9_-]/g, '_').replace(/_{2,}/g, '_');
  return part === '' ? 'tool' : part;
}

function withHash(toolName: string, room: number): string {
  return `${sanitisedPart(toolName).slice(0, room - HASH_SUFFIX_LENGTH)}${hashSuffix(toolName)}`;
}

/** The wire name of one tool taken alone (no collision handling): `<serverId>__<part>`. */
export function namespacedToolName(serverId: string, toolName: string): string {
  if (!MCP_SERVER_ID_PATTERN.test(serverId)) throw new Error(`"${serverId}" is not a valid MCP server id.`);
  const room = MAX_WIRE_NAME_LENGTH - serverId.length - NAMESPACE_SEPARATOR.length;
  const part = sanitisedPart(toolName);
  return wireNameOf({ server: serverId, tool: part.length <= room ? part : withHash(toolName, room) });
}

/**
 * Wire names for every tool of one server, each distinct: a stand-in shared by two tools takes a hash suffix. Returns
 * wire name → the tool's own name, in the order given; a tool whose name cannot be made distinct is left out.
 */
export function namespaceTools(serverId: string, toolNames: readonly string[]): Map<string, string> {
  const room = MAX_WIRE_NAME_LENGTH - serverId.length - NAMESPACE_SEPARATOR.length;
  const first = toolNames.map((toolName) => namespacedToolName(serverId, toolName));
  const counts = new Map<string, number>();
  for (const name of first) counts.set(name, (counts.get(name) ?? 0) + 1);
  const byWireName = new Map<string, string>();
  toolNames.forEach((toolName, index) => {
    const candidate = first[index]!;
    const isOwnName = candidate === wireNameOf({ server: serverId, tool: toolName });
    const wireName = (counts.get(candidate) ?? 0) > 1 && !isOwnName ? wireNameOf({ server: serverId, tool: withHash(toolName, room) }) : candidate;
    if (!byWireName.has(wireName)) byWireName.set(wireName, toolName);
  });
  return byWireName;
}
