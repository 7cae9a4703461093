/**
 * The tool catalogue: one definition per tool (name, description, JSON schema), declared once and rendered by each
 * wire in its own declaration shape.
 */

/** What a brain is told about a tool. */
export interface ToolDescription {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

export interface ToolResult {
  readonly output: string;
  readonly isError: boolean;
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
