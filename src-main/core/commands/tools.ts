/**
 * Tools, skills, MCP servers, granted folders and approvals: what a brain may use, and the person's say over it.
 */
import { isAbsolute, resolve } from 'node:path';
import { ApiError, type McpServerView, type ToolView } from '../../../src-shared/api';
import { toMcpServerView } from '../mcp-server-store';
import { bareToolName } from '../replay/call-shaping';
import { readSetting, writeSetting } from '../store/settings';
import { policyKey } from '../tools/approvals';
import type { CommandDependencies, HandlerGroup } from './handlers';

export function toolCommands({ db, toolbox, mcpServers, mcpReady }: Pick<CommandDependencies, 'db' | 'toolbox' | 'mcpServers' | 'mcpReady'>) {
  const toolViews = async (): Promise<ToolView[]> => {
    await mcpReady;
    return (await toolbox.list()).map((tool) => {
      const bare = bareToolName(tool.name);
      return { name: tool.name, tool: bare, server: tool.server, description: tool.description, policy: toolbox.policyFor(tool.server, bare) };
    });
  };

  const mcpServerViews = (): McpServerView[] => {
    const statuses = new Map(toolbox.mcp.statuses().map((status) => [status.id, status]));
    return mcpServers.stored().map((server) => toMcpServerView(server, statuses.get(server.id)));
  };

  const afterMcpServersChanged = async (): Promise<McpServerView[]> => {
    await toolbox.syncMcpServers();
    return mcpServerViews();
  };

  return {
    listSkills: () => ({
      folder: toolbox.skillsFolder,
      skills: toolbox.skills().map((skill) => ({ name: skill.name, description: skill.description, file: skill.file })),
      problems: [...toolbox.skillProblems()],
    }),
    listTools: () => toolViews(),
    setToolPolicy: async ({ server, tool, policy }) => {
      writeSetting(db, 'toolPolicies', { ...(readSetting(db, 'toolPolicies') ?? {}), [policyKey(server, tool)]: policy });
      return toolViews();
    },
    listMcpServers: async () => {
      await mcpReady;
      return mcpServerViews();
    },
    saveMcpServer: async (input) => {
      mcpServers.save(input);
      return afterMcpServersChanged();
    },
    setMcpServerEnabled: async ({ id, enabled }) => {
      if (!mcpServers.setEnabled(id, enabled)) throw new ApiError('not-found', 'That MCP server no longer exists.');
      return afterMcpServersChanged();
    },
    removeMcpServer: async ({ id }) => {
      mcpServers.remove(id);
      return afterMcpServersChanged();
    },
    getGrantedFolders: () => ({ folders: toolbox.grantedFolders() }),
    setGrantedFolders: ({ folders }) => {
      const absolute = folders.filter((folder) => isAbsolute(folder));
      if (absolute.length !== folders.length) throw new ApiError('invalid-input', 'Granted folders must be absolute paths.');
      writeSetting(db, 'grantedFolders', [...new Set(absolute.map((folder) => resolve(folder)))]);
      return { folders: toolbox.grantedFolders() };
    },
    listApprovals: () => toolbox.approvals.list(),
    answerApproval: ({ approvalId, decision }) => ({ answered: toolbox.approvals.answer(approvalId, decision) }),
  } satisfies HandlerGroup;
}
