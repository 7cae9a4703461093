import type { McpServerView, SkillsView, ToolView } from '../../src-shared/api';

/** What Settings → Tools shows, and the skills the composer suggests; null until first loaded. */
export interface ToolsSlice {
  readonly tools: readonly ToolView[] | null;
  readonly mcpServers: readonly McpServerView[] | null;
  readonly grantedFolders: readonly string[] | null;
  readonly skills: SkillsView | null;
}

export const initialToolsSlice: ToolsSlice = { tools: null, mcpServers: null, grantedFolders: null, skills: null };
