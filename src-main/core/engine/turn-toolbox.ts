/**
 * What a turn may use beyond the brain: the tools offered, their approval policy, memories and skills.
 */
import type { ApprovalGate, ToolPolicy } from '../tools/approvals';
import type { ToolDefinition } from '../tools/catalogue';
import { currentTimeTool } from '../tools/current-time';
import type { Skill } from '../tools/skills';

export interface TurnToolbox {
  /** The tools offered this turn: built-ins, MCP servers' tools, run_skill. The signal ends a slow server start. */
  list(signal?: AbortSignal): Promise<readonly ToolDefinition[]>;
  policyFor(server: string | null, tool: string): ToolPolicy;
  /** Where "ask" waits for the person; without one, "ask" is treated as a denial. */
  readonly approvals: ApprovalGate | null;
  /** The memories that best match a message, best first. */
  recall(text: string, limit: number): ReadonlyArray<{ readonly id: string; readonly text: string }>;
  skills(): readonly Skill[];
}

/** Only the clock: what a turn has when nothing else is configured. */
export function clockOnlyToolbox(): TurnToolbox {
  return {
    list: async () => [currentTimeTool],
    policyFor: () => 'allow',
    approvals: null,
    recall: () => [],
    skills: () => [],
  };
}
