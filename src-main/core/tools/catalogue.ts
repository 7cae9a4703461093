/**
 * The tool catalogue: one definition per tool (name, description, JSON schema), declared once and rendered by each
 * wire in its own declaration shape.
 */
import type { ToolDeclaration } from '../replay/types';

export interface ToolResult {
  readonly output: string;
  readonly isError: boolean;
}

export interface ToolContext {
  readonly signal: AbortSignal;
  readonly now: () => Date;
}

export interface ToolDefinition extends ToolDeclaration {
  /** The MCP server the tool belongs to, or null for a built-in tool. */
  readonly server: string | null;
  execute(input: Record<string, unknown>, context: ToolContext): Promise<ToolResult>;
}

/** What brains are told about tools: the definitions without their executors. */
export function declarationsOf(tools: readonly ToolDefinition[]): ToolDeclaration[] {
  return tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
}
