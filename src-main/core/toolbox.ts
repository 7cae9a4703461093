/**
 * The app's toolbox for every turn: built-in tools, MCP servers' tools, skills, memories and the approval policy,
 * read from settings and the data folder. Owns the MCP server processes.
 */
import { join } from 'node:path';
import type { ApiEvent } from '../../src-shared/api';
import type { TurnToolbox } from './engine/turn-toolbox';
import { searchMemories } from './store/memories';
import type { AppDatabase } from './store/open';
import { readSetting } from './store/settings';
import { ApprovalGate, defaultPolicy, policyKey, type ToolPolicy } from './tools/approvals';
import type { ToolDefinition } from './tools/catalogue';
import { currentTimeTool } from './tools/current-time';
import { createFileTools } from './tools/files';
import type { McpServerStore } from './mcp-server-store';
import { NotAnswering } from './outside/not-answering';
import { McpManager, type McpServerConfig } from './tools/mcp';
import { createMemoryTools } from './tools/memory-tools';
import { createRunSkillTool, loadSkills, type Skill, type SkillProblem } from './tools/skills';

export const SKILLS_FOLDER = 'skills';

export class AppToolbox implements TurnToolbox {
  readonly approvals: ApprovalGate;
  readonly mcp: McpManager;
  private readonly builtIns: ToolDefinition[];

  constructor(
    private readonly db: AppDatabase,
    private readonly dataDir: string,
    emit: (event: ApiEvent) => void,
    readonly mcpServers: McpServerStore,
    notAnswering: NotAnswering = new NotAnswering(),
  ) {
    // A server that has not listed its tools within the manager's wait is left out of the turn instead of holding it
    // up, and said to be not answering until it does.
    this.mcp = new McpManager({
      onSilence: ({ id, label }, silent, waitedMs) => {
        if (!silent) notAnswering.answered(`mcp:${id}`);
        else
          notAnswering.report(
            `mcp:${id}`,
            'mcp-server',
            `the MCP server “${label}”`,
            `The MCP server “${label}” has not listed its tools in ${waitedMs / 1000} s; replies go on without its tools until it answers.`,
          );
      },
    });
    this.approvals = new ApprovalGate(
      (approval) => emit({ type: 'approval-requested', approval }),
      (approval, outcome) => emit({ type: 'approval-resolved', approvalId: approval.approvalId, conversationId: approval.conversationId, outcome }),
    );
    this.builtIns = [
      currentTimeTool,
      ...createMemoryTools(db),
      ...createFileTools(() => this.grantedFolders()),
      createRunSkillTool(() => this.skills()),
    ];
  }

  get skillsFolder(): string {
    return join(this.dataDir, SKILLS_FOLDER);
  }

  grantedFolders(): string[] {
    return readSetting(this.db, 'grantedFolders') ?? [];
  }

  /** The configured servers with their environment values: for starting them, never for a view. */
  mcpConfigs(): McpServerConfig[] {
    return this.mcpServers.configs();
  }

  /** Starts, stops or restarts MCP servers to match settings. */
  async syncMcpServers(): Promise<void> {
    await this.mcp.setConfigs(this.mcpConfigs());
  }

  async list(signal?: AbortSignal): Promise<readonly ToolDefinition[]> {
    return [...this.builtIns, ...(await this.mcp.toolDefinitions(signal))];
  }

  policyFor(server: string | null, tool: string): ToolPolicy {
    return readSetting(this.db, 'toolPolicies')?.[policyKey(server, tool)] ?? defaultPolicy(server);
  }

  recall(text: string, limit: number): ReadonlyArray<{ readonly id: string; readonly text: string }> {
    return searchMemories(this.db, text, limit).map((match) => ({ id: match.id, text: match.text }));
  }

  skills(): readonly Skill[] {
    return loadSkills(this.skillsFolder).skills;
  }

  skillProblems(): readonly SkillProblem[] {
    return loadSkills(this.skillsFolder).problems;
  }

  dispose(): Promise<void> {
    return this.mcp.dispose();
  }
}
