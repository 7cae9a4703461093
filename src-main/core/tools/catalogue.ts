/**
 * The tool catalogue: one definition per tool (name, description, JSON schema), declared once and rendered by each
 * wire in its own declaration shape.
 */
import type { ToolImage } from '../../../src-shared/tool-images';
import { bareToolName, sameToolKey, toolKeyOfWireName, type ToolKey } from '../../../src-shared/tool-key';

/** What a brain is told about a tool. */
export interface ToolDescription {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

export interface ToolResult {
  /** The result's text, as every brain reads it. */
  readonly output: string;
  readonly isError: boolean;
  /** Images the result held beside its text, in order, for a brain that takes images in tool results. */
  readonly images?: readonly ToolImage[];
}

export interface ToolContext {
  readonly signal: AbortSignal;
  readonly now: () => Date;
}

export interface ToolDefinition extends ToolDescription {
  /** The MCP server the tool belongs to, or null for a built-in tool. */
  readonly server: string | null;
  execute(input: Record<string, unknown>, context: ToolContext): Promise<ToolResult>;
}

/** What brains are told about tools: the definitions without their executors. */
export function declarationsOf(tools: readonly ToolDefinition[]): ToolDescription[] {
  return tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
}

/** The one name of an offered tool: its server and the bare name it is declared under. */
export function toolKeyOf(tool: ToolDefinition): ToolKey {
  return { server: tool.server, tool: bareToolName(tool.name) };
}

/**
 * The offered tool a brain's call names: the one declared under that exact wire name, else the same tool spelled
 * with more namespace (`mcp__files__read_file`). Never a tool of another server, or the built-in, that shares the
 * bare name: `read_file` is the built-in and `files__read_file` is server-filesystem's.
 */
export function findTool(tools: readonly ToolDefinition[], wireName: string): ToolDefinition | undefined {
  const key = toolKeyOfWireName(wireName);
  return tools.find((tool) => tool.name === wireName) ?? tools.find((tool) => sameToolKey(toolKeyOf(tool), key));
}
